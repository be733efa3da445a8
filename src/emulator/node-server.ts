/**
 * node:http adapter for the emulator core: reads the request, waits out injected latency, and
 * carries out the socket faults a reply asks for (reset, truncated body). It also answers what Node's
 * parser refuses in the API's error shape, and tells a client that went away from a bug.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GrpcCodeName } from '../contract/index.js';
import { ApiError, invalidField } from './api-error.js';
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

/** The requests Node's parser refuses before a handler runs, with the statuses Node gives them. */
const PARSER_REFUSALS: Record<string, { status: number; grpc: GrpcCodeName; text: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, grpc: 'INVALID_ARGUMENT', text: 'request: headers larger than the server accepts' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, grpc: 'INVALID_ARGUMENT', text: 'request: chunk extensions larger than the server accepts' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, grpc: 'DEADLINE_EXCEEDED', text: 'request: not received in time' },
};

function parserRefusal(error: NodeJS.ErrnoException): ApiError {
  const known = PARSER_REFUSALS[error.code ?? ''];
  if (known) return new ApiError(known.grpc, known.text, [], { status: known.status });
  return new ApiError('INVALID_ARGUMENT', `request: not valid HTTP (${error.code ?? error.message})`, [], { status: 400 });
}

/** A reply written to the socket itself: when the parser refuses a request there is no response object. */
function rawReply(reply: EmulatorReply): string {
  const headers = { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)), connection: 'close' };
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${head.join('\r\n')}\r\n\r\n${reply.body}`;
}

/**
 * Node answers these with an empty body; the API's clients read error bodies. As Node does, only a
 * connection nothing was written to yet gets an answer: anything else could land inside a reply.
 */
function answerClientError(emulator: Emulator, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  socket.end(rawReply(emulator.errorReply(parserRefusal(error))));
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

/** The request failed because its client closed the connection: nobody to answer, and no bug. */
function clientWentAway(req: IncomingMessage, error: unknown): boolean {
  return req.destroyed && (error as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET';
}

function logClientGone(req: IncomingMessage): void {
  const path = (req.url ?? '/').split('?')[0];
  process.stderr.write(`emulator: ${req.method} ${path}: the client closed the connection before the request was read\n`);
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
      if (clientWentAway(req, error)) logClientGone(req);
      else if (!res.headersSent) send(res, emulator.errorReply(error));
      else res.destroy();
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(emulator, error, socket));
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
