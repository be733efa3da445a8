/** Fault injection and drift: what the verifier's end-to-end tests rely on. */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionBase, resourceOf, type ResourceKind } from '../../src/contract/index.js';
import { loadDataset } from '../../src/emulator/datasets.js';
import { parseDriftSpec, planDrift, DRIFT_SUFFIX } from '../../src/emulator/drift.js';
import { NO_FAULTS, parseFaultSpec } from '../../src/emulator/faults.js';
import { fileRequestLog } from '../../src/emulator/request-log.js';
import { expectStatusBody, useEmulator } from '../helpers/emulator.js';

describe('--faults', () => {
  it('parses rates and refuses unknown or out-of-range settings', () => {
    expect(parseFaultSpec('5xx=0.1,429=0.05,reset=0.02,truncate=0.01,empty-page=0.5,latency=5-20,retry-after=0,seed=9')).toEqual({
      serverError: 0.1, tooManyRequests: 0.05, reset: 0.02, truncate: 0.01, emptyPage: 0.5, latencyMs: [5, 20], retryAfterSeconds: 0, seed: 9,
    });
    expect(() => parseFaultSpec('5xx=2')).toThrow(/5xx must be a number from 0 to 1/);
    expect(() => parseFaultSpec('teapot=1')).toThrow(/unknown setting "teapot"/);
  });

  it('answers 503 code 14 and 429 with Retry-After', async () => {
    const e5 = await useEmulator({ faults: { ...NO_FAULTS, serverError: 1 } });
    expect(expectStatusBody(await e5.get('/iam/v2beta1/groups'), 14)).toBeTruthy();
    const e429 = await useEmulator({ faults: { ...NO_FAULTS, tooManyRequests: 1, retryAfterSeconds: 2 } });
    const r = await e429.get('/iam/v1/groups');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('2');
    expect(expectStatusBody(r, 8)).toBeTruthy();
  });

  it('resets connections and truncates bodies', async () => {
    const reset = await useEmulator({ faults: { ...NO_FAULTS, reset: 1 } });
    await expect(reset.get('/iam/v2beta1/groups')).rejects.toThrow();
    const truncated = await useEmulator({ faults: { ...NO_FAULTS, truncate: 1 } });
    await expect(truncated.get('/iam/v2beta1/groups')).rejects.toThrow();
    // Faults are for the API: health and the exchange stay reachable.
    expect((await reset.call('GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('serves empty pages that still carry a token, and the walk still ends complete', async () => {
    const e = await useEmulator({ dataset: 'large:40', faults: { ...NO_FAULTS, emptyPage: 0.5, seed: 3 } });
    const uids: string[] = [];
    let token = '';
    let empty = 0;
    do {
      const r = await e.get(`/iam/v2beta1/groups?page_size=7${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
      if (r.json.groups.length === 0) empty += 1;
      uids.push(...r.json.groups.map((g: any) => g.uid));
      token = r.json.nextPageToken;
    } while (token);
    expect(empty).toBeGreaterThan(0);
    expect(new Set(uids).size).toBe(40);
    expect(uids).toHaveLength(40);
  });

  it('repeats the same faults for the same seed', async () => {
    const statuses = async () => {
      const e = await useEmulator({ faults: parseFaultSpec('5xx=0.3,429=0.3,seed=5,retry-after=0') });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await e.get('/iam/v2beta1/groups')).status);
      return out;
    };
    const first = await statuses();
    expect(first).toEqual(await statuses());
    expect(new Set(first).size).toBeGreaterThan(1);
  });
});

describe('--drift', () => {
  it('hides resources on one side and alters a field on v2, as its published plan says', async () => {
    const e = await useEmulator({ dataset: 'demo', drift: parseDriftSpec('missing-v1=2,missing-v2=2,field=3,seed=4') });
    const plan = e.running.emulator.drift.plan;
    expect(plan.missingInV1).toHaveLength(2);
    expect(plan.missingInV2).toHaveLength(2);
    expect(plan.fieldDiffers).toHaveLength(3);
    const all = [...plan.missingInV1, ...plan.missingInV2, ...plan.fieldDiffers].map((t) => t.uid);
    expect(new Set(all).size).toBe(all.length);
    for (const t of plan.missingInV2) {
      const v1 = (await e.get(`/${collectionPath(t.kind, 'v1')}?id=${t.uid}`)).json.items;
      expect(v1).toHaveLength(1);
      expect((await e.get(`/${collectionPath(t.kind, 'v2')}/${t.uid}`)).status).toBe(404);
    }
    for (const t of plan.missingInV1) {
      expect((await e.get(`/${collectionPath(t.kind, 'v1')}?id=${t.uid}`)).json.items).toHaveLength(0);
      expect((await e.get(`/${collectionPath(t.kind, 'v2')}/${t.uid}`)).status).toBe(200);
    }
    for (const t of plan.fieldDiffers) {
      const v2 = (await e.get(`/${collectionPath(t.kind, 'v2')}/${t.uid}`)).json;
      const v1 = (await e.get(`/${collectionPath(t.kind, 'v1')}?id=${t.uid}`)).json.items[0];
      expect(v2[t.field]).toBe(`${v1[t.field]}${DRIFT_SUFFIX}`);
      expect(v2[t.field]).toBe(t.v2Value);
    }
  });

  it('alters as many records as field=N asks, drawing only records of a kind with a field to alter', () => {
    const store = loadDataset('demo');
    for (let seed = 1; seed <= 20; seed++) {
      const plan = planDrift(parseDriftSpec(`missing-v1=2,field=10,seed=${seed}`), store);
      expect(plan.fieldDiffers, `seed ${seed}`).toHaveLength(10);
      const uids = [...plan.missingInV1, ...plan.fieldDiffers].map((t) => t.uid);
      expect(new Set(uids).size, `seed ${seed}: each record once`).toBe(uids.length);
    }
  });

  it('repeats a uid across v2 pages with duplicate', async () => {
    const e = await useEmulator({ dataset: 'large:20', drift: parseDriftSpec('duplicate') });
    const first = await e.get('/iam/v2beta1/groups?page_size=5');
    const second = await e.get(`/iam/v2beta1/groups?page_size=5&page_token=${encodeURIComponent(first.json.nextPageToken)}`);
    expect(second.json.groups[0].uid).toBe(first.json.groups[4].uid);
    // Only the repeat is drift: the walk still reaches every group.
    const seen = new Set<string>();
    let token = '';
    do {
      const r = await e.get(`/iam/v2beta1/groups?page_size=5${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
      r.json.groups.forEach((g: any) => seen.add(g.uid));
      token = r.json.nextPageToken;
    } while (token);
    expect(seen.size).toBe(20);
  });
});

describe('--request-log', () => {
  it('writes one JSON line per request, with no token in it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mv2-log-')), 'requests.jsonl');
    const log = fileRequestLog(file);
    const e = await useEmulator({ dataset: 'demo', requestLog: log.sink, token: 'secret-token-value' });
    await e.call('GET', '/iam/v2beta1/groups?page_size=2', { token: 'secret-token-value' });
    await e.call('GET', '/iam/v1/groups', { token: 'wrong-token-value' });
    await log.close();
    const text = readFileSync(file, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/iam/v2beta1/groups', 200],
      ['GET', '/iam/v1/groups', 401],
    ]);
    expect(lines[0].query).toEqual({ page_size: '2' });
    expect(text).not.toMatch(/secret-token-value|wrong-token-value|Bearer/);
  });
});

function collectionPath(kind: ResourceKind, version: 'v1' | 'v2'): string {
  return collectionBase(resourceOf(kind), version).slice(1);
}
