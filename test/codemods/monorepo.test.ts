/**
 * A generated 1,000-file monorepo (test/generators/monorepo.ts) migrated with --write by the CLI:
 * it type-checks before and after, every API field read its ground truth counts is renamed, and
 * every file that is not API code is byte-identical.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { checkMigrated, generateMonorepo } from '../generators/monorepo.js';
import { runCli } from '../helpers/cli.js';

const exec = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

async function typeErrors(dir: string): Promise<string[]> {
  try {
    await exec(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { maxBuffer: 1 << 24 });
    return [];
  } catch (error) {
    return String((error as { stdout?: string }).stdout).split('\n').filter((l) => l.includes('error TS'));
  }
}

it('migrates a 1,000-file monorepo: 0 type errors after, every API read renamed, other files untouched', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mv2-monorepo-'));
  const repo = generateMonorepo(root, 1000, 7, join(REPO, 'node_modules'));
  expect(repo.truth.size).toBeGreaterThanOrEqual(1000);
  expect(await typeErrors(root)).toEqual([]);
  const run = await runCli([root, '--write'], { timeoutMs: 120_000 });
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(run.stderr).toMatch(/type errors before 0, after 0/);
  expect(await typeErrors(root)).toEqual([]);
  expect(checkMigrated(repo, (path) => readFileSync(join(root, path), 'utf8'))).toEqual([]);
  const again = await runCli([root, '--write'], { timeoutMs: 120_000 });
  expect(again.stderr).toMatch(/ 0 changed,/);
}, 240_000);
