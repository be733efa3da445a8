/** `migrate-v2 verify` as a user runs it: child processes, real flags, files written. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, stopChild } from '../helpers/cli.js';
import { pathOf, sendJson, useScriptedServer } from '../helpers/scripted-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'mv2-verify-'));
const SECRET = 'S3cret-token-for-the-test-0123456789';
const log = join(tmp, 'requests.jsonl');
const server = await startCli(['emulator', '--port', '0', '--token', SECRET, '--request-log', log]);
const baseUrl = server.firstLine.replace('listening on ', '');
afterAll(() => stopChild(server.child));

describe('migrate-v2 verify (CLI)', () => {
  it('audits the embedded emulator with no flags and reports parity (exit 0)', async () => {
    const r = await runCli(['verify']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^kind +compared +equal/);
    expect(r.stdout).toMatch(/Parity holds/);
  });

  it('writes markdown and JSON reports and exits 1 on findings; a baseline quiets known ones', async () => {
    const md = join(tmp, 'audit.md');
    const json = join(tmp, 'audit.json');
    const drift = ['--emulator-drift', 'missing-v2=2,field=1,seed=5'];
    const first = await runCli(['verify', ...drift, '--report', md, '--report', json]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/report written to .*audit\.md/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.verdict).toBe('findings');
    expect(report.findings.filter((f: any) => f.kind === 'missing-in-v2')).toHaveLength(2);
    const markdown = readFileSync(md, 'utf8');
    expect(markdown).toMatch(/^# migrate-v2 parity audit/);
    expect(markdown).toMatch(/## Missing in v2 \(2\)/);
    expect(markdown).toMatch(/\| kind \| compared \| equal \|/);
    expect(markdown, 'no timestamps: a sticky comment would change on every run').not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    const again = await runCli(['verify', ...drift, '--baseline', json]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout, 'the two missing and the one changed field, the expected differences counted once').toMatch(/ \d+ expected differences, 3 other findings known from the baseline\./);
    const more = await runCli(['verify', '--emulator-drift', 'missing-v2=3,field=1,seed=5', '--baseline', json, '--json']);
    expect(more.code).toBe(1);
    const newOnes = JSON.parse(more.stdout).findings.filter((f: any) => f.kind === 'missing-in-v2' && !f.baseline);
    expect(newOnes).toHaveLength(1);
  });

  it('appends the markdown summary to GITHUB_STEP_SUMMARY', async () => {
    const summary = join(tmp, 'step-summary.md');
    writeFileSync(summary, 'before\n');
    const r = await runCli(['verify'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/^before\n# migrate-v2 parity audit/);
  });

  it('audits a server by --base-url with MIGRATE_V2_TOKEN, and no token reaches any output', async () => {
    const json = join(tmp, 'remote.json');
    const md = join(tmp, 'remote.md');
    const r = await runCli(['verify', '--base-url', baseUrl, '--report', json, '--report', md], { env: { MIGRATE_V2_TOKEN: SECRET } });
    expect(r.code, r.stderr).toBe(0);
    for (const text of [r.stdout, r.stderr, readFileSync(json, 'utf8'), readFileSync(md, 'utf8'), readFileSync(log, 'utf8')]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it('exchanges a workload OIDC token for an API token, and prints neither', async () => {
    const identity = await (await fetch(`${baseUrl}/iam/v2beta1/identities?name=ci-deployer`, { headers: { authorization: `Bearer ${SECRET}` } })).json() as any;
    const uid = identity.identities[0].uid;
    const minted = await (await fetch(`${baseUrl}/oidc/mint?subject=${encodeURIComponent(identity.identities[0].claimMatch.subject)}`)).json() as any;
    const file = join(tmp, 'oidc-token');
    writeFileSync(file, `${minted.token}\n`);
    const json = join(tmp, 'exchanged.json');
    const r = await runCli(['verify', '--base-url', baseUrl, '--oidc-token-file', file, '--identity', uid, '--report', json]);
    expect(r.code, r.stderr).toBe(0);
    const outputs = [r.stdout, r.stderr, readFileSync(json, 'utf8')].join('\n');
    expect(outputs).not.toContain(minted.token);
    expect(outputs).not.toMatch(/emu_[A-Za-z0-9_-]{10,}/);
    // Refused: another identity's claimMatch does not match this subject.
    const other = await (await fetch(`${baseUrl}/iam/v2beta1/identities?name=alice`, { headers: { authorization: `Bearer ${SECRET}` } })).json() as any;
    const refused = await runCli(['verify', '--base-url', baseUrl, '--oidc-token-file', file, '--identity', other.identities[0].uid]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/token exchange refused \(403\)/);
    expect(refused.stderr).not.toContain(minted.token);
  });

  it('sent only GETs (and the token exchange) to the server it audited', () => {
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.length).toBeGreaterThan(10);
    expect(new Set(entries.map((e) => e.method))).toEqual(new Set(['GET']));
    expect(entries.filter((e) => !e.path.startsWith('/iam/') && !e.path.startsWith('/registry/') && !e.path.startsWith('/vulnerabilities/')).every((e) => e.path === '/sts/exchange' || e.path.startsWith('/oidc/'))).toBe(true);
  });

  it('exits 2 with a clear message for a wrong token, an unreachable server and bad flags', async () => {
    const wrong = await runCli(['verify', '--base-url', baseUrl, '--token', 'wrong-token-value']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/refused the credentials \(401\)/);
    expect(wrong.stderr).not.toContain('wrong-token-value');
    const closed = await runCli(['verify', '--base-url', 'http://127.0.0.1:9', '--token', 'x', '--retries', '0']);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    for (const args of [
      ['verify', '--concurrency', '0'],
      ['verify', '--report', join(tmp, 'report.txt')],
      ['verify', '--kinds', 'widgets'],
      ['verify', '--base-url', 'ftp://example.invalid'],
      ['verify', '--base-url', baseUrl],
      ['verify', '--baseline', join(tmp, 'missing.json')],
      ['verify', '--scope', 'not-a-uid'],
    ]) {
      const r = await runCli(args, { env: { MIGRATE_V2_TOKEN: '' } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^migrate-v2: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('exits 2 when a page-token cycle stops the v2 walk: the kind is left incomplete', async () => {
    const r = await runCli(['verify', '--emulator-drift', 'cycle', '--kinds', 'groups', '--page-size', '2']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/contract-breach Group - a nextPageToken came back that an earlier page had already given/);
    expect(r.stdout).toMatch(/^Incomplete: /m);
  });

  it('gives up on an answer that drips (headers, then a byte at a time) at --timeout, body included (exit 2)', async () => {
    // v2 answers at once (the preflight passes); v1 sends its headers, then one byte every 100 ms of 1,000.
    const dripping = await useScriptedServer((req, res) => {
      if (pathOf(req) !== '/iam/v1/groups') return sendJson(res, { groups: [], nextPageToken: '', totalCount: '0' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      const drip = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(drip));
    });
    const r = await runCli(['verify', '--base-url', dripping, '--token', 'drip-token', '--kinds', 'groups', '--timeout', '600', '--retries', '1'], { timeoutMs: 25_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/incomplete Group - not audited to the end: GET \/iam\/v1\/groups failed after 2 attempts: UND_ERR_BODY_TIMEOUT/);
  });
});
