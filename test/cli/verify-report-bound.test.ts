/** The audit's markdown report and step summary fit a pull-request comment, and say what they left out. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { leftOpen } from '../helpers/markdown.js';

const drift = ['--emulator-dataset', 'large:300', '--emulator-drift', 'missing-v2=300,field=300,seed=2'];

it('600 failing findings: the report and the step summary stay within 65,536 characters and name the JSON report', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mv2-verify-bound-'));
  const md = join(out, 'audit.md');
  const json = join(out, 'audit.json');
  const summary = join(out, 'summary.md');
  const r = await runCli(['verify', ...drift, '--report', md, '--report', json], { env: { GITHUB_STEP_SUMMARY: summary } });
  expect(r.code, r.stderr).toBe(1);
  expect(JSON.parse(readFileSync(json, 'utf8')).findings.filter((f: { kind: string }) => f.kind === 'field-differs')).toHaveLength(300);
  const markdown = readFileSync(md, 'utf8');
  expect(markdown.length).toBeLessThanOrEqual(65_536);
  expect(markdown).toMatch(/^# migrate-v2 parity audit\n\n\*\*Findings/);
  expect(markdown).toContain('## Missing in v2 (300)');
  expect(markdown).toContain(`\n## Field differs (300)\n\n300 of 300 findings of this kind left out to fit this report: every one is in \`${json}\`.\n`);
  expect(leftOpen(markdown)).toEqual([]);
  expect(readFileSync(summary, 'utf8')).toBe(markdown);
});

it('--report-max-chars bounds the report; without a JSON report the note says how to get one', async () => {
  const md = join(mkdtempSync(join(tmpdir(), 'mv2-verify-bound-')), 'audit.md');
  const r = await runCli(['verify', ...drift, '--report', md, '--report-max-chars', '12000']);
  expect(r.code, r.stderr).toBe(1);
  const markdown = readFileSync(md, 'utf8');
  expect(markdown.length).toBeLessThanOrEqual(12_000);
  expect(markdown).toMatch(/\n\d+ of 300 findings of this kind left out to fit this report: run with `--report audit\.json` for every one\.\n/);
  expect(leftOpen(markdown)).toEqual([]);
});

it('refuses a bad --report-max-chars in one line with exit 2', async () => {
  for (const value of ['lots', '1e6', '0']) {
    const r = await runCli(['verify', '--report-max-chars', value]);
    expect(r.code, value).toBe(2);
    expect(r.stderr).toBe(`migrate-v2: --report-max-chars must be a whole number from 10000 to 100000000, got "${value}"\n`);
  }
});

it('a GITHUB_STEP_SUMMARY that cannot be written is one line and exit 2', async () => {
  const r = await runCli(['verify'], { env: { GITHUB_STEP_SUMMARY: join(tmpdir(), 'mv2-no-such-dir', 'summary.md') } });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^migrate-v2: cannot write GITHUB_STEP_SUMMARY .*summary\.md: ENOENT\n$/);
});
