/** The audit against emulators over real HTTP: parity, every kind of drift, faults, expired tokens, cycles. */
import { describe, expect, it } from 'vitest';
import { verifyCommand, type VerifyCommandOptions } from '../../src/commands/verify.js';
import { DEFAULT_API_TOKEN } from '../../src/emulator/emulator.js';
import { parseDriftSpec } from '../../src/emulator/drift.js';
import { NO_FAULTS, parseFaultSpec } from '../../src/emulator/faults.js';
import { useEmulator } from '../helpers/emulator.js';

const defaults: VerifyCommandOptions = {
  concurrency: '8',
  pageSize: '200',
  maxPages: '1000',
  timeout: '10000',
  retries: '8',
  emulatorDataset: 'demo',
  token: DEFAULT_API_TOKEN,
};

const audit = (baseUrl: string, extra: Partial<VerifyCommandOptions> = {}) =>
  verifyCommand({ ...defaults, baseUrl, ...extra }, { version: 'test', env: {} });

describe('verify against the emulator', () => {
  it('reports parity on the demo dataset, every kind compared', async () => {
    const e = await useEmulator({ dataset: 'demo' });
    const { exitCode, report } = await audit(e.url);
    expect(exitCode).toBe(0);
    expect(report.verdict).toBe('parity');
    const store = e.running.emulator.store;
    for (const s of report.summary) {
      expect(s.compared, s.kind).toBe(store.count(s.kind as never));
      expect(s.equal).toBe(s.compared);
      expect(s.incomplete).toBe(false);
    }
    // One-sided fields and changes of form are reported, with their rule, and do not fail.
    const expected = report.findings.filter((f) => f.kind === 'expected-difference');
    expect(expected.map((f) => `${f.resource}${f.path}`)).toEqual(
      expect.arrayContaining(['Group$.createTime', 'Role$.capabilities', 'Group$.resourceLimits', 'Identity$.createTime', 'RoleBinding$.role']),
    );
    expect(expected.every((f) => f.rule?.source)).toBe(true);
    expect(report.findings.filter((f) => f.kind !== 'expected-difference')).toEqual([]);
  });

  it('finds and classifies every kind of drift the emulator injects, and nothing else', async () => {
    const e = await useEmulator({ dataset: 'demo', drift: parseDriftSpec('missing-v1=2,missing-v2=3,field=3,duplicate,seed=11') });
    const plan = e.running.emulator.drift.plan;
    const { exitCode, report } = await audit(e.url, { pageSize: '2' });
    expect(exitCode).toBe(1);
    const of = (kind: string) => report.findings.filter((f) => f.kind === kind);
    const key = (t: { kind: string; uid: string }) => `${t.kind} ${t.uid}`;
    expect(of('missing-in-v2').map((f) => key({ kind: f.resource, uid: f.uid! })).sort()).toEqual(plan.missingInV2.map(key).sort());
    expect(of('missing-in-v1').map((f) => key({ kind: f.resource, uid: f.uid! })).sort()).toEqual(plan.missingInV1.map(key).sort());
    expect(of('field-differs').map((f) => `${f.resource} ${f.uid} ${f.path}`).sort()).toEqual(plan.fieldDiffers.map((t) => `${t.kind} ${t.uid} $.${t.field}`).sort());
    for (const f of of('field-differs')) expect(f.v2).toBe(`${f.v1} [drift]`);
    const breaches = of('contract-breach');
    expect(new Set(breaches.map((b) => b.breach))).toEqual(new Set(['duplicate-uid']));
    expect(of('incomplete')).toEqual([]);
    expect(report.summary.every((s) => !s.incomplete)).toBe(true);
  });

  it('completes with zero false findings under 10% 5xx, 5% 429, 2% resets, 1% truncated bodies and empty pages', async () => {
    const faults = parseFaultSpec('5xx=0.1,429=0.05,reset=0.02,truncate=0.01,empty-page=0.05,retry-after=0,seed=21');
    let injected = 0;
    const e = await useEmulator({
      dataset: 'large:400',
      faults,
      requestLog: (entry) => {
        if (entry.status === 503 || entry.status === 429 || entry.fault) injected += 1;
      },
    });
    const { exitCode, report } = await audit(e.url, { pageSize: '10' });
    // Every fault that can be retried was retried, once each; how many land depends on request order.
    expect(injected).toBeGreaterThan(3);
    expect(report.stats.retries).toBe(injected);
    expect(report.summary.find((s) => s.kind === 'Group')).toMatchObject({ compared: 400, equal: 400, incomplete: false });
    expect(report.summary.find((s) => s.kind === 'Repo')).toMatchObject({ compared: 400, equal: 400, incomplete: false });
    expect(report.findings.filter((f) => f.kind !== 'expected-difference')).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('counts empty pages that carry a token (AIP-158 allows them before the end) and finds nothing in them', async () => {
    const e = await useEmulator({ dataset: 'large:40', faults: { ...NO_FAULTS, emptyPage: 0.5, seed: 3 } });
    const { exitCode, report } = await audit(e.url, { pageSize: '7', kinds: 'groups' });
    expect(report.stats.emptyPages).toBeGreaterThan(0);
    expect(report.summary[0]).toMatchObject({ compared: 40, equal: 40, breaches: 0, emptyPages: report.stats.emptyPages });
    expect(report.findings.filter((f) => f.kind === 'contract-breach')).toEqual([]);
    expect(report.verdict).toBe('parity');
    expect(exitCode).toBe(0);
  });

  it('reports an expired page token instead of restarting silently', async () => {
    const e = await useEmulator({ dataset: 'large:60', pageTokenTtlSeconds: 0.05, faults: { ...NO_FAULTS, latencyMs: [80, 80] } });
    const { exitCode, report } = await audit(e.url, { pageSize: '10', kinds: 'groups' });
    const breach = report.findings.find((f) => f.breach === 'expired-token-restart');
    expect(breach?.message).toMatch(/expired/);
    expect(report.summary[0]!.incomplete).toBe(true);
    expect(report.verdict).toBe('incomplete');
    expect(exitCode).toBe(2);
  });

  it('reports a page-token cycle and stops the walk', async () => {
    const e = await useEmulator({ dataset: 'demo', drift: parseDriftSpec('cycle') });
    const { exitCode, report } = await audit(e.url, { pageSize: '2', kinds: 'groups,repos' });
    expect(report.findings.filter((f) => f.breach === 'token-cycle').map((f) => f.resource).sort()).toEqual(['Group', 'Repo']);
    expect(report.stats.pages).toBeLessThan(10);
    // The walk stopped: both kinds are left incomplete, which exits 2 like any kind left incomplete.
    expect(report.findings.filter((f) => f.kind === 'incomplete').map((f) => f.message)).toEqual([
      expect.stringMatching(/^not audited to the end: v2 walk: .*the pages cycle/),
      expect.stringMatching(/^not audited to the end: v2 walk: .*the pages cycle/),
    ]);
    expect(report.verdict).toBe('incomplete');
    expect(exitCode).toBe(2);
  });

  it('stops at the page cap, leaving the kind incomplete (exit 2)', async () => {
    const e = await useEmulator({ dataset: 'large:50' });
    const { exitCode, report } = await audit(e.url, { pageSize: '5', maxPages: '3', kinds: 'groups' });
    expect(report.findings.map((f) => f.breach)).toContain('page-cap-reached');
    expect(report.summary[0]!.incomplete).toBe(true);
    expect(exitCode).toBe(2);
  });

  it('reports a kind as incomplete, never equal, once retries are spent (exit 2)', async () => {
    const e = await useEmulator({ dataset: 'demo', faults: { ...NO_FAULTS, serverError: 1 } });
    const { exitCode, report } = await audit(e.url, { retries: '1', kinds: 'groups' });
    expect(exitCode).toBe(2);
    expect(report.summary[0]).toMatchObject({ incomplete: true, equal: 0 });
    expect(report.findings.find((f) => f.kind === 'incomplete')?.message).toMatch(/503/);
  });

  it('says how many attempts each request made: --retries + 1, however many requests ran beside it', async () => {
    const e = await useEmulator({ dataset: 'demo', faults: { ...NO_FAULTS, serverError: 1 } });
    const { exitCode, report } = await audit(e.url, { retries: '2', concurrency: '16' });
    const incomplete = report.findings.filter((f) => f.kind === 'incomplete');
    expect(incomplete.map((f) => f.resource).sort()).toEqual(report.summary.map((s) => s.kind).sort());
    for (const f of incomplete) expect(f.message).toMatch(/answered 503 after 3 attempts$/);
    expect(exitCode).toBe(2);
  });

  it('re-reads what changed during the walk, and reports it as such rather than as a difference', async () => {
    let changed = false;
    const e = await useEmulator({
      dataset: 'large:30',
      // Right after v1's list is served, change the group the v2 walk reaches last and add one.
      requestLog: (entry) => {
        if (changed || entry.path !== '/iam/v1/groups') return;
        changed = true;
        const store = e.running.emulator.store;
        const latest = [...store.all('Group')].sort((a, b) => b.createTime - a.createTime)[0]!;
        const now = Date.now() * 1000;
        store.put('Group', { ...latest, description: 'changed mid-walk', updateTime: now });
        store.put('Group', { ...latest, uid: `${latest.uid.split('/')[0]}/${'f'.repeat(16)}`, name: 'born mid-walk', createTime: now, updateTime: now });
      },
    });
    const { exitCode, report } = await audit(e.url, { pageSize: '3', kinds: 'groups' });
    expect(changed).toBe(true);
    const settled = report.findings.filter((f) => f.kind === 'changed-during-walk');
    expect(settled).toHaveLength(2);
    expect(report.findings.filter((f) => f.kind !== 'expected-difference' && f.kind !== 'changed-during-walk')).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('audits only the descendants of --scope', async () => {
    const e = await useEmulator({ dataset: 'demo' });
    const data = (await e.get('/iam/v2beta1/groups?name=data')).json.groups[0].uid;
    const { exitCode, report } = await audit(e.url, { scope: data });
    expect(exitCode).toBe(0);
    const counts = Object.fromEntries(report.summary.map((s) => [s.kind, s.compared]));
    const store = e.running.emulator.store;
    const under = (kind: string) => store.all(kind as never).filter((r) => r.uid.startsWith(`${data}/`)).length;
    expect(counts).toMatchObject({ Group: under('Group'), Identity: under('Identity'), Repo: under('Repo'), RoleBinding: under('RoleBinding') });
    expect(counts['Group']).toBe(2); // analytics and ml
    expect(counts['Advisory']).toBe(store.count('Advisory'));
  });

  it('only ever sends GET requests', async () => {
    const methods: string[] = [];
    const e = await useEmulator({ dataset: 'demo', drift: parseDriftSpec('missing-v2=2,field=1,seed=2'), requestLog: (entry) => methods.push(entry.method) });
    await audit(e.url, { pageSize: '3' });
    expect(methods.length).toBeGreaterThan(20);
    expect(new Set(methods)).toEqual(new Set(['GET']));
  });

  it('recovers from truncated bodies and connection resets alone, at high rates', async () => {
    let injected = 0;
    const e = await useEmulator({ dataset: 'large:100', faults: parseFaultSpec('truncate=0.3,reset=0.2,seed=8'), requestLog: (entry) => (injected += entry.fault ? 1 : 0) });
    const { exitCode, report } = await audit(e.url, { pageSize: '10', kinds: 'groups,repos', retries: '12' });
    expect(injected).toBeGreaterThan(5);
    expect(report.stats.retries).toBe(injected);
    expect(exitCode).toBe(0);
    expect(report.summary.map((s) => s.equal)).toEqual([100, 100]);
  });
});
