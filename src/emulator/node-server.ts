/**
 * node:http adapter for the emulator core: reads the request, waits out injected latency, and
 * carries out the socket faults a reply asks for (reset, truncated body).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalidField } from './api-error.js';
import { Emulator, type EmulatorOptions, type EmulatorReply } from './emulator.js';

const MAX_BODY_BYTES = 1 << 20;

export interface RunningEmulator {
  /** Where it listens. */
  readonly url: string;
  /** The API base URL it answers as: the public URL it was given, else where it listens. */
  readonly baseUrl: string;
  readonly port: number;
  readonly emulator: Emulator;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, reply: EmulatorReply): void {
  if (reply.fault === 'reset') {
    res.socket?.resetAndDestroy();
    return;
  }
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  if (reply.fault === 'truncate' && body.length > 1) {
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    res.socket?.destroy();
    return;
  }
  res.end(body);
}

async function serve(emulator: Emulator, baseUrl: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const reply =
    body === undefined
      ? emulator.errorReply(invalidField('body', `larger than ${MAX_BODY_BYTES} bytes`))
      : await emulator.handle({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: { authorization: req.headers.authorization, 'content-type': req.headers['content-type'] },
          body,
          baseUrl,
        });
  if (reply.delayMs) await sleep(reply.delayMs);
  send(res, reply);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export interface ServerOptions {
  port?: number;
  host?: string;
  /** The API base URL when clients reach the emulator through a proxy: `https://platform.example`. */
  publicUrl?: string;
}

export async function startEmulator(options: EmulatorOptions & ServerOptions = {}): Promise<RunningEmulator> {
  const emulator = await Emulator.create(options);
  // Set once listening, before any connection is read: the port is known only then.
  let baseUrl = '';
  const server = createServer((req, res) => {
    serve(emulator, baseUrl, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, emulator.errorReply(error));
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  const address = await listen(server, options.port ?? 0, host);
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  baseUrl = options.publicUrl ?? url;
  return {
    url,
    baseUrl,
    port: address.port,
    emulator,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
