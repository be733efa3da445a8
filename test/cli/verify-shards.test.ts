/**
 * `verify --shard i/n` against the emulator over real HTTP (port 0, drift on purpose), and
 * `merge-reports` of the shards: the shards' findings are disjoint, together they are the
 * unsharded audit's, and the merged report is the unsharded report apart from timing and traffic.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fingerprint } from '../../src/verify/findings.js';
import type { AuditReport } from '../../src/verify/report.js';
import { runCli, startCli, stopChild } from '../helpers/cli.js';

const ORG = '2cb2c71d32eb3046dc8c9beb50e48387f9744eaa';
const SECRET = 'shard-test-token-0123456789abcdef';
const SHARDS = 3;
const tmp = mkdtempSync(join(tmpdir(), 'mv2-verify-shards-'));
const server = await startCli(['emulator', '--port', '0', '--token', SECRET, '--drift', 'missing-v2=2,missing-v1=1,field=2,seed=34']);
const baseUrl = server.firstLine.replace('listening on ', '');
afterAll(() => stopChild(server.child));

const env = { MIGRATE_V2_TOKEN: SECRET };
const audit = (args: string[]) => runCli(['verify', '--base-url', baseUrl, '--scope', ORG, ...args], { env });
const readJson = (name: string): AuditReport => JSON.parse(readFileSync(join(tmp, name), 'utf8'));
/** What a split changes: the clock, and how many requests and pages the walks took. */
const withoutTimingAndTraffic = (r: AuditReport) => ({
  ...r,
  startedAt: '',
  finishedAt: '',
  stats: { ...r.stats, requests: 0, retries: 0, pages: 0, emptyPages: 0, elapsedMs: 0 },
  summary: r.summary.map((s) => ({ ...s, pages: 0, emptyPages: 0 })),
});
const recordFindings = (r: AuditReport) => r.findings.filter((f) => f.uid && f.kind !== 'contract-breach');

it('splits the audit by kind and top-level group: disjoint shards whose union and merge are the unsharded audit', async () => {
  const whole = await audit(['--report', join(tmp, 'whole.json'), '--report', join(tmp, 'whole.md')]);
  expect(whole.code, whole.stderr).toBe(1);
  const shards: AuditReport[] = [];
  for (let i = 1; i <= SHARDS; i++) {
    const run = await audit(['--shard', `${i}/${SHARDS}`, '--report', join(tmp, `shard-${i}.json`)]);
    expect(run.code, run.stderr).toBeLessThanOrEqual(1);
    shards.push(readJson(`shard-${i}.json`));
  }
  const full = readJson('whole.json');
  expect(recordFindings(full).length, 'the drift shows').toBeGreaterThanOrEqual(4);
  // Seed 34 hides the top-level group platform from v2: the split must still find its subtree (by v1).
  for (const s of shards) expect(s.summary.reduce((n, k) => n + k.compared, 0), 'every shard audits something').toBeGreaterThan(0);

  const seen = shards.flatMap((s) => recordFindings(s).map(fingerprint));
  expect(new Set(seen).size, 'no record in two shards').toBe(seen.length);
  expect(new Set(seen)).toEqual(new Set(recordFindings(full).map(fingerprint)));
  for (const key of ['compared', 'equal', 'missingInV1', 'missingInV2', 'differences'] as const) {
    const sum = (r: AuditReport) => r.summary.reduce((n, k) => n + k[key], 0);
    expect(shards.reduce((n, s) => n + sum(s), 0), key).toBe(sum(full));
  }

  const merge = await runCli(['merge-reports', ...shards.map((_, i) => join(tmp, `shard-${i + 1}.json`)), '--report', join(tmp, 'merged.json'), '--report', join(tmp, 'merged.md')]);
  expect(merge.code, merge.stderr).toBe(0);
  expect(merge.stdout).toMatch(/^kind +compared/);
  const merged = readJson('merged.json');
  expect(withoutTimingAndTraffic(merged)).toEqual(withoutTimingAndTraffic(full));
  const traffic = /; \d+ requests, \d+ retries, \d+ v2 pages/;
  const md = readFileSync(join(tmp, 'merged.md'), 'utf8');
  expect(md.replace(traffic, '')).toBe(readFileSync(join(tmp, 'whole.md'), 'utf8').replace(traffic, '').replaceAll(join(tmp, 'whole.json'), join(tmp, 'merged.json')));
  for (const name of ['whole.json', 'whole.md', 'merged.json', 'merged.md', 'shard-1.json']) expect(readFileSync(join(tmp, name), 'utf8')).not.toContain(SECRET);
}, 120_000);

