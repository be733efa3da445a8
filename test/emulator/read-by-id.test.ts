/**
 * v1 reads one record by listing with `?id=` (v1-reference "v1 calls": no Get). The emulator answers
 * it from the store's index rather than by scanning the list; the answer must be the one a scan gives:
 * the record as the full list shows it, or nothing.
 */
import { describe, expect, it } from 'vitest';
import { modelledResources } from '../../src/contract/index.js';
import { parseDriftSpec } from '../../src/emulator/drift.js';
import { expectStatusBody, useEmulator, type TestEmulator } from '../helpers/emulator.js';

const v1Lists = modelledResources().flatMap((r) => (r.v1.endpoints.list && !r.v1.endpoints.list.paginated ? [r.v1.endpoints.list.path] : []));

async function everyRecord(e: TestEmulator, path: string): Promise<any[]> {
  return (await e.get(path)).json.items;
}

describe('v1 ?id= reads', () => {
  it('answer each record exactly as the full list shows it, with slashes written raw or encoded', async () => {
    for (const dataset of ['demo', 'large:100']) {
      const e = await useEmulator({ dataset });
      for (const path of v1Lists) {
        const all = await everyRecord(e, path);
        for (const record of all) {
          expect((await e.get(`${path}?id=${record.id}`)).json.items, `${dataset} ${path} ${record.id}`).toEqual([record]);
          expect((await e.get(`${path}?id=${encodeURIComponent(record.id)}`)).json.items).toEqual([record]);
        }
      }
    }
  });

  it('answer nothing for an id no record of the kind has', async () => {
    const e = await useEmulator({ dataset: 'demo' });
    const group = (await everyRecord(e, '/iam/v1/groups'))[1];
    const identity = (await everyRecord(e, '/iam/v1/identities'))[0];
    for (const [path, id] of [
      ['/iam/v1/groups', 'f'.repeat(40)],
      ['/iam/v1/groups', `${group.id}/ffffffffffffffff`],
      ['/iam/v1/groups', `${group.id}/ffffffffffffffff/0000000000000000`],
      ['/iam/v1/identities', group.id],
      ['/iam/v1/groups', identity.id],
    ]) {
      const r = await e.get(`${path}?id=${id}`);
      expect(r.status).toBe(200);
      expect(r.json, `${path} ${id}`).toEqual({ items: [] });
    }
  });

  it('apply the other filters given with the id', async () => {
    const e = await useEmulator({ dataset: 'demo' });
    const group = (await everyRecord(e, '/iam/v1/groups')).find((g) => g.id.includes('/'));
    const parent = group.id.slice(0, group.id.lastIndexOf('/'));
    expect((await e.get(`/iam/v1/groups?id=${group.id}&name=${group.name}`)).json.items).toEqual([group]);
    expect((await e.get(`/iam/v1/groups?id=${group.id}&name=other`)).json.items).toEqual([]);
    expect((await e.get(`/iam/v1/groups?id=${group.id}&uidp.children_of=${parent}`)).json.items).toEqual([group]);
    expect((await e.get(`/iam/v1/groups?id=${group.id}&uidp.children_of=${group.id}`)).json.items).toEqual([]);
    expect((await e.get(`/iam/v1/groups?id=${group.id}&uidp.ancestors_of=${group.id}/0000000000000000`)).json.items).toEqual([group]);
  });

  it('hide what drift hides from v1, and refuse an id that is not a uid', async () => {
    const e = await useEmulator({ dataset: 'demo', drift: parseDriftSpec('missing-v1=20,seed=5') });
    const hidden = new Set(e.running.emulator.drift.plan.missingInV1.filter((t) => t.kind === 'Group').map((t) => t.uid));
    const groups = (await e.get('/iam/v2beta1/groups?page_size=200')).json.groups;
    expect(hidden.size).toBeGreaterThan(0);
    expect(hidden.size).toBeLessThan(groups.length);
    for (const g of groups) expect((await e.get(`/iam/v1/groups?id=${g.uid}`)).json.items.length, g.uid).toBe(hidden.has(g.uid) ? 0 : 1);
    expectStatusBody(await e.get('/iam/v1/groups?id=not-a-uid'), 3);
    expect((await e.get('/iam/v1/groups?id=not-a-uid')).status).toBe(400);
  });
});
