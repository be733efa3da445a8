/**
 * Which files join the typed program: a file that imports from a v1 module a name that carries v1
 * (through a tsconfig `paths` alias and a barrel here) is analysed with types and gets the renames;
 * files that import the same module for something else are not analysed, and stay as they are.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { expect, it } from 'vitest';
import { mayCallV1 } from '../../src/contract/index.js';
import { importResolver, readTsconfig } from '../../src/codemod/program.js';
import { TypedScope } from '../../src/codemod/typed-scope.js';
import { runCli } from '../helpers/cli.js';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, paths: { '@app/*': ['./src/*'] } }, include: ['src'] }),
  'src/api.ts': [
    'export interface Identity {',
    '  id: string;',
    '  name: string;',
    '  createdAt: string;',
    '}',
    '',
    "export const VERSION = '1.0';",
    '',
    'export async function listIdentities(base: string): Promise<Identity[]> {',
    '  const res = await fetch(`${base}/iam/v1/identities`);',
    '  const body = (await res.json()) as { items: Identity[] };',
    '  return body.items;',
    '}',
    '',
  ].join('\n'),
  'src/index.ts': "export { listIdentities, VERSION } from './api';\n",
  // Reads fields of the records listIdentities returns: it takes listIdentities through the alias and the barrel.
  'src/report.ts': [
    "import { listIdentities } from '@app/index';",
    '',
    'export async function report(base: string): Promise<string[]> {',
    '  const identities = await listIdentities(base);',
    '  return identities.map((g) => `${g.id} ${g.name} ${g.createdAt.slice(0, 10)}`);',
    '}',
    '',
  ].join('\n'),
  // Import the v1 module for its version only: their own `id` and `createdAt` are no records of v1.
  'src/banner.ts': [
    "import { VERSION } from '@app/api';",
    '',
    'const row = { id: VERSION, createdAt: 0 };',
    'export const banner = (): string => `${row.id} ${row.createdAt}`;',
    '',
  ].join('\n'),
  'src/about.ts': ["import * as api from './api';", '', 'const item = { id: api.VERSION };', 'export const about = (): string => item.id;', ''].join('\n'),
};

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-typed-scope-'));
  mkdirSync(join(dir, 'src'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  return dir;
}

it('analyses with types the v1 file and the file that reads its records, not the files that import the module for something else', () => {
  const dir = project();
  const raws = new Map(Object.entries(FILES).filter(([name]) => name.endsWith('.ts')).map(([name, text]) => [join(dir, name), text]));
  const { options } = readTsconfig(join(dir, 'tsconfig.json'));
  const scope = new TypedScope(raws, options, importResolver(raws, options), mayCallV1);
  const roots = scope.roots(new Set([join(dir, 'src/api.ts')]));
  expect([...roots].map((p) => p.slice(dir.length + 1)).sort()).toEqual(['src/api.ts', 'src/report.ts']);
});

it('renames the fields an importer reads of a v1 record, and leaves the importers that only take other names as they were', async () => {
  const dir = project();
  const r = await runCli([dir, '--write', '--tsconfig', join(dir, 'tsconfig.json')]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/5 files scanned, 2 changed/);
  expect(readFileSync(join(dir, 'src/report.ts'), 'utf8')).toBe(FILES['src/report.ts']!.replace('${g.id}', '${g.uid}').replace('${g.createdAt.slice', '${g.createTime.slice'));
  expect(readFileSync(join(dir, 'src/api.ts'), 'utf8')).toMatch(/ {2}uid: string;[\s\S]*createTime: string;[\s\S]*\/iam\/v2beta1\/identities/);
  for (const name of ['src/banner.ts', 'src/about.ts', 'src/index.ts']) expect(readFileSync(join(dir, name), 'utf8')).toBe(FILES[name]);
});

it('follows v1 through a module that takes its path from another: the importers of its functions join, those of its other names do not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-typed-scope-chain-'));
  mkdirSync(join(dir, 'src'));
  const files: Record<string, string> = {
    // The path lives in the client module; the module that calls v1 holds no v1 text of its own.
    'src/client.ts': "export const GROUPS = '/iam/v1/groups';\nexport async function apiRequest<T>(path: string): Promise<T> {\n  return (await (await fetch(path)).json()) as T;\n}\n",
    'src/api.ts': "import { apiRequest, GROUPS } from './client.js';\nexport interface Group {\n  id: string;\n  name: string;\n}\nexport const PAGE = 20;\nexport async function listGroups(): Promise<Group[]> {\n  return (await apiRequest<{ items: Group[] }>(GROUPS)).items;\n}\n",
    'src/main.ts': "import { listGroups } from './api.js';\nfor (const g of await listGroups()) console.log(g.id);\n",
    'src/pager.ts': "import { PAGE } from './api.js';\nexport const rows = { id: PAGE };\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const raws = new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text]));
  const options = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  const scope = new TypedScope(raws, options, importResolver(raws, options), mayCallV1);
  const roots = scope.roots(new Set([join(dir, 'src/client.ts')]));
  expect([...roots].map((p) => p.slice(dir.length + 1)).sort()).toEqual(['src/api.ts', 'src/client.ts', 'src/main.ts']);
});
