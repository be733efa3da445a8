/** v1 as v1-reference.md describes it, over the same store as v2. */
import { describe, expect, it } from 'vitest';
import { expectStatusBody, useEmulator } from '../helpers/emulator.js';

const emu = await useEmulator({ dataset: 'demo' });
const org = (await emu.get('/iam/v1/groups?name=acme')).json.items[0];

describe('v1 reads', () => {
  it('lists {items} with v1 field names, unpaginated, and the same ids as v2 uids', async () => {
    const v1 = await emu.get('/iam/v1/groups');
    expect(Object.keys(v1.json)).toEqual(['items']);
    expect(Object.keys(v1.json.items[0]).sort()).toEqual(['description', 'id', 'name', 'resourceLimits', 'verified']);
    const v2 = await emu.get('/iam/v2beta1/groups?page_size=200');
    expect(v1.json.items.map((g: any) => g.id).sort()).toEqual(v2.json.groups.map((g: any) => g.uid).sort());
  });

  it('shows resourceLimits with its integer members where v2 shows an empty object', async () => {
    const sandbox = (await emu.get('/iam/v1/groups?name=sandbox')).json.items[0];
    expect(sandbox.resourceLimits).toEqual({ clusters: 0, idps: 0, repositories: 0 });
    expect((await emu.get(`/iam/v2beta1/groups/${sandbox.id}`)).json.resourceLimits).toEqual({});
  });

  it('reads one record by listing with the id filter; zero items means it does not exist', async () => {
    const one = await emu.get(`/iam/v1/groups?id=${org.id}`);
    expect(one.json.items).toEqual([org]);
    expect((await emu.get(`/iam/v1/groups?id=${org.id}/ffffffffffffffff`)).json.items).toEqual([]);
    // v1 has no Get.
    expect((await emu.get(`/iam/v1/groups/${org.id}`)).status).not.toBe(200);
  });

  it('names identity timestamps createdAt, updatedAt, lastSeen, with microseconds', async () => {
    const alice = (await emu.get('/iam/v1/identities')).json.items.find((i: any) => i.name === 'alice');
    expect(Object.keys(alice).sort()).toEqual(['claimMatch', 'createdAt', 'description', 'id', 'lastSeen', 'name', 'updatedAt']);
    expect(alice.createdAt).toMatch(/\.\d{6}Z$/);
    const v2 = (await emu.get(`/iam/v2beta1/identities/${alice.id}`)).json;
    expect(v2.createTime).toBe(`${alice.createdAt.slice(0, 23)}Z`);
    expect(v2.lastSeenTime).toBe(`${alice.lastSeen.slice(0, 23)}Z`);
  });

  it('lists role bindings partly expanded: group and role objects, identity a uid string', async () => {
    const b = (await emu.get('/iam/v1/rolebindings')).json.items[0];
    expect(typeof b.identity).toBe('string');
    expect(Object.keys(b.group).sort()).toEqual(['description', 'id', 'name', 'resourceLimits', 'verified']);
    expect(Object.keys(b.role).sort()).toEqual(['capabilities', 'description', 'id', 'name']);
    expect(b.createdAt).toMatch(/Z$/);
    const v2 = (await emu.get(`/iam/v2beta1/roleBindings/${b.id}`)).json;
    expect(v2.identity.uid).toBe(b.identity);
    expect(v2.role.uid).toBe(b.role.id);
    expect(v2.group.uid).toBe(b.group.id);
  });

  it('lists v1 advisories with the paginated envelope', async () => {
    const r = await emu.get('/vulnerabilities/v1/advisories?page_size=2');
    expect(Object.keys(r.json).sort()).toEqual(['items', 'nextPageToken', 'totalCount']);
    expect(r.json.items).toHaveLength(2);
    expect(r.json.totalCount).toBe('5');
    const next = await emu.get(`/vulnerabilities/v1/advisories?page_size=2&page_token=${encodeURIComponent(r.json.nextPageToken)}`);
    expect(next.json.items[0].id > r.json.items[1].id).toBe(true);
  });

  it('refuses v2-only parameters on v1 lists', async () => {
    expect((await emu.get('/iam/v1/groups?page_size=10')).status).toBe(400);
    expect((await emu.get('/iam/v1/groups?order_by=name')).status).toBe(400);
  });
});

