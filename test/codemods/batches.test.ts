/**
 * A large run goes in batches (a program, an analysis and a self-check each, released before the
 * next), never splitting files that import each other: the same tree migrated whole and in batches
 * of a few dozen files gives the same diff and the same report. The batch sizes are set low through
 * the environment so that a small tree is split as a 20,000-file one would be.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { CodemodReport } from '../../src/codemod/report.js';
import { generateMonorepo } from '../generators/monorepo.js';
import { runCli } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

const readJson = (path: string): CodemodReport => JSON.parse(readFileSync(path, 'utf8'));
const withoutTime = (r: CodemodReport) => ({ ...r, summary: { ...r.summary, ms: 0 } });

it('migrates a typed tree in batches exactly as it does whole', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mv2-batches-'));
  const out = mkdtempSync(join(tmpdir(), 'mv2-batch-reports-'));
  generateMonorepo(root, 300, 7, join(REPO, 'node_modules'), 3);
  const whole = await runCli(['.', '--report', join(out, 'whole.json')], { cwd: root, timeoutMs: 120_000 });
  expect(whole.code, whole.stderr.slice(-2000)).toBe(0);
  const batched = await runCli(['.', '--report', join(out, 'batched.json')], { cwd: root, timeoutMs: 120_000, env: { MIGRATE_V2_BATCH_FILES: '25', MIGRATE_V2_WHOLE_RUN_FILES: '1' } });
  expect(batched.code, batched.stderr.slice(-2000)).toBe(0);
  const full = readJson(join(out, 'whole.json'));
  expect(full.summary.typeErrors, 'typed: the tsconfig was found').toBeDefined();
  expect(full.files.filter((f) => f.changed).length, 'more files change than one batch holds').toBeGreaterThan(25);
  expect(batched.stdout).toBe(whole.stdout);
  expect(withoutTime(readJson(join(out, 'batched.json')))).toEqual(withoutTime(full));
}, 300_000);
