/**
 * With a tsconfig, types cross files: a resource interface declared in one file, returned by a v1
 * wrapper in another and read in a third, is migrated in all three, and the result type-checks.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const exec = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true }, include: ['*.ts'] }),
  'package.json': '{ "type": "module" }',
  'types.ts': 'export interface Group {\n  id: string;\n  name: string;\n  description: string;\n}\n',
  'api.ts': [
    "import type { Group } from './types.js';",
    '',
    'export async function listGroups(base: string): Promise<Group[]> {',
    '  const res = await fetch(`${base}/iam/v1/groups`);',
    '  const body = await res.json();',
    '  return body.items;',
    '}',
    '',
  ].join('\n'),
  'report.ts': [
    "import { listGroups } from './api.js';",
    '',
    'export async function report(base: string): Promise<string[]> {',
    '  const groups = await listGroups(base);',
    '  const row = { id: 1, createdAt: 2 };',
    '  return groups.map((g) => `${g.id} ${g.name} ${row.id} ${row.createdAt}`);',
    '}',
    '',
  ].join('\n'),
};

async function typeCheck(dir: string): Promise<string> {
  try {
    await exec(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

it('migrates a resource type, the wrapper that returns it and the file that reads it, and still type-checks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-typed-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  expect(await typeCheck(dir)).toBe('');
  const r = await runCli([dir, '--write']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/3 files scanned, 3 changed/);
  expect(readFileSync(join(dir, 'types.ts'), 'utf8')).toBe(FILES['types.ts']!.replace('  id: string;', '  uid: string;'));
  expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toMatch(/\/iam\/v2beta1\/groups[\s\S]*return body\.groups;/);
  expect(readFileSync(join(dir, 'report.ts'), 'utf8')).toBe(FILES['report.ts']!.replace('${g.id}', '${g.uid}'));
  expect(await typeCheck(dir)).toBe('');
  const again = await runCli([dir, '--write']);
  expect(again.stderr).toMatch(/3 files scanned, 0 changed/);
});

it('type-checks what it changed, before and after: an error the migration brings is a review item, and --check fails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-selfcheck-'));
  // A field read by a computed key: no rename can follow it, so the renamed type breaks this line.
  const sneaky = FILES['report.ts']!.replace('  const groups = await listGroups(base);', "  const groups = await listGroups(base);\n  const key = 'id' as const;\n  console.log(groups.map((g) => g[key]));");
  for (const [name, text] of Object.entries({ ...FILES, 'report.ts': sneaky })) writeFileSync(join(dir, name), text);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  expect(await typeCheck(dir)).toBe('');
  const dry = await runCli([dir, '--check']);
  expect(dry.code).toBe(1);
  // A dry run names the statement's line in the file as it is; the note written above it moves it down a line.
  expect(dry.stderr).toMatch(/report\.ts:6: type error after migration: .*'id'.*\[self-check\]/);
  expect(dry.stderr).toMatch(/type errors before 0, after 1,/);
  const json = await runCli([dir, '--json']);
  expect(JSON.parse(json.stdout).summary.typeErrors).toEqual({ before: 0, after: 1 });
  // Written into the file, the error stays pending: the next --check still fails on it.
  await runCli([dir, '--write']);
  expect(readFileSync(join(dir, 'report.ts'), 'utf8').split('\n')[5]).toMatch(/^\s*\/\/ migrate-v2-todo: type error after migration: .*'id'/);
  const again = await runCli([dir, '--check']);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/report\.ts:7: type error after migration: .*'id'/);
});

it('says it type-checked nothing when it changed nothing, rather than counting no errors', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-selfcheck-none-'));
  // A tag update: v2beta1 has none, so the call stays on v1 with a note, and the next run changes nothing.
  const tags = "export async function deprecate(base: string, id: string): Promise<number> {\n  const res = await fetch(`${base}/registry/v1/tags/${id}`, { method: 'PUT', body: JSON.stringify({ deprecated: true }) });\n  return res.status;\n}\n";
  for (const [name, text] of Object.entries({ 'tsconfig.json': FILES['tsconfig.json']!, 'package.json': FILES['package.json']!, 'tags.ts': tags })) writeFileSync(join(dir, name), text);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const first = await runCli([dir, '--write']);
  expect(first.stderr).toMatch(/1 file scanned, 1 changed, .* type errors before 0, after 0, /);
  const again = await runCli([dir]);
  expect(again.stderr).toMatch(/1 file scanned, 0 to change, 1 unchanged, 1 manual-review item, 0 errors, no file changed, none type-checked, /);
  const json = await runCli([dir, '--report', join(dir, 'run.md')]);
  expect(json.code).toBe(0);
  expect(readFileSync(join(dir, 'run.md'), 'utf8')).toMatch(/\| no file changed, none type-checked \|/);
});

it('finds an error the migration brings into a statement it did not edit, in the same file or through an import', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-selfcheck-far-'));
  // Fields read by a computed key: no rename follows them, so the renamed type breaks these statements, which no edit touches.
  const byKey = (name: string) => `\nexport function ${name}(g: Group): string {\n  const key = 'id' as const;\n  return g[key];\n}\n`;
  const files = { ...FILES, 'types.ts': FILES['types.ts']! + byKey('idOfGroup'), 'api.ts': FILES['api.ts']! + byKey('idOf') };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  expect(await typeCheck(dir)).toBe('');
  const dry = await runCli([dir, '--check']);
  expect(dry.code).toBe(1);
  // On the lines of the files as they are; written, the notes above them move them down one.
  expect(dry.stderr).toMatch(/types\.ts:9: type error after migration: .*'id'.*\[self-check\]/);
  expect(dry.stderr).toMatch(/api\.ts:11: type error after migration: .*'id'.*\[self-check\]/);
  expect(dry.stderr).toMatch(/type errors before 0, after 2,/);
  await runCli([dir, '--write']);
  expect(await typeCheck(dir)).toMatch(/types\.ts\(10,[\s\S]*api\.ts\(12,|api\.ts\(12,[\s\S]*types\.ts\(10,/);
});
