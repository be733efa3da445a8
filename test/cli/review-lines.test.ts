/**
 * A review item names a line of the file as it is on disk once the command is done: in a dry run
 * (and so in a pull request's annotations and links) the line of the file as it was, whatever notes
 * the migration would put above it; after --write, the line of the written file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const SOURCE = [
  "const BASE = process.env['PLATFORM_URL'];",
  '',
  'export async function rename(groupId: string, body: unknown): Promise<void> {',
  "  await fetch(`${BASE}/iam/v1/groups/${groupId}`, { method: 'PUT', body: JSON.stringify(body) });",
  '}',
  '',
  'export async function describe(kind: string): Promise<unknown> {',
  '  const res = await fetch(`${BASE}/iam/v1/${kind}`);',
  '  return res.json();',
  '}',
  '',
].join('\n');

const linesOf = (stderr: string) => [...stderr.matchAll(/^save\.ts:(\d+): /gm)].map((m) => Number(m[1]));

it('names the lines of the file as it was in a dry run, and of the written file after --write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-review-lines-'));
  writeFileSync(join(dir, 'save.ts'), SOURCE);
  // The PUT is rewritten under its note; the other call stays, a note put above it.
  const dry = await runCli(['save.ts', '--report', 'dry.json', '--report', 'dry.md'], { cwd: dir });
  expect(dry.code, dry.stderr).toBe(0);
  expect(linesOf(dry.stderr)).toEqual([4, 8]);
  expect(JSON.parse(readFileSync(join(dir, 'dry.json'), 'utf8')).files[0].review.map((r: { line: number }) => r.line)).toEqual([4, 8]);
  expect(readFileSync(join(dir, 'dry.md'), 'utf8')).toContain('(save.ts#L8)');
  const annotations = await runCli(['save.ts', '--format', 'github'], { cwd: dir });
  expect([...annotations.stdout.matchAll(/line=(\d+)/g)].map((m) => Number(m[1]))).toEqual([4, 8]);
  expect(readFileSync(join(dir, 'save.ts'), 'utf8')).toBe(SOURCE);

  const write = await runCli(['save.ts', '--write'], { cwd: dir });
  expect(write.code, write.stderr).toBe(0);
  expect(linesOf(write.stderr)).toEqual([5, 10]);
  const written = readFileSync(join(dir, 'save.ts'), 'utf8').split('\n');
  for (const line of [5, 10]) expect(written[line - 2]).toMatch(/^\s*\/\/ migrate-v2-todo: /);
  expect(written[9]).toBe(SOURCE.split('\n')[7]);
  // The notes left in the file are pending on the lines they stand above.
  const again = await runCli(['save.ts'], { cwd: dir });
  expect(linesOf(again.stderr)).toEqual([5, 10]);
});

it('writes an error in what the migration adds at the end of a file above its statement, inside the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-review-lines-end-'));
  // No DOM lib: the page helper the migration appends names Response, which this program does not know.
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, lib: ['es2022'], types: [], noEmit: true }, include: ['*.ts'] }));
  const source = [
    'declare function fetch(url: string): Promise<{ ok: boolean; json(): Promise<unknown> }>;',
    'interface Group { id: string; name: string }',
    'export async function names(base: string): Promise<string[]> {',
    '  const res = await fetch(`${base}/iam/v1/groups`);',
    '  const body = (await res.json()) as { items: Group[] };',
    '  return body.items.map((g) => g.name);',
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'a.ts'), source);
  const r = await runCli(['.', '--write', '--format', 'github'], { cwd: dir });
  const lines = [...r.stdout.matchAll(/^::warning file=a\.ts,line=(\d+),title=migrate-v2 self-check::/gm)].map((m) => Number(m[1]));
  expect(lines.length, r.stdout).toBeGreaterThan(0);
  // Each error's note is written above its statement, inside the file.
  const written = readFileSync(join(dir, 'a.ts'), 'utf8').split('\n');
  for (const line of lines) {
    expect(line).toBeLessThanOrEqual(written.length);
    expect(written[line - 2]).toMatch(/^\s*\/\/ migrate-v2-todo: type error after migration: /);
  }
});
