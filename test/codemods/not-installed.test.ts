/**
 * A project whose packages are not installed (a CI job that checked it out and installed only
 * migrate-v2): the self-check cannot see those packages' types, and the run says so, naming them,
 * on the terminal, in both reports, as an annotation, and through merge-reports. A path alias and a
 * module a declaration file declares are not packages; installed, nothing is said.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { projectOf } from '../helpers/project.js';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, paths: { '@app/*': ['./app/*'] } },
    include: ['*.ts'],
  }),
  'package.json': '{ "type": "module" }',
  'declared.d.ts': "declare module 'declared-pkg' {\n  export const region: string;\n}\n",
  'api.ts': [
    "import { retrying } from 'http-retry-kit';",
    "import { pad } from '@acme/pad/strings';",
    "import { region } from 'declared-pkg';",
    "import { level } from '@app/log-level';",
    '',
    'export async function groupNames(base: string): Promise<string[]> {',
    '  const res = await retrying(() => fetch(`${base}/iam/v1/groups`));',
    '  const body = (await res.json()) as { items: { id: string; name: string }[] };',
    '  return body.items.map((g) => pad(`${g.id} ${g.name} ${region} ${level}`));',
    '}',
    '',
  ].join('\n'),
};

/** The two packages api.ts imports, as installed packages with their types. */
const INSTALLED: Record<string, string> = {
  'node_modules/http-retry-kit/package.json': '{ "name": "http-retry-kit", "version": "1.0.0", "types": "index.d.ts" }',
  'node_modules/http-retry-kit/index.d.ts': 'export declare function retrying<T>(call: () => Promise<T>): Promise<T>;\n',
  'node_modules/@acme/pad/package.json': '{ "name": "@acme/pad", "version": "1.0.0", "exports": { "./strings": { "types": "./strings.d.ts" } } }',
  'node_modules/@acme/pad/strings.d.ts': 'export declare function pad(text: string): string;\n',
};

const WARNING = /the type check cannot find packages the files it checks import \(@acme\/pad, http-retry-kit\)/;

it('names the packages the checked files import that are not installed, and no alias or declared module', async () => {
  const dir = projectOf(FILES);
  const r = await runCli(['.', '--report', 'run.json', '--report', 'run.md'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/1 file scanned, 1 to change/);
  expect(r.stderr).toMatch(new RegExp(`\\nwarning: ${WARNING.source}.*Install the project's packages \\(npm ci\\) and run again\\.\\n$`));
  const report = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  expect(report.summary.typeErrors.notInstalled).toEqual(['@acme/pad', 'http-retry-kit']);
  expect(readFileSync(join(dir, 'run.md'), 'utf8')).toMatch(new RegExp(`\\|\\n\\n> \\*\\*Warning:\\*\\* ${WARNING.source}`));

  const annotated = await runCli(['.', '--format', 'github'], { cwd: dir });
  expect(annotated.stdout.split('\n')[0]).toMatch(new RegExp(`^::warning title=migrate-v2 self-check::${WARNING.source}`));

  // A matrix whose shards each saw some of them: the merged report names them all, once.
  const other = { ...report, summary: { ...report.summary, typeErrors: { ...report.summary.typeErrors, notInstalled: ['axios', 'http-retry-kit'] } }, files: [] };
  writeFileSync(join(dir, 'shard-1.json'), JSON.stringify({ ...report, shard: { index: 1, count: 2 } }));
  writeFileSync(join(dir, 'shard-2.json'), JSON.stringify({ ...other, shard: { index: 2, count: 2 } }));
  const merged = await runCli(['merge-reports', 'shard-1.json', 'shard-2.json', '--report', 'merged.json'], { cwd: dir });
  expect(merged.code, merged.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')).summary.typeErrors.notInstalled).toEqual(['@acme/pad', 'axios', 'http-retry-kit']);
});

it('says nothing of packages once they are installed', async () => {
  const dir = projectOf({ ...FILES, ...INSTALLED });
  const r = await runCli(['.', '--report', 'run.json', '--report', 'run.md'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/1 file scanned, 1 to change, 0 unchanged, 0 manual-review items, 0 errors, type errors before \d+, after \d+/);
  expect(r.stderr).not.toMatch(/warning|cannot find/);
  expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).summary.typeErrors.notInstalled).toBeUndefined();
  expect(readFileSync(join(dir, 'run.md'), 'utf8')).not.toMatch(/Warning/);
});

/** A project built with TypeScript 5, whose tsconfig names no `types`: every package under node_modules/@types joins its programs. */
const GLOBAL_TYPES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noEmit: true }, include: ['*.ts'] }),
  'package.json': '{ "type": "module" }',
  'node_modules/@types/platform-env/package.json': '{ "name": "@types/platform-env", "version": "1.0.0", "types": "index.d.ts" }',
  'node_modules/@types/platform-env/index.d.ts': 'declare const platformEnv: { base: string };\n',
  'api.ts': [
    'export async function groupNames(): Promise<string[]> {',
    '  const res = await fetch(`${platformEnv.base}/iam/v1/groups`);',
    '  const body = (await res.json()) as { items: { id: string; name: string }[] };',
    '  return body.items.map((g) => `${g.id} ${g.name}`);',
    '}',
    '',
  ].join('\n'),
};

