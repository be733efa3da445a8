/** `--format github`: annotations on stdout beside the normal run, for the codemod, the audit and a merged report. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { CodemodReport } from '../../src/codemod/report.js';
import type { AuditReport } from '../../src/verify/report.js';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'mv2-github-'));
const lines = (text: string) => text.split('\n').filter(Boolean);

it('the codemod: a warning per review item on its file and line, the report written as its name says', async () => {
  const json = join(tmp, 'clients.json');
  const r = await runCli(['fixtures/review-sample', '--check', '--format', 'github', '--report', json]);
  expect(r.code, r.stderr).toBe(1);
  const report: CodemodReport = JSON.parse(readFileSync(json, 'utf8'));
  const items = report.files.flatMap((f) => f.review.map((item) => ({ f, item })));
  expect(items.length).toBeGreaterThan(0);
  expect(lines(r.stdout)).toEqual(items.map(({ f, item }) => expect.stringMatching(new RegExp(`^::warning file=${f.path.replace(/[.]/g, '\\.')},line=${item.line},title=migrate-v2 ${item.transform}::`))));
  expect(r.stderr, 'the summary is still there').toMatch(/files scanned/);
  const merged = await runCli(['merge-reports', json, '--format', 'github']);
  expect(merged.stdout).toBe(r.stdout);
});

it('the audit: an error per failing finding; a baseline quiets them', async () => {
  const json = join(tmp, 'audit.json');
  const drift = ['--emulator-drift', 'missing-v2=1,field=1,seed=3'];
  const r = await runCli(['verify', ...drift, '--format', 'github', '--report', json]);
  expect(r.code, r.stderr).toBe(1);
  const report: AuditReport = JSON.parse(readFileSync(json, 'utf8'));
  expect(lines(r.stdout)).toHaveLength(report.totals.failing);
  expect(r.stdout).toMatch(/^::error title=migrate-v2 verify%3A missing-in-v2 Tag::\S+ - v1 lists tag /m);
  expect(r.stdout).toMatch(/^::error title=migrate-v2 verify%3A field-differs Group::\S+ \$\.description: v1 "Data engineering" \/ v2 "Data engineering \[drift\]"$/m);
  const again = await runCli(['verify', ...drift, '--format', 'github', '--baseline', json]);
  expect(again.code).toBe(0);
  expect(again.stdout).toBe('');
});

it('refuses --format github with --json (both write stdout), and a report file named neither .md nor .json', async () => {
  for (const args of [['fixtures/clients', '--format', 'github', '--json'], ['verify', '--format', 'github', '--json'], ['fixtures/clients', '--format', 'github', '--report', join(tmp, 'r.txt')]]) {
    const r = await runCli(args);
    expect(r.code, args.join(' ')).toBe(2);
    expect(lines(r.stderr), r.stderr).toHaveLength(1);
  }
});
