/** The token exchange (spec §4 "Token exchange", §5) with the emulator as a development OIDC issuer. */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { DevOidcIssuer, DEV_OIDC_ISSUER } from '../../src/emulator/oidc-issuer.js';
import { expectStatusBody, testClock, useEmulator } from '../helpers/emulator.js';

const clock = testClock(Date.now());
const emu = await useEmulator({ dataset: 'demo', now: clock.now });
const identities = (await emu.get('/iam/v2beta1/identities')).json.identities;
const deployer = identities.find((i: any) => i.name === 'ci-deployer');

async function mint(subject: string, extra = ''): Promise<string> {
  const r = await emu.call('GET', `/oidc/mint?subject=${encodeURIComponent(subject)}${extra}`, { token: null });
  expect(r.status).toBe(200);
  expect(r.json.issuer).toBe(DEV_OIDC_ISSUER);
  return r.json.token;
}

function exchangeUrl(identity: string, aud = emu.url): string {
  return `/sts/exchange?aud=${encodeURIComponent(aud)}&identity=${encodeURIComponent(identity)}`;
}

describe('token exchange', () => {
  it('exchanges a matching OIDC token for an API token valid one hour, usable on v1 and v2', async () => {
    const oidc = await mint(deployer.claimMatch.subject);
    const r = await emu.call('GET', exchangeUrl(deployer.uid), { token: oidc });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['expiry', 'token']);
    expect(Date.parse(r.json.expiry) - clock.now()).toBe(3600_000);
    expect((await emu.call('GET', '/iam/v2beta1/groups', { token: r.json.token })).status).toBe(200);
    expect((await emu.call('GET', '/iam/v1/groups', { token: r.json.token })).status).toBe(200);
    clock.advance(3600_000);
    const expired = await emu.call('GET', '/iam/v2beta1/groups', { token: r.json.token });
    expect(expectStatusBody(expired, 16).message).toMatch(/expired/);
  });

  it('takes a form POST too', async () => {
    const oidc = await mint(deployer.claimMatch.subject);
    const r = await emu.call('POST', '/sts/exchange', {
      token: oidc,
      body: new URLSearchParams({ aud: emu.url, identity: deployer.uid }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status, r.text).toBe(200);
  });

  it('refuses a subject that does not match the identity’s claimMatch with code 7', async () => {
    const oidc = await mint('someone-else');
    const r = await emu.call('GET', exchangeUrl(deployer.uid), { token: oidc });
    expect(r.status).toBe(403);
    expect(expectStatusBody(r, 7).message).toMatch(/claimMatch/);
  });

  it('refuses an identity whose issuer is not the presenting token’s', async () => {
    const alice = identities.find((i: any) => i.name === 'alice');
    const oidc = await mint(alice.claimMatch.subject);
    expect((await emu.call('GET', exchangeUrl(alice.uid), { token: oidc })).status).toBe(403);
  });

  it('refuses tokens signed by another key, expired, or missing, with code 16', async () => {
    const stranger = await DevOidcIssuer.create(Date.now);
    const forged = await stranger.mint({ subject: deployer.claimMatch.subject, audience: emu.url });
    expect(expectStatusBody(await emu.call('GET', exchangeUrl(deployer.uid), { token: forged }), 16).message).toMatch(/OIDC token refused/);
    const short = await mint(deployer.claimMatch.subject, '&ttl=60');
    clock.advance(61_000);
    expect((await emu.call('GET', exchangeUrl(deployer.uid), { token: short })).status).toBe(401);
    expect((await emu.call('GET', exchangeUrl(deployer.uid), { token: null })).status).toBe(401);
    expect((await emu.call('GET', exchangeUrl(deployer.uid), { token: 'not.a.jwt' })).status).toBe(401);
  });

  it('checks the audience and the identity parameter', async () => {
    const oidc = await mint(deployer.claimMatch.subject);
    expect(expectStatusBody(await emu.call('GET', exchangeUrl(deployer.uid, 'https://elsewhere.example'), { token: oidc }), 3).message).toMatch(/aud/);
    expect((await emu.call('GET', exchangeUrl('nope'), { token: oidc })).status).toBe(400);
    const unknown = `${deployer.uid.split('/')[0]}/ffffffffffffffff`;
    expect(expectStatusBody(await emu.call('GET', exchangeUrl(unknown), { token: oidc }), 5).message).toMatch(/identity/);
    expect((await emu.call('GET', `/sts/exchange?identity=${deployer.uid}`, { token: oidc })).status).toBe(400);
  });

  it('takes the API audience from its configured base URL, never from the Host header', async () => {
    const evil = 'http://evil.example';
    const oidc = await mint(deployer.claimMatch.subject, `&audience=${encodeURIComponent(evil)}`);
    const res = await request(`${emu.url}${exchangeUrl(deployer.uid, evil)}`, { headers: { host: 'evil.example', authorization: `Bearer ${oidc}` } });
    const body = (await res.body.json()) as any;
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
    expect(body).toMatchObject({ code: 3, message: `Invalid argument: aud: must be the API base URL ${emu.url}` });
  });

  it('refuses an OIDC token whose aud claim is not the API base URL (minted for another service), with code 16', async () => {
    const elsewhere = await mint(deployer.claimMatch.subject, `&audience=${encodeURIComponent('https://other-service.example')}`);
    const r = await emu.call('GET', exchangeUrl(deployer.uid), { token: elsewhere });
    expect(r.status).toBe(401);
    expect(expectStatusBody(r, 16).message).toMatch(/OIDC token refused: .*aud/);
    // With the slash a URL may carry, the claim still names the base URL.
    const slashed = await mint(deployer.claimMatch.subject, `&audience=${encodeURIComponent(`${emu.url}/`)}`);
    expect((await emu.call('GET', exchangeUrl(deployer.uid), { token: slashed })).status).toBe(200);
  });

  it('forgets API tokens once they expire, without a timer', async () => {
    const exchanged = async () => {
      const r = await emu.call('GET', exchangeUrl(deployer.uid), { token: await mint(deployer.claimMatch.subject) });
      expect(r.status, r.text).toBe(200);
    };
    await exchanged();
    await exchanged();
    const exchange = emu.running.emulator.exchange;
    expect(exchange.held).toBeGreaterThanOrEqual(2);
    clock.advance(3600_000);
    await exchanged();
    expect(exchange.held).toBe(1);
  });

  it('does not accept the API token as an OIDC token', async () => {
    expect((await emu.call('GET', exchangeUrl(deployer.uid))).status).toBe(401);
  });
});
