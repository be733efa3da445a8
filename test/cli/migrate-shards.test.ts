/**
 * `migrate-v2 --shard i/n` and `merge-reports` on a generated monorepo with three types packages,
 * each read by its own share of the API files and their readers: the shards are disjoint, each
 * package stays whole in one shard, and together they are the unsharded run; their merged report
 * is the unsharded report apart from the time.
 */
import { cpSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { CodemodReport } from '../../src/codemod/report.js';
import { generateMonorepo } from '../generators/monorepo.js';
import { runCli } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SHARDS = 3;

const readJson = (path: string): CodemodReport => JSON.parse(readFileSync(path, 'utf8'));
const withoutTime = (r: CodemodReport) => ({ ...r, summary: { ...r.summary, ms: 0 } });

it('splits a typed run into disjoint shards whose union, and merged report, is the unsharded run', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mv2-shards-'));
  const out = mkdtempSync(join(tmpdir(), 'mv2-shard-reports-'));
  generateMonorepo(root, 300, 7, join(REPO, 'node_modules'), SHARDS);
  const bound = ['--report-max-chars', '20000'];
  const whole = await runCli(['.', '--report', join(out, 'whole.json'), '--report', join(out, 'whole.md'), ...bound], { cwd: root, timeoutMs: 120_000 });
  expect(whole.code, whole.stderr.slice(-2000)).toBe(0);
  const shards: CodemodReport[] = [];
  for (let i = 1; i <= SHARDS; i++) {
    const run = await runCli(['.', '--shard', `${i}/${SHARDS}`, '--report', join(out, `shard-${i}.json`)], { cwd: root, timeoutMs: 120_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    shards.push(readJson(join(out, `shard-${i}.json`)));
  }
  const full = readJson(join(out, 'whole.json'));
  expect(full.summary.typeErrors, 'typed: the tsconfig was found').toBeDefined();

  const paths = shards.map((s) => s.files.map((f) => f.path));
  expect(new Set(paths.flat()).size, 'no file in two shards').toBe(paths.flat().length);
  expect(shards.map((s) => s.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: SHARDS, run: shards[0]!.shard!.run })));
  expect(shards[0]!.shard!.run).toMatchObject({ paths: '.', tsconfig: 'tsconfig.json' });
  for (const s of shards) expect(s.files.filter((f) => f.changed).length, 'every shard has work').toBeGreaterThan(0);
  // A types package and every file that imports it change together: one shard each.
  for (let j = 0; j < SHARDS; j++) {
    const holders = shards.flatMap((s, i) => (s.files.some((f) => f.path.startsWith(`packages/types-${j}/`) || f.diff?.includes(`/types-${j}/src/`)) ? [i] : []));
    expect(holders, `types-${j}`).toHaveLength(1);
  }
  expect(shards.flatMap((s) => s.files).sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual(full.files);
  expect(shards.reduce((n, s) => n + s.summary.scanned, 0)).toBe(full.summary.scanned);

  const merge = await runCli(['merge-reports', ...shards.map((_, i) => join(out, `shard-${i + 1}.json`)), '--report', join(out, 'merged.json'), '--report', join(out, 'merged.md'), ...bound]);
  expect(merge.code, merge.stderr).toBe(0);
  expect(withoutTime(readJson(join(out, 'merged.json')))).toEqual(withoutTime(full));
  const md = readFileSync(join(out, 'merged.md'), 'utf8');
  expect(md).toContain('left out to fit this report');
  expect(md).toBe(readFileSync(join(out, 'whole.md'), 'utf8').replaceAll(join(out, 'whole.json'), join(out, 'merged.json')));
}, 400_000);

it('keeps a recording with the test that loads it: the bundled clients in three shards are the unsharded run', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mv2-shards-clients-'));
  cpSync(join(REPO, 'fixtures/clients'), root, { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  const whole = await runCli(['.', '--report', 'whole.json'], { cwd: root });
  expect(whole.code, whole.stderr).toBe(0);
  const full = readJson(join(root, 'whole.json'));
  expect(full.files.find((f) => f.path === '__recordings__/org-walk.json')?.changed, 'the recording changes').toBe(true);
  const shards: string[] = [];
  for (let i = 1; i <= SHARDS; i++) {
    const run = await runCli(['.', '--shard', `${i}/${SHARDS}`, '--report', `shard-${i}.json`], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    shards.push(`shard-${i}.json`);
  }
  const merge = await runCli(['merge-reports', ...shards, '--report', 'merged.json'], { cwd: root });
  expect(merge.code, merge.stderr).toBe(0);
  expect(withoutTime(readJson(join(root, 'merged.json')))).toEqual(withoutTime(full));
}, 120_000);
