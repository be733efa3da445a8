/** v2 create, Get, partial update and delete (spec §4 "IAM endpoints", "Partial update", §7). */
import { describe, expect, it } from 'vitest';
import { detail, expectStatusBody, useEmulator } from '../helpers/emulator.js';

const emu = await useEmulator({ dataset: 'demo' });
const one = async (collection: string, name: string) => (await emu.get(`/iam/v2beta1/${collection}?name=${name}`)).json[collection][0];
const org = await one('groups', 'acme');

describe('v2 groups', () => {
  it('creates a group under the parent in the path, unverified, with v2 fields', async () => {
    const r = await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'new team', description: 'd' } });
    expect(r.status).toBe(200);
    expect(r.json.uid).toMatch(new RegExp(`^${org.uid}/[0-9a-f]{16}$`));
    expect(r.json).toMatchObject({ name: 'new team', description: 'd', verified: false, resourceLimits: {} });
    expect(r.json.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await emu.get(`/iam/v2beta1/groups/${r.json.uid}`);
    expect(got.json).toEqual(r.json);
  });

  it('refuses a missing or invalid name with the documented message and details, and writes nothing', async () => {
    const before = emu.running.emulator.store.snapshot();
    for (const body of [{}, { name: '' }, { name: 'Upper Case' }]) {
      const r = await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body });
      expect(r.status).toBe(400);
      const status = expectStatusBody(r, 3);
      expect(status.message).toBe('Invalid argument: name: name must match ^[a-z0-9 ._-]{1,}$');
      expect(detail(status, 'ErrorInfo')).toMatchObject({ reason: 'INVALID_ARGUMENT', domain: 'iam.platform.example' });
      expect(detail(status, 'BadRequest').fieldViolations).toEqual([{ field: 'name', description: 'name must match ^[a-z0-9 ._-]{1,}$' }]);
    }
    expect(emu.running.emulator.store.snapshot()).toBe(before);
  });

  it('never takes the parent from the body', async () => {
    const r = await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'x', parent: org.uid } });
    expect(detail(expectStatusBody(r, 3), 'BadRequest').fieldViolations[0].field).toBe('parent');
    const missing = await emu.call('POST', `/iam/v2beta1/groups/${'0'.repeat(40)}`, { body: { name: 'x' } });
    expect(expectStatusBody(missing, 5).message).toMatch(/^Not found: group 0{40}$/);
  });

  it('a role binding created without its identity or role is refused as invalid, naming the missing field, and writes nothing', async () => {
    const before = emu.running.emulator.store.snapshot();
    const sandbox = await one('groups', 'sandbox');
    const viewer = await one('roles', 'viewer');
    const alice = await one('identities', 'alice');
    const cases: [string, Record<string, string>, string][] = [
      ['v2beta1/roleBindings', {}, 'identityUid'],
      ['v2beta1/roleBindings', { roleUid: viewer.uid }, 'identityUid'],
      ['v2beta1/roleBindings', { identityUid: alice.uid }, 'roleUid'],
      ['v1/rolebindings', { role: viewer.uid }, 'identity'],
    ];
    for (const [path, body, field] of cases) {
      const r = await emu.call('POST', `/iam/${path}/${sandbox.uid}`, { body });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(detail(expectStatusBody(r, 3), 'BadRequest').fieldViolations[0].field).toBe(field);
    }
    expect(emu.running.emulator.store.snapshot()).toBe(before);
  });

  it('PATCH without updateMask changes only the fields in the body', async () => {
    const g = (await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'patch-a', description: 'keep', resourceLimits: { clusters: 3 } } })).json;
    const r = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}`, { body: { name: 'patch-b' } });
    expect(r.json).toMatchObject({ name: 'patch-b', description: 'keep', resourceLimits: { clusters: 3 } });
    expect(r.json.updateTime >= g.updateTime).toBe(true);
    expect((await emu.get(`/iam/v2beta1/groups/${g.uid}`)).json).toEqual(r.json);
  });

  it('PATCH with updateMask changes only the named fields and ignores the rest of the body', async () => {
    const g = (await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'mask-a', description: 'old' } })).json;
    const r = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?updateMask=description`, { body: { name: 'ignored', description: 'new' } });
    expect(r.json).toMatchObject({ name: 'mask-a', description: 'new' });
    const snake = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?update_mask=resource_limits`, { body: { resourceLimits: { idps: 1 } } });
    expect(snake.json.resourceLimits).toEqual({ idps: 1 });
    // A masked field missing from the body is cleared (AIP-134).
    const cleared = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?updateMask=description`, { body: {} });
    expect(cleared.json.description).toBe('');
  });

  it('PATCH with mask * replaces every mutable field, like a v1 PUT', async () => {
    const g = (await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'star', description: 'gone', resourceLimits: { clusters: 1 } } })).json;
    const r = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?updateMask=*`, { body: { name: 'star2' } });
    expect(r.json).toMatchObject({ name: 'star2', description: '', resourceLimits: {} });
  });

  it('ignores output-only fields in a PATCH body (a spread of the resource) and refuses bad masks', async () => {
    const g = (await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'spread' } })).json;
    const r = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?updateMask=description`, { body: { ...g, uid: 'x', verified: true, description: 'set' } });
    expect(r.json).toMatchObject({ uid: g.uid, verified: false, description: 'set' });
    for (const mask of ['colour', 'uid', 'verified', '']) {
      const bad = await emu.call('PATCH', `/iam/v2beta1/groups/${g.uid}?updateMask=${mask}`, { body: {} });
      expect(bad.status, mask).toBe(400);
    }
  });

  it('refuses to delete a group with children, naming the kind of child, and deletes an empty one with an empty body', async () => {
    const ci = await one('groups', 'ci');
    const r = await emu.call('DELETE', `/iam/v2beta1/groups/${ci.uid}`);
    expect(r.status).toBe(400);
    const status = expectStatusBody(r, 9);
    expect(status.message).toMatch(/^Precondition failed: cannot delete group with child (identities|repos|role bindings)$/);
    expect(detail(status, 'ErrorInfo').reason).toBe('FAILED_PRECONDITION');
    expect(detail(status, 'PreconditionFailure').violations[0]).toMatchObject({ type: 'RESOURCE_NOT_EMPTY' });
    const sandbox = await one('groups', 'sandbox');
    const del = await emu.call('DELETE', `/iam/v2beta1/groups/${sandbox.uid}`);
    expect(del.status).toBe(200);
    expect(del.text).toBe('');
    expect(expectStatusBody(await emu.get(`/iam/v2beta1/groups/${sandbox.uid}`), 5)).toBeTruthy();
  });

  it('names repos when a group’s only children are repos', async () => {
    const g = (await emu.call('POST', `/iam/v2beta1/groups/${org.uid}`, { body: { name: 'with-repo' } })).json;
    expect((await emu.call('POST', `/registry/v1/repos/${g.uid}`, { body: { name: 'r1' } })).status).toBe(200);
    const r = await emu.call('DELETE', `/iam/v2beta1/groups/${g.uid}`);
    expect(expectStatusBody(r, 9).message).toBe('Precondition failed: cannot delete group with child repos');
  });
});

