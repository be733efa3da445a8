/** Bearer authentication on every call, the error model, and never a 500 for bad input. */
import { describe, expect, it } from 'vitest';
import { detail, expectStatusBody, useEmulator } from '../helpers/emulator.js';

const emu = await useEmulator({ dataset: 'demo', token: 'test-token' });
const v1only = await useEmulator({ dataset: 'demo', disable: ['v2'] });
const v2only = await useEmulator({ dataset: 'demo', disable: ['v1'] });

describe('authentication', () => {
  it('answers 401 with code 16 for a missing or wrong bearer token, on both versions', async () => {
    for (const path of ['/iam/v1/groups', '/iam/v2beta1/groups', '/registry/v2beta1/repos', '/iam/v2beta1/nowhere']) {
      for (const token of [null, 'wrong', '']) {
        const r = await emu.call('GET', path, { token });
        expect(r.status, `${path} ${token}`).toBe(401);
        expect(r.headers.get('www-authenticate')).toBe('Bearer');
        expect(detail(expectStatusBody(r, 16), 'ErrorInfo').reason).toBe('UNAUTHENTICATED');
      }
    }
    const bad = await emu.call('GET', '/iam/v2beta1/groups', { token: null, headers: { authorization: 'Basic dGVzdA==' } });
    expect(bad.status).toBe(401);
    expect((await emu.call('GET', '/iam/v2beta1/groups', { token: 'test-token' })).status).toBe(200);
  });

  it('needs no token for health and the OIDC discovery documents', async () => {
    expect((await emu.call('GET', '/healthz', { token: null })).status).toBe(200);
    expect((await emu.call('GET', '/oidc/jwks', { token: null })).json.keys).toHaveLength(1);
  });
});

describe('errors', () => {
  const root = async () => (await emu.call('GET', '/iam/v2beta1/groups?name=acme', { token: 'test-token' })).json.groups[0].uid;

  it('refuses malformed JSON, wrong types and unknown fields with code 3 and changes nothing', async () => {
    const before = emu.running.emulator.store.snapshot();
    const parent = await root();
    for (const body of ['{', '[]', '"x"', '{"name": 5}', '{"name":"ok","description":false}', '{"name":"ok","colour":"red"}', '{"name":"ok","resourceLimits":{"clusters":-1}}', '{"name":"ok","resourceLimits":[1]}']) {
      const r = await emu.call('POST', `/iam/v2beta1/groups/${parent}`, { body, token: 'test-token' });
      expect(r.status, body).toBe(400);
      expect(detail(expectStatusBody(r, 3), 'BadRequest').fieldViolations.length).toBeGreaterThan(0);
    }
    expect(emu.running.emulator.store.snapshot()).toBe(before);
  });

  it('answers unknown paths with 404 code 5 and unoffered methods with code 12', async () => {
    expect(expectStatusBody(await emu.call('GET', '/iam/v2beta1/widgets', { token: 'test-token' }), 5)).toBeTruthy();
    expect(expectStatusBody(await emu.call('GET', '/nowhere', { token: 'test-token' }), 5)).toBeTruthy();
    const put = await emu.call('PUT', `/iam/v2beta1/groups/${await root()}`, { body: {}, token: 'test-token' });
    expect(put.status).toBe(501);
    expect(expectStatusBody(put, 12).message).toMatch(/PATCH/);
  });

  it('answers 405 with an Allow header, in the error shape, for a method its own endpoints do not offer', async () => {
    for (const [method, path] of [['POST', '/healthz'], ['DELETE', '/healthz'], ['POST', '/oidc/mint?subject=x'], ['PUT', '/oidc/jwks'], ['PATCH', '/.well-known/openid-configuration']] as const) {
      const r = await emu.call(method, path, { token: null });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow')).toBe('GET');
      expect(expectStatusBody(r, 12).message).toBe(`Unimplemented: ${method} is not offered on ${path.split('?')[0]} (offered: GET)`);
    }
    expect((await emu.call('GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('refuses a body over 1 MiB without reading it into the store', async () => {
    const huge = JSON.stringify({ name: 'big', description: 'x'.repeat(1_100_000) });
    const r = await emu.call('POST', `/iam/v2beta1/groups/${await root()}`, { body: huge, token: 'test-token' });
    expect(expectStatusBody(r, 3).message).toMatch(/body/);
  });
});

describe('--disable', () => {
  it('answers a disabled version 404 like an unknown path, and serves the other', async () => {
    const off = await v1only.get('/iam/v2beta1/groups');
    expect(off.status).toBe(404);
    expect(expectStatusBody(off, 5).message).toBe((await v1only.get('/iam/v3/groups')).json.message.replace('/iam/v3/', '/iam/v2beta1/'));
    expect((await v1only.get('/iam/v1/groups')).status).toBe(200);
    expect((await v2only.get('/iam/v1/groups')).status).toBe(404);
    expect((await v2only.get('/iam/v2beta1/groups')).status).toBe(200);
  });
});
