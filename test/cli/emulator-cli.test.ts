/** `migrate-v2 emulator` as a user runs it: a child process, real flags, real HTTP. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, stopChild, untilWritten } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'mv2-cli-'));

describe('migrate-v2 emulator (CLI)', () => {
  it('prints "listening on http://HOST:PORT" first, serves both versions, and logs requests', async () => {
    const log = join(tmp, 'requests.jsonl');
    const { child, firstLine, stderr } = await startCli(['emulator', '--port', '0', '--token', 'cli-secret', '--request-log', log]);
    try {
      expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = firstLine.slice('listening on '.length);
      const v1 = await fetch(`${url}/iam/v1/groups`, { headers: { authorization: 'Bearer cli-secret' } });
      expect(v1.status).toBe(200);
      const v2 = await fetch(`${url}/iam/v2beta1/groups`, { headers: { authorization: 'Bearer cli-secret' } });
      expect(((await v2.json()) as { totalCount: string }).totalCount).toBe('9');
      expect(stderr()).toMatch(/dataset demo: 9 Group/);
      expect(stderr()).not.toMatch(/cli-secret/);
    } finally {
      await stopChild(child);
    }
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('lists its subcommands with one line each', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const commands = r.stdout.slice(r.stdout.indexOf('Commands:')).split('\n').slice(1).filter((l) => l.trim());
    expect(commands.map((l) => l.trim().split(' ')[0])).toEqual(['migrate', 'verify', 'emulator', 'merge-reports', 'contract', 'help']);
    expect(commands.every((l) => /^  \S/.test(l) && l.length <= 80)).toBe(true);
    expect(r.stdout).toMatch(/^  emulator \[options\] +serve v1, v2beta1 and the token exchange$/m);
  });

  it('refuses bad flags with a clear message, exit 2 and no stack trace', async () => {
    for (const args of [
      ['emulator', '--port', 'eighty'],
      ['emulator', '--disable', 'v3'],
      ['emulator', '--disable', 'v1', '--disable', 'v2'],
      ['emulator', '--faults', '5xx=7'],
      ['emulator', '--drift', 'chaos=1'],
      ['emulator', '--page-token-ttl', '-1'],
      ['emulator', '--public-url', 'ftp://platform.example'],
      ['emulator', '--public-url', 'https://user:pw@platform.example'],
      ['emulator', '--dataset', join(tmp, 'missing.json')],
      ['emulator', '--no-such-flag'],
      ['no-such-command'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().length, args.join(' ')).toBeGreaterThan(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
    // One line naming the flag as the command takes it: verify's embedded emulator spells them --emulator-*.
    const log = join(tmp, 'no-such-dir', 'requests.log');
    for (const [args, message] of [
      [['emulator', '--dataset', 'large:abc'], /^migrate-v2: --dataset large:abc: N must be a whole number from 1 to 2000000$/],
      [['emulator', '--port', '0', '--request-log', log], /^migrate-v2: --request-log \S+requests\.log: cannot open: ENOENT$/],
      [['verify', '--emulator-dataset', 'large:-5'], /^migrate-v2: --emulator-dataset large:-5: N must be a whole number/],
      [['verify', '--emulator-request-log', log], /^migrate-v2: --emulator-request-log \S+requests\.log: cannot open: ENOENT$/],
      [['verify', '--emulator-faults', 'teapot=1'], /^migrate-v2: --emulator-faults: unknown setting "teapot"/],
    ] as const) {
      const r = await runCli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim(), args.join(' ')).toMatch(message);
      expect(r.stdout, 'nothing served').toBe('');
    }
  });

  it('answers as --public-url behind a proxy: the token audience and where the OIDC keys are, not where it listens', async () => {
    const publicUrl = 'https://platform.example.test';
    const { child, firstLine, stderr } = await startCli(['emulator', '--port', '0', '--public-url', `${publicUrl}/`]);
    try {
      const url = firstLine.slice('listening on '.length);
      const discovery = (await (await fetch(`${url}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
      expect(discovery.jwks_uri).toBe(`${publicUrl}/oidc/jwks`);
      const headers = { authorization: 'Bearer emulator-dev-token' };
      const deployer = ((await (await fetch(`${url}/iam/v2beta1/identities?name=ci-deployer`, { headers })).json()) as any).identities[0];
      const oidc = ((await (await fetch(`${url}/oidc/mint?subject=${encodeURIComponent(deployer.claimMatch.subject)}`)).json()) as any).token;
      const exchange = (aud: string) => fetch(`${url}/sts/exchange?aud=${encodeURIComponent(aud)}&identity=${encodeURIComponent(deployer.uid)}`, { headers: { authorization: `Bearer ${oidc}` } });
      expect((await exchange(publicUrl)).status).toBe(200);
      const listenAddress = await exchange(url);
      expect(listenAddress.status).toBe(400);
      expect(((await listenAddress.json()) as any).message).toBe(`Invalid argument: aud: must be the API base URL ${publicUrl}`);
      await untilWritten(child.stderr, stderr, `token exchange as ${publicUrl} (the audience it takes)`);
    } finally {
      await stopChild(child);
    }
  });

  it('warns when it listens on every interface with no --public-url, and not with one', async () => {
    for (const publicUrl of [undefined, 'https://platform.example.test']) {
      const { child, stderr } = await startCli(['emulator', '--port', '0', '--host', '0.0.0.0', ...(publicUrl ? ['--public-url', publicUrl] : [])]);
      try {
        await untilWritten(child.stderr, stderr, '(the audience it takes)');
        if (!publicUrl) await untilWritten(child.stderr, stderr, 'warning: listening on every interface (0.0.0.0) without --public-url');
        else expect(stderr()).not.toMatch(/warning/);
      } finally {
        await stopChild(child);
      }
    }
  });

  it('logs a client that goes away mid-request as one plain line, not an internal error', async () => {
    const { child, firstLine, stderr } = await startCli(['emulator', '--port', '0']);
    try {
      const { hostname, port } = new URL(firstLine.slice('listening on '.length));
      const notes = await untilWritten(child.stderr, stderr, '(the audience it takes)\n');
      // Headers that promise 100 bytes of body, one byte of it, then the connection is dropped.
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /iam/v2beta1/groups/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{', () => socket.destroy());
      });
      const logged = await untilWritten(child.stderr, () => stderr().slice(notes.length), '\n');
      expect(logged).toBe('emulator: POST /iam/v2beta1/groups/x: the client closed the connection before the request was read\n');
    } finally {
      await stopChild(child);
    }
  });

  it('refuses a port in use with exit 2', async () => {
    const { child, firstLine } = await startCli(['emulator', '--port', '0']);
    try {
      const port = firstLine.split(':').pop()!;
      const r = await runCli(['emulator', '--port', port]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
    } finally {
      await stopChild(child);
    }
  });

  it('prints the demo dataset, which --dataset FILE serves again', async () => {
    const printed = await runCli(['emulator', '--print-dataset']);
    expect(printed.code).toBe(0);
    const file = join(tmp, 'demo.json');
    writeFileSync(file, printed.stdout);
    const { child, firstLine } = await startCli(['emulator', '--port', '0', '--dataset', file]);
    try {
      const url = firstLine.slice('listening on '.length);
      const r = await fetch(`${url}/registry/v2beta1/repos`, { headers: { authorization: 'Bearer emulator-dev-token' } });
      expect(((await r.json()) as { totalCount: string }).totalCount).toBe('7');
    } finally {
      await stopChild(child);
    }
  });
});
