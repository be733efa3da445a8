import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ExchangedToken, Secrets } from '../../src/verify/token-source.js';
import { testClock, useEmulator } from '../helpers/emulator.js';

it('exchanges again before the hour is up, and only then', async () => {
  const clock = testClock(Date.now());
  const e = await useEmulator({ dataset: 'demo', now: clock.now });
  const deployer = (await e.get('/iam/v2beta1/identities?name=ci-deployer')).json.identities[0];
  const file = join(mkdtempSync(join(tmpdir(), 'mv2-oidc-')), 'token');
  writeFileSync(file, (await e.call('GET', `/oidc/mint?subject=${encodeURIComponent(deployer.claimMatch.subject)}&ttl=7200`, { token: null })).json.token);
  const secrets = new Secrets();
  const source = new ExchangedToken({ authUrl: e.url, baseUrl: e.url, identity: deployer.uid, oidcTokenFile: file, secrets, now: clock.now });
  const first = await source.token();
  clock.advance(30 * 60_000);
  expect(await source.token()).toBe(first);
  expect(source.exchanges).toBe(1);
  clock.advance(26 * 60_000); // 4 minutes left: inside the 5-minute margin
  const second = await source.token();
  expect(second).not.toBe(first);
  expect(source.exchanges).toBe(2);
  expect((await e.call('GET', '/iam/v2beta1/groups', { token: second })).status).toBe(200);
  expect(secrets.scrub(`a ${first} b ${second}`)).toBe('a *** b ***');
});