it('without --scope splits by kind only, and the shards still add up to the whole audit', async () => {
  const runs = await Promise.all([1, 2].map((i) => runCli(['verify', '--base-url', baseUrl, '--shard', `${i}/2`, '--report', join(tmp, `kind-${i}.json`)], { env })));
  for (const r of runs) expect(r.code, r.stderr).toBeLessThanOrEqual(1);
  const whole = await runCli(['verify', '--base-url', baseUrl, '--report', join(tmp, 'kinds-whole.json')], { env });
  expect(whole.code).toBe(1);
  const merge = await runCli(['merge-reports', join(tmp, 'kind-1.json'), join(tmp, 'kind-2.json'), '--report', join(tmp, 'kinds-merged.json')]);
  expect(merge.code, merge.stderr).toBe(0);
  expect(withoutTimingAndTraffic(readJson('kinds-merged.json'))).toEqual(withoutTimingAndTraffic(readJson('kinds-whole.json')));
  const kindsOf = (name: string) => readJson(name).summary.filter((k) => k.compared > 0).map((k) => k.kind);
  expect(kindsOf('kind-1.json').filter((k) => kindsOf('kind-2.json').includes(k)), 'a kind is in one shard').toEqual([]);
}, 120_000);

it('refuses a bad --shard, and merges only whole, consistent sets of reports (one line, exit 2)', async () => {
  for (const args of [['verify', '--shard', '0/3'], ['verify', '--shard', '4/3'], ['.', '--shard', 'two'], ['.', '--shard', '1/0']]) {
    const r = await runCli(args, { env });
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stderr.trim()).toMatch(/^migrate-v2: --shard must be I\/N with 1 <= I <= N \(such as 2\/4\), got "[^"]+"$/);
  }
  const codemod = join(tmp, 'codemod.json');
  const clients = await runCli(['fixtures/clients', '--report', codemod]);
  expect(clients.code, clients.stderr).toBe(0);
  writeFileSync(join(tmp, 'not.json'), '# a markdown report\n');
  // Shards run with different options: their union is no run at all.
  const groupsOnly = await runCli(['verify', '--base-url', baseUrl, '--kinds', 'groups', '--shard', '2/2', '--report', join(tmp, 'groups-2.json')], { env });
  expect(groupsOnly.code, groupsOnly.stderr).toBeLessThan(2);
  for (const [i, more] of [[1, []], [2, ['--transforms', 'paths']]] as const) {
    const r = await runCli(['fixtures/clients', '--shard', `${i}/2`, ...more, '--report', join(tmp, `clients-${i}.json`)]);
    expect(r.code, r.stderr).toBe(0);
  }
  const shard = (i: number) => join(tmp, `shard-${i}.json`);
  const refusals: [string[], RegExp][] = [
    [[shard(1), shard(2)], /shard 3\/3 missing/],
    [[shard(1), shard(2), shard(3), shard(2)], /are both shard 2\/3/],
    [[shard(1), shard(2), shard(3), join(tmp, 'whole.json')], /one shard of a run and .* a whole run/],
    [[join(tmp, 'whole.json'), codemod], /is an audit report and .*codemod\.json is not: merge one kind at a time/],
    [[join(tmp, 'not.json')], /not\.json is not JSON/],
    [[join(tmp, 'absent.json')], /cannot read .*absent\.json: ENOENT/],
    [[join(tmp, 'whole.json'), join(tmp, 'kinds-whole.json')], /audited different targets or scopes/],
    [[codemod, codemod], /is in both .* and .*: the runs overlap/],
    [[join(tmp, 'kind-1.json'), join(tmp, 'groups-2.json')], /kind-1\.json and .*groups-2\.json are shards of different runs: kinds "[A-Za-z,]+" in one, "Group" in the other/],
    [[join(tmp, 'clients-1.json'), join(tmp, 'clients-2.json')], /clients-1\.json and .*clients-2\.json are shards of different runs: transforms "[a-z,-]+" in one, "paths" in the other/],
  ];
  for (const [files, message] of refusals) {
    const r = await runCli(['merge-reports', ...files, '--report', join(tmp, 'refused.md')]);
    expect(r.code, files.join(' ')).toBe(2);
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  }
  expect(() => readFileSync(join(tmp, 'refused.md')), 'nothing half-written').toThrow();
}, 120_000);
