/**
 * The emulator keeps each record's rendering until the record changes: every write path must show
 * its change in every form a record is read in, and an emulator that keeps nothing must answer the
 * same text as one that does.
 */
import { describe, expect, it } from 'vitest';
import { parseDriftSpec, DRIFT_SUFFIX } from '../../src/emulator/drift.js';
import { loadDataset } from '../../src/emulator/datasets.js';
import { testClock, useEmulator, type TestEmulator } from '../helpers/emulator.js';

const clock = testClock();
const emu = await useEmulator({ dataset: 'demo', now: clock.now });

/** A group as every read shows it: v2 Get, v2 list, v1 list, v1 read by id. */
async function everyForm(e: TestEmulator, uid: string): Promise<{ description: string; updated: string }[]> {
  const v2Get = (await e.get(`/iam/v2beta1/groups/${uid}`)).json;
  const v2List = (await e.get('/iam/v2beta1/groups?page_size=200')).json.groups.find((g: any) => g.uid === uid);
  const v1List = (await e.get('/iam/v1/groups')).json.items.find((g: any) => g.id === uid);
  const v1ById = (await e.get(`/iam/v1/groups?id=${uid}`)).json.items[0];
  return [
    { description: v2Get.description, updated: v2Get.updateTime },
    { description: v2List.description, updated: v2List.updateTime },
    // v1 groups show no timestamps (v1-reference table).
    { description: v1List.description, updated: v2Get.updateTime },
    { description: v1ById.description, updated: v2Get.updateTime },
  ];
}

async function groupNamed(e: TestEmulator, name: string): Promise<any> {
  return (await e.get(`/iam/v2beta1/groups?name=${name}`)).json.groups[0];
}

describe('a record read before a write shows the write in every form', () => {
  it('after a v2 PATCH', async () => {
    const g = await groupNamed(emu, 'observability');
    const before = await everyForm(emu, g.uid);
    expect(before.map((f) => f.description)).toEqual(Array(4).fill('Metrics and logs'));
    clock.advance(60_000);
    expect((await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}`, { body: { description: 'patched' } })).status).toBe(200);
    const after = await everyForm(emu, g.uid);
    expect(after.map((f) => f.description)).toEqual(Array(4).fill('patched'));
    expect(after[0]!.updated > before[0]!.updated).toBe(true);
    expect(after[1]!.updated).toBe(after[0]!.updated);
  });

  it('after a v1 PUT', async () => {
    const g = await groupNamed(emu, 'analytics');
    await everyForm(emu, g.uid);
    clock.advance(60_000);
    expect((await emu.call('PUT', `/iam/v1/groups/${g.uid}`, { body: { name: 'analytics', description: 'put' } })).status).toBe(200);
    expect((await everyForm(emu, g.uid)).map((f) => f.description)).toEqual(Array(4).fill('put'));
  });

  it('after a write to a record another one shows: a role that role bindings hydrate', async () => {
    const bindings = async () => ({
      v1: (await emu.get('/iam/v1/rolebindings')).json.items,
      v2: (await emu.get('/iam/v2beta1/roleBindings?page_size=200')).json.roleBindings,
    });
    const before = await bindings();
    const roleUid = before.v2[0].role.uid;
    clock.advance(60_000);
    expect((await emu.call('PATCH', `/iam/v2beta1/roles/${roleUid}`, { body: { description: 'rewritten role' } })).status).toBe(200);
    const after = await bindings();
    const holding = (list: any[], id: (b: any) => string) => list.filter((b) => id(b) === roleUid);
    expect(holding(after.v2, (b) => b.role.uid).map((b) => b.role.description)).toEqual(holding(before.v2, (b) => b.role.uid).map(() => 'rewritten role'));
    expect(holding(after.v1, (b) => b.role.id).map((b) => b.role.description)).toEqual(holding(before.v1, (b) => b.role.id).map(() => 'rewritten role'));
    expect(holding(after.v2, (b) => b.role.uid).length).toBeGreaterThan(0);
  });

  it('after a create and a delete: lists show the new record, then lose it', async () => {
    const parent = await groupNamed(emu, 'security');
    const listed = async () => (await emu.get(`/iam/v1/groups?uidp.children_of=${parent.uid}`)).json.items.map((g: any) => g.name);
    expect(await listed()).toEqual([]);
    const made = (await emu.call('POST', `/iam/v2beta1/groups/${parent.uid}`, { body: { name: 'newcomer' } })).json;
    expect(await listed()).toEqual(['newcomer']);
    expect((await emu.call('DELETE', `/iam/v2beta1/groups/${made.uid}`)).status).toBe(200);
    expect(await listed()).toEqual([]);
    expect((await emu.get(`/iam/v1/groups?id=${made.uid}`)).json.items).toEqual([]);
  });
});

describe('drift and the cache', () => {
  it('each emulator shows its own drift over a shared store, before and after a write', async () => {
    const store = loadDataset('demo');
    const drifted = await useEmulator({ store, now: clock.now, drift: parseDriftSpec('field=40,seed=2') });
    const plain = await useEmulator({ store, now: clock.now });
    const target = drifted.running.emulator.drift.plan.fieldDiffers.find((t) => t.kind === 'Group')!;
    const read = async (e: TestEmulator) => (await e.get(`/iam/v2beta1/groups/${target.uid}`)).json[target.field];
    const original = await read(plain);
    expect(await read(drifted)).toBe(`${original}${DRIFT_SUFFIX}`);
    expect(await read(plain)).toBe(original);
    clock.advance(60_000);
    expect((await plain.call('PATCH', `/iam/v2beta1/groups/${target.uid}`, { body: { [target.field]: 'new text' } })).status).toBe(200);
    expect(await read(drifted)).toBe(`new text${DRIFT_SUFFIX}`);
    expect(await read(plain)).toBe('new text');
  });
});

describe('keeping renderings changes no answer', () => {
  it('answers the same text as an emulator that keeps nothing, over one store, before and after writes', async () => {
    const store = loadDataset('demo');
    const keeping = await useEmulator({ store, now: clock.now });
    const fresh = await useEmulator({ store, now: clock.now, cacheRenderings: false });
    const paths = ['/iam/v1/groups', '/iam/v2beta1/groups?page_size=200', '/iam/v1/rolebindings', '/iam/v2beta1/roleBindings?page_size=200', '/iam/v1/identities', '/registry/v2beta1/repos?page_size=3'];
    const same = async () => {
      for (const path of paths) {
        const [a, b] = [await keeping.get(path), await fresh.get(path)];
        expect(a.text.replace(/"nextPageToken":"[^"]*"/, ''), path).toBe(b.text.replace(/"nextPageToken":"[^"]*"/, ''));
      }
    };
    await same();
    await same();
    const alice = (await keeping.get('/iam/v2beta1/identities?name=alice')).json.identities[0];
    clock.advance(60_000);
    expect((await fresh.call('PATCH', `/iam/v2beta1/identities/${alice.uid}`, { body: { description: 'changed elsewhere' } })).status).toBe(200);
    await same();
    expect((await keeping.get(`/iam/v2beta1/identities/${alice.uid}`)).json.description).toBe('changed elsewhere');
  });
});
