/** User mistakes around the codemod's outputs: one line on stderr, exit 2, nothing half-written. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-errors-'));
  writeFileSync(join(dir, 'client.mjs'), "export const groups = () => fetch('https://platform.example.com/iam/v1/groups').then((r) => r.json()).then((b) => b.items);\n");
  return dir;
}

it('an unwritable --report is one line and exit 2, with no stack trace and no temporary file', async () => {
  const dir = tree();
  const r = await runCli([dir, '--report', join(dir, 'missing-dir', 'report.md')]);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^migrate-v2: cannot write .*report\.md: ENOENT$/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});

it('refuses a --format that contradicts the report file name', async () => {
  const dir = tree();
  const r = await runCli([dir, '--report', join(dir, 'report.md'), '--format', 'json']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--format json: the file name says md/);
  expect(existsSync(join(dir, 'report.md'))).toBe(false);
});

it('says what the paths default to', async () => {
  const r = await runCli(['migrate', '--help']);
  expect(r.stdout).toMatch(/default: the current\s+directory/);
  expect(r.stdout).not.toMatch(/default: \[\]/);
});

it('--write writes no file when one could not be migrated: the others may rely on it', async () => {
  const dir = tree();
  const broken = "export const roles = () => fetch('https://platform.example.com/iam/v1/roles').then((r) => r.json()).then((b) => b.items.map((x) => x.id);\n";
  writeFileSync(join(dir, 'broken.mjs'), broken);
  const before = readFileSync(join(dir, 'client.mjs'), 'utf8');
  const r = await runCli([dir, '--write', '--allow-dirty']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/broken\.mjs.*does not parse/);
  expect(r.stderr).toMatch(/no file was written: 1 could not be migrated/);
  expect(readFileSync(join(dir, 'client.mjs'), 'utf8')).toBe(before);
  expect(readFileSync(join(dir, 'broken.mjs'), 'utf8')).toBe(broken);
  // Left out, the rest is written.
  const rest = await runCli([dir, '--write', '--allow-dirty', '--exclude', 'broken.mjs']);
  expect(rest.code).toBe(0);
  expect(readFileSync(join(dir, 'client.mjs'), 'utf8')).toMatch(/v2beta1/);
});
