/**
 * `migrate-v2 --jobs N`: a run large enough for worker threads prints, reports and writes what a run
 * on one thread does. A recorder loaded ahead of the CLI (helpers/worker-threads/record.mjs) shows
 * that the threads were used; nothing here is timed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { CodemodReport } from '../../src/codemod/report.js';
import { generateMonorepo } from '../generators/monorepo.js';
import { runCli, type CliResult } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const RECORDER = fileURLToPath(new URL('../helpers/worker-threads/record.mjs', import.meta.url));

/** Enough files for about 210 candidates in three packages that share nothing: enough for threads. */
const FILES = 460;

/** A run of the CLI in `cwd`, with the ids of the worker threads it started. */
async function migrate(cwd: string, args: string[]): Promise<CliResult & { workers: number; report: CodemodReport }> {
  const out = mkdtempSync(join(tmpdir(), 'mv2-jobs-out-'));
  const workers = join(out, 'workers.txt');
  writeFileSync(workers, '');
  const run = await runCli(['.', '--report', join(out, 'report.json'), ...args], { cwd, nodeArgs: ['--import', RECORDER], env: { WORKERS_FILE: workers }, timeoutMs: 120_000 });
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as CodemodReport;
  return { ...run, workers: readFileSync(workers, 'utf8').split('\n').filter(Boolean).length, report: { ...report, summary: { ...report.summary, ms: 0 } } };
}

function monorepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'mv2-jobs-'));
  generateMonorepo(root, FILES, 7, join(REPO, 'node_modules'), 3);
  return root;
}

/** Every file under `root` but node_modules, by relative path. */
function texts(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return out;
}

it('prints and reports the same diff, review items and counts with --jobs 2 as with --jobs 1', async () => {
  const root = monorepo();
  const one = await migrate(root, ['--jobs', '1']);
  const two = await migrate(root, ['--jobs', '2']);
  expect(one.workers, 'one thread').toBe(0);
  // This thread runs one part and a worker the other.
  expect(two.workers, 'a worker thread').toBe(1);
  expect(one.report.summary.changed, 'the run has work').toBeGreaterThan(20);
  expect(one.report.summary.typeErrors, 'typed: the tsconfig was found').toBeDefined();
  expect(two.stdout).toBe(one.stdout);
  expect(two.report).toEqual(one.report);
}, 300_000);

it('writes the same files with --jobs 2 as with --jobs 1', async () => {
  const [a, b] = [monorepo(), monorepo()];
  const generated = texts(a);
  expect(texts(b)).toEqual(generated);
  const one = await migrate(a, ['--write', '--jobs', '1']);
  const two = await migrate(b, ['--write', '--jobs', '2']);
  expect(two.workers).toBe(1);
  expect(two.report).toEqual(one.report);
  const written = texts(b);
  expect(written).toEqual(texts(a));
  const changed = [...written].filter(([path, text]) => generated.get(path) !== text);
  expect(changed.length, 'the files were written').toBe(one.report.summary.changed);
  expect(changed.length).toBeGreaterThan(20);
}, 300_000);

/**
 * A type imported through a path alias, not a relative import, joins no part of the split: one part
 * migrates it with its list, while the other part's create, which stays on v1, reads it too. The run
 * on one thread keeps the type's names and notes both calls; so must the run with --jobs.
 */
function aliasTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'mv2-jobs-alias-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, paths: { '@app/types': ['./types/resources.ts'] } } }));
  write('types/resources.ts', 'export interface Repo {\n  id: string;\n  name: string;\n}\n');
  write('a/list.ts', "import type { Repo } from '@app/types';\n\nexport async function repos(): Promise<Repo[]> {\n  const res = await fetch('https://platform.example.com/registry/v1/repos');\n  const body = (await res.json()) as { items: Repo[] };\n  return body.items;\n}\n");
  write('b/create.ts', "import type { Repo } from '@app/types';\n\nexport async function create(group: string, name: string): Promise<Repo> {\n  const res = await fetch(`https://platform.example.com/registry/v1/repos/${group}`, { method: 'POST', body: JSON.stringify({ name }) });\n  return (await res.json()) as Repo;\n}\n");
  for (let i = 0; i < 210; i++) write(`roles/role-${i}.ts`, `export const role${i} = () => fetch('https://platform.example.com/iam/v1/roles/${i}');\n`);
  return root;
}

it('gives the output of one thread when the parts read each other\'s files', async () => {
  const root = aliasTree();
  const one = await migrate(root, ['--jobs', '1']);
  const two = await migrate(root, ['--jobs', '2']);
  expect(two.workers).toBe(1);
  expect(one.report.files.find((f) => f.path === 'b/create.ts')?.review.length, 'the create stays on v1 with a note').toBeGreaterThan(0);
  expect(two.stdout).toBe(one.stdout);
  expect(two.report).toEqual(one.report);
}, 300_000);

it('refuses a --jobs that is not a whole number from 1: one line, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-jobs-bad-'));
  writeFileSync(join(dir, 'client.ts'), "fetch('https://platform.example.com/iam/v1/groups');\n");
  for (const bad of ['0', '1.5', 'two', '-1']) {
    const r = await runCli([dir, `--jobs=${bad}`]);
    expect(r.code, bad).toBe(2);
    expect(r.stderr).toBe(`migrate-v2: --jobs must be a whole number from 1 to 64, got "${bad}"\n`);
    expect(r.stdout).toBe('');
  }
});