describe('v1 writes', () => {
  it('creates with the parent in the path and answers in v1 form', async () => {
    const r = await emu.call('POST', `/iam/v1/groups/${org.id}`, { body: { name: 'v1team', description: 'x' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'v1team', description: 'x', verified: false, resourceLimits: { clusters: 0, idps: 0, repositories: 0 } });
    expect(r.json.id.startsWith(`${org.id}/`)).toBe(true);
  });

  it('PUT replaces the whole resource: omitted fields reset to zero values', async () => {
    const g = (await emu.call('POST', `/iam/v1/groups/${org.id}`, { body: { name: 'put-me', description: 'will go', resourceLimits: { clusters: 4 } } })).json;
    const r = await emu.call('PUT', `/iam/v1/groups/${g.id}`, { body: { name: 'put-me' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'put-me', description: '', resourceLimits: { clusters: 0, idps: 0, repositories: 0 } });
    // Omitting the required name resets it to "" too, which the name rule refuses.
    const noName = await emu.call('PUT', `/iam/v1/groups/${g.id}`, { body: { description: 'x' } });
    expect(expectStatusBody(noName, 3).message).toMatch(/^Invalid argument: name: name must match/);
  });

  it('creates role bindings from {identity, role} and refuses to change the identity by PUT', async () => {
    const alice = (await emu.get('/iam/v1/identities')).json.items.find((i: any) => i.name === 'alice');
    const bob = (await emu.get('/iam/v1/identities')).json.items.find((i: any) => i.name === 'bob');
    const viewer = (await emu.get('/iam/v1/roles?name=viewer')).json.items[0];
    const editor = (await emu.get('/iam/v1/roles?name=editor')).json.items[0];
    const r = await emu.call('POST', `/iam/v1/rolebindings/${org.id}`, { body: { identity: alice.id, role: viewer.id } });
    expect(r.status).toBe(200);
    expect(r.json.identity).toBe(alice.id);
    expect(r.json.role.id).toBe(viewer.id);
    const moved = await emu.call('PUT', `/iam/v1/rolebindings/${r.json.id}`, { body: { identity: bob.id, role: viewer.id } });
    expect(moved.status).toBe(400);
    const promoted = await emu.call('PUT', `/iam/v1/rolebindings/${r.json.id}`, { body: { identity: alice.id, role: editor.id } });
    expect(promoted.json.role.id).toBe(editor.id);
    const v2body = await emu.call('POST', `/iam/v1/rolebindings/${org.id}`, { body: { identityUid: alice.id, roleUid: viewer.id } });
    expect(v2body.status).toBe(400);
  });

  it('deletes with {} and refuses non-empty groups with code 9', async () => {
    const g = (await emu.call('POST', `/iam/v1/groups/${org.id}`, { body: { name: 'short-lived' } })).json;
    const del = await emu.call('DELETE', `/iam/v1/groups/${g.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({});
    expect(expectStatusBody(await emu.call('DELETE', `/iam/v1/groups/${org.id}`), 9).message).toMatch(/^Precondition failed: cannot delete group with child /);
  });

  it('creates tags under a repo and repos under a group', async () => {
    const repo = (await emu.call('POST', `/registry/v1/repos/${org.id}`, { body: { name: 'v1repo', aliases: ['a'] } })).json;
    expect(repo.createTime).toMatch(/\.\d{6}Z$/);
    const tag = await emu.call('POST', `/registry/v1/tags/${repo.id}`, { body: { name: 'v1', digest: 'sha256:abc' } });
    expect(tag.status).toBe(200);
    expect(Object.keys(tag.json).sort()).toEqual(['deprecated', 'digest', 'id', 'lastUpdated', 'name']);
    const v2 = (await emu.get(`/registry/v2beta1/tags/${tag.json.id}`)).json;
    expect(v2).toMatchObject({ uid: tag.json.id, name: 'v1', digest: 'sha256:abc' });
    expect(v2.updateTime).toBe(`${tag.json.lastUpdated.slice(0, 23)}Z`);
    // v2beta1 has no writes on the registry.
    expect((await emu.call('POST', `/registry/v2beta1/repos/${org.id}`, { body: { name: 'x' } })).status).toBe(501);
  });
});
