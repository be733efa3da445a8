/** v2's list contract (spec §2 envelope, §4 common parameters and rules, §8 limits) over real HTTP. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detail, expectStatusBody, testClock, useEmulator } from '../helpers/emulator.js';

const clock = testClock();
// 120 groups, 120 repos: more than one default page, less than one maximal page plus the default.
const emu = await useEmulator({ dataset: 'large:120', now: clock.now, pageTokenTtlSeconds: 60 });
const big = await useEmulator({ dataset: 'large:450' });

interface Walk {
  uids: string[];
  names: string[];
  pages: number;
  totalCounts: string[];
  skipped: number[];
}

async function walk(e = emu, collection = 'groups', query = ''): Promise<Walk> {
  const out: Walk = { uids: [], names: [], pages: 0, totalCounts: [], skipped: [] };
  let token = '';
  do {
    const sep = query ? '&' : '';
    const r = await e.get(`/iam/v2beta1/${collection}?${query}${token ? `${sep}page_token=${encodeURIComponent(token)}` : ''}`);
    expect(r.status, r.text).toBe(200);
    out.pages += 1;
    out.uids.push(...r.json[collection].map((g: any) => g.uid));
    out.names.push(...r.json[collection].map((g: any) => g.name));
    out.totalCounts.push(r.json.totalCount);
    out.skipped.push(r.json.skipped);
    token = r.json.nextPageToken ?? '';
    if (out.pages > 1000) throw new Error('walk did not end');
  } while (token);
  return out;
}

describe('v2 list envelope and page sizes', () => {
  it('pages 50 at a time by default, with totalCount a decimal string and skipped echoing skip', async () => {
    const r = await emu.get('/iam/v2beta1/groups');
    expect(r.json.groups).toHaveLength(50);
    expect(r.json.totalCount).toBe('120');
    expect(r.json.skipped).toBe(0);
    expect(typeof r.json.nextPageToken).toBe('string');
    expect(Object.keys(r.json).sort()).toEqual(['groups', 'nextPageToken', 'skipped', 'totalCount']);
  });

  it('coerces page_size above 200 to 200', async () => {
    const r = await big.get('/iam/v2beta1/groups?page_size=1000');
    expect(r.json.groups).toHaveLength(200);
    expect(r.json.totalCount).toBe('450');
  });

  it('ends with an empty nextPageToken on the last page', async () => {
    const w = await walk(emu, 'groups', 'page_size=200');
    expect(w.pages).toBe(1);
    const last = await emu.get('/iam/v2beta1/groups?page_size=200');
    expect(last.json.nextPageToken ?? '').toBe('');
  });

  it('gives the remainder when skip leaves fewer results than page_size', async () => {
    const r = await emu.get('/iam/v2beta1/groups?skip=115&page_size=10');
    expect(r.json.groups).toHaveLength(5);
    expect(r.json.skipped).toBe(115);
    expect(r.json.nextPageToken ?? '').toBe('');
  });

  it('accepts both spellings of every list parameter', async () => {
    const snake = await emu.get('/iam/v2beta1/groups?page_size=7&order_by=name%20desc&skip=3');
    const camel = await emu.get('/iam/v2beta1/groups?pageSize=7&orderBy=name%20desc&skip=3');
    expect(camel.json.groups).toEqual(snake.json.groups);
    const root = snake.json.groups[0].uid.split('/')[0];
    const a = await emu.get(`/iam/v2beta1/groups?uidp.children_of=${root}`);
    const b = await emu.get(`/iam/v2beta1/groups?uidp.childrenOf=${root}`);
    expect(a.json.totalCount).toBe(b.json.totalCount);
  });

  it('rejects negative or malformed page_size and skip, unknown parameters and bad uids with code 3', async () => {
    for (const q of ['page_size=-1', 'skip=-5', 'page_size=ten', 'skip=1.5', 'colour=red', 'order_by=colour', 'order_by=name%20sideways', 'uidp.children_of=nope', 'page_size=1&pageSize=2']) {
      const r = await emu.get(`/iam/v2beta1/groups?${q}`);
      expect(r.status, q).toBe(400);
      const body = expectStatusBody(r, 3);
      expect(detail(body, 'ErrorInfo').reason).toBe('INVALID_ARGUMENT');
      expect(detail(body, 'BadRequest').fieldViolations[0].field).toBeTruthy();
    }
  });
});

describe('v2 ordering and filters', () => {
  it('orders by name, name desc, created_at and created_at desc', async () => {
    const byName = await walk(emu, 'groups', 'order_by=name&page_size=33');
    expect(byName.names).toEqual([...byName.names].sort());
    const byNameDesc = await walk(emu, 'groups', 'order_by=name%20desc&page_size=33');
    expect(byNameDesc.names).toEqual([...byName.names].reverse());
    const created = await walk(emu, 'groups', 'order_by=created_at&page_size=40');
    const createdDesc = await walk(emu, 'groups', 'order_by=created_at%20desc&page_size=40');
    expect(createdDesc.uids).toEqual([...created.uids].reverse());
    const times = await Promise.all(created.uids.slice(0, 5).map(async (uid) => (await emu.get(`/iam/v2beta1/groups/${uid}`)).json.createTime));
    expect(times).toEqual([...times].sort());
  });

  it('breaks ties by uid, across page boundaries', async () => {
    const e = await useEmulator({ dataset: 'demo' });
    const root = (await e.get('/iam/v2beta1/groups?name=acme')).json.groups[0].uid;
    for (let i = 0; i < 7; i++) expect((await e.call('POST', `/iam/v2beta1/groups/${root}`, { body: { name: 'twin' } })).status).toBe(200);
    const w = await walk(e, 'groups', 'name=twin&order_by=name&page_size=2');
    expect(w.uids).toHaveLength(7);
    expect(w.uids).toEqual([...w.uids].sort());
    const desc = await walk(e, 'groups', 'name=twin&order_by=name%20desc&page_size=3');
    expect(desc.uids).toEqual([...w.uids].reverse());
  });

  it('filters names by exact match only', async () => {
    const exact = await emu.get('/iam/v2beta1/groups?name=group-0000007');
    expect(exact.json.groups.map((g: any) => g.name)).toEqual(['group-0000007']);
    expect((await emu.get('/iam/v2beta1/groups?name=group-000000')).json.groups).toEqual([]);
    expect((await emu.get('/iam/v2beta1/groups?name=GROUP-0000007')).json.totalCount).toBe('0');
  });

  it('scopes by uidp.children_of and uidp.descendants_of', async () => {
    const all = await walk(emu, 'groups', 'page_size=200');
    const root = all.uids.find((u) => !u.includes('/'))!;
    const children = await walk(emu, 'groups', `uidp.children_of=${root}&page_size=200`);
    const descendants = await walk(emu, 'groups', `uidp.descendants_of=${root}&page_size=200`);
    expect(children.uids.every((u) => u.split('/').length === 2)).toBe(true);
    expect(descendants.uids).toHaveLength(119);
    const child = children.uids[0]!;
    const grand = await walk(emu, 'groups', `uidp.descendants_of=${child}&page_size=200`);
    expect(grand.uids.every((u) => u.startsWith(`${child}/`))).toBe(true);
    expect(grand.uids.length).toBeGreaterThan(0);
  });
});

describe('v2 page tokens', () => {
  it('walks every resource exactly once, in order, for any order_by, page_size and skip', async () => {
    const reference = {
      name: (await walk(emu, 'groups', 'order_by=name&page_size=200')).uids,
      'name desc': (await walk(emu, 'groups', 'order_by=name%20desc&page_size=200')).uids,
      created_at: (await walk(emu, 'groups', 'order_by=created_at&page_size=200')).uids,
      'created_at desc': (await walk(emu, 'groups', 'order_by=created_at%20desc&page_size=200')).uids,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(reference) as (keyof typeof reference)[])),
        fc.integer({ min: 1, max: 250 }),
        fc.integer({ min: 0, max: 130 }),
        async (order, pageSize, skip) => {
          const w = await walk(emu, 'groups', `order_by=${encodeURIComponent(order)}&page_size=${pageSize}&skip=${skip}`);
          expect(new Set(w.uids).size).toBe(w.uids.length);
          expect(w.uids).toEqual(reference[order].slice(skip));
          // totalCount counts every match; the walk finds those after the skipped ones (contract: assumed).
          for (const total of w.totalCounts) expect(Number(total) - Math.min(skip, 120)).toBe(w.uids.length);
          expect(w.skipped.every((s) => s === skip)).toBe(true);
        },
      ),
      { numRuns: 40, seed: 20261122 },
    );
  });

  it('keeps the sort order across pages while the collection changes', async () => {
    const e = await useEmulator({ dataset: 'large:30' });
    const first = await e.get('/iam/v2beta1/groups?order_by=name&page_size=10');
    const root = first.json.groups[0].uid.split('/')[0];
    // A new group that sorts before the cursor must not shift the next page.
    await e.call('POST', `/iam/v2beta1/groups/${root}`, { body: { name: 'a-first' } });
    const second = await e.get(`/iam/v2beta1/groups?order_by=name&page_size=10&page_token=${encodeURIComponent(first.json.nextPageToken)}`);
    const names = [...first.json.groups, ...second.json.groups].map((g: any) => g.name);
    expect(names).toEqual([...names].sort());
    expect(second.json.groups[0].name > first.json.groups[9].name).toBe(true);
  });

  it('rejects a made-up token, and a token used with other parameters', async () => {
    const bad = await emu.get('/iam/v2beta1/groups?page_token=not-a-token');
    expect(expectStatusBody(bad, 3).message).toMatch(/page_token/);
    const first = await emu.get('/iam/v2beta1/groups?order_by=name&page_size=5');
    const token = encodeURIComponent(first.json.nextPageToken);
    const other = await emu.get(`/iam/v2beta1/groups?order_by=created_at&page_size=5&page_token=${token}`);
    expect(other.status).toBe(400);
    const wrongCollection = await emu.get(`/registry/v2beta1/repos?order_by=name&page_size=5&page_token=${token}`);
    expect(wrongCollection.status).toBe(400);
    const resized = await emu.get(`/iam/v2beta1/groups?order_by=name&page_size=9&page_token=${token}`);
    expect(resized.status).toBe(200);
    expect(resized.json.groups[0].name > first.json.groups[4].name).toBe(true);
  });

  it('restarts an expired token from the first page, with no error', async () => {
    const first = await emu.get('/iam/v2beta1/groups?order_by=name&page_size=5&skip=2');
    clock.advance(61_000);
    const again = await emu.get(`/iam/v2beta1/groups?order_by=name&page_size=5&skip=2&page_token=${encodeURIComponent(first.json.nextPageToken)}`);
    expect(again.status).toBe(200);
    expect(again.json.groups).toEqual(first.json.groups);
  });
});