describe('v2 identities, roles and role bindings', () => {
  it('gives a new record one instant for all its times, however the clock moves while it is made', async () => {
    let t = Date.UTC(2026, 0, 1);
    const ticking = await useEmulator({ dataset: 'demo', now: () => (t += 1) });
    const root = (await ticking.get('/iam/v2beta1/groups?page_size=1')).json.groups[0];
    const r = await ticking.call('POST', `/iam/v2beta1/identities/${root.uid}`, { body: { name: 'bot', claimMatch: { issuer: 'https://issuer.example', subject: 's' } } });
    expect(r.status).toBe(200);
    expect([r.json.updateTime, r.json.lastSeenTime]).toEqual([r.json.createTime, r.json.createTime]);
  });

  it('creates an identity in a group with a claimMatch, and lists roles with no scoping', async () => {
    const r = await emu.call('POST', `/iam/v2beta1/identities/${org.uid}`, {
      body: { name: 'deploy-bot', description: 'd', claimMatch: { issuer: 'https://token.actions.example', subject: 'repo:a/b' } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'deploy-bot', claimMatch: { issuer: 'https://token.actions.example', subject: 'repo:a/b' } });
    expect(r.json.lastSeenTime).toBe(r.json.createTime);
    const noClaim = await emu.call('POST', `/iam/v2beta1/identities/${org.uid}`, { body: { name: 'x', claimMatch: { issuer: 'i' } } });
    expect(noClaim.status).toBe(400);
    const roles = await emu.get('/iam/v2beta1/roles');
    expect(roles.json.roles.map((x: any) => x.name)).toContain('viewer');
    expect(Object.keys(roles.json.roles[0]).sort()).toEqual(['description', 'name', 'uid']);
  });

  it('creates a role binding from identityUid and roleUid and answers it hydrated', async () => {
    const identity = (await emu.call('POST', `/iam/v2beta1/identities/${org.uid}`, { body: { name: 'bound', claimMatch: { issuer: 'i', subject: 's' } } })).json;
    const viewer = (await emu.get('/iam/v2beta1/roles?name=viewer')).json.roles[0];
    const r = await emu.call('POST', `/iam/v2beta1/roleBindings/${org.uid}`, { body: { identityUid: identity.uid, roleUid: viewer.uid } });
    expect(r.status).toBe(200);
    expect(r.json.uid.startsWith(`${org.uid}/`)).toBe(true);
    expect(r.json.identity).toEqual({ uid: identity.uid, name: 'bound', description: '', subject: 's', issuer: 'i' });
    expect(r.json.role).toEqual({ uid: viewer.uid, name: 'viewer', description: viewer.description });
    expect(r.json.group).toEqual({ uid: org.uid, name: 'acme', description: 'Acme Corp' });
    expect(Object.keys(r.json).sort()).toEqual(['createTime', 'group', 'identity', 'role', 'uid']);
    const unknown = await emu.call('POST', `/iam/v2beta1/roleBindings/${org.uid}`, { body: { identityUid: `${org.uid}/0000000000000000`, roleUid: viewer.uid } });
    expect(expectStatusBody(unknown, 5).message).toMatch(/identity/);
    // The identity is still named by a binding: it cannot go first.
    const del = await emu.call('DELETE', `/iam/v2beta1/identities/${identity.uid}`);
    expect(expectStatusBody(del, 9).message).toMatch(/role bindings/);
    expect((await emu.call('DELETE', `/iam/v2beta1/roleBindings/${r.json.uid}`)).status).toBe(200);
    expect((await emu.call('DELETE', `/iam/v2beta1/identities/${identity.uid}`)).status).toBe(200);
  });

  it('answers 404 with code 5 for unknown resources and 400 with code 3 for malformed uids', async () => {
    expect(expectStatusBody(await emu.get(`/iam/v2beta1/groups/${org.uid}/ffffffffffffffff`), 5)).toBeTruthy();
    expect((await emu.get(`/iam/v2beta1/groups/${org.uid}/ffffffffffffffff`)).status).toBe(404);
    expect((await emu.get('/iam/v2beta1/groups/NOT-A-UID')).status).toBe(400);
    expect((await emu.get('/registry/v2beta1/repos/abc')).status).toBe(400);
  });
});