it('reads the @types packages a tsconfig without `types` takes in before TypeScript 6, and not after it', async () => {
  const before = projectOf(GLOBAL_TYPES);
  const r = await runCli(['.'], { cwd: before });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/1 file scanned, 1 to change, 0 unchanged, 0 manual-review items, 0 errors, type errors before 0, after 0/);

  // A project that installs TypeScript 6 builds without them, and so does its self-check.
  const after = projectOf({ ...GLOBAL_TYPES, 'node_modules/typescript/package.json': '{ "name": "typescript", "version": "6.0.2" }' });
  const six = await runCli(['.'], { cwd: after });
  expect(six.code, six.stderr).toBe(0);
  expect(six.stderr).toMatch(/type errors before 1, after 1/);
});

/**
 * A lax project built with TypeScript 5: its tsconfig leaves `strict` unset, so a parameter may go
 * untyped, and `esModuleInterop` unset with CommonJS modules, so a package that exports a function
 * (`export =`) is called through a namespace import.
 */
const LAX: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', lib: ['ES2023', 'DOM'], types: [], noEmit: true }, include: ['*.ts'] }),
  'node_modules/glob-test/package.json': '{ "name": "glob-test", "version": "1.0.0", "types": "index.d.ts" }',
  'node_modules/glob-test/index.d.ts': 'declare function globTest(pattern: string): (name: string) => boolean;\ndeclare namespace globTest {\n  const version: string;\n}\nexport = globTest;\n',
  'api.ts': [
    "import * as globTest from 'glob-test';",
    '',
    'function label(g) {',
    "  return globTest('infra-*')(g.name) ? `${g.id} infra` : `${g.id} ${g.name}`;",
    '}',
    '',
    'export async function groupNames(base: string): Promise<string[]> {',
    '  const res = await fetch(`${base}/iam/v1/groups`);',
    '  const body = (await res.json()) as { items: { id: string; name: string }[] };',
    '  return body.items.map(label);',
    '}',
    '',
  ].join('\n'),
};

it('checks a project built before TypeScript 6 with `strict` and `esModuleInterop` as TypeScript 5 took them where its tsconfig leaves them unset, as its tsc does', async () => {
  const five = await runCli(['.'], { cwd: projectOf(LAX) });
  expect(five.code, five.stderr).toBe(0);
  expect(five.stderr).toMatch(/type errors before 0, after 0/);

  // TypeScript 6 turned `strict` and `esModuleInterop` on: the untyped parameter and the call of the namespace are errors there, before and after.
  const six = await runCli(['.'], { cwd: projectOf({ ...LAX, 'node_modules/typescript/package.json': '{ "name": "typescript", "version": "6.0.2" }' }) });
  expect(six.code, six.stderr).toBe(0);
  expect(six.stderr).toMatch(/type errors before [1-9]\d*, after [1-9]/);
});
