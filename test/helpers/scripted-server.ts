/**
 * A small HTTP server on 127.0.0.1:0 that answers as the test scripts it: for servers that misbehave
 * in ways the emulator does not (malformed pages, answers that drip), so the verifier meets them over
 * real HTTP. Closed after the test file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export type Script = (req: IncomingMessage, res: ServerResponse) => void;

export async function useScriptedServer(script: Script): Promise<string> {
  const server = createServer(script);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The path of a request, without its query. */
export function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}
