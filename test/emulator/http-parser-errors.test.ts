/** Requests Node's HTTP parser refuses before any handler runs still get the API's error body. */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const emu = await useEmulator({ dataset: 'demo' });

interface RawReply {
  status: number;
  head: string;
  body: string;
}

/** Writes bytes as they are (no client would send them) and reads the answer until the server closes. */
function sendRaw(url: string, bytes: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
  });
}

function statusBody(reply: RawReply): { code: number; message: string; details: unknown[] } {
  const body = JSON.parse(reply.body);
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message']);
  expect(reply.head).toMatch(/\r\ncontent-type: application\/json/i);
  return body;
}

describe("errors raised by Node's HTTP parser", () => {
  it('answers headers too large with 431 and a google.rpc.Status body', async () => {
    const reply = await sendRaw(emu.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    expect(statusBody(reply)).toMatchObject({ code: 3, message: 'Invalid argument: request: headers larger than the server accepts' });
  });

  it.each([
    ['a Content-Length that is not a number', 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n'],
    ['Content-Length beside chunked framing', 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc'],
    ['a request line that is not HTTP', 'HELLO\r\n\r\n'],
  ])('answers bad framing (%s) with 400 and a google.rpc.Status body', async (_name, bytes) => {
    const reply = await sendRaw(emu.url, bytes);
    expect(reply.status).toBe(400);
    expect(statusBody(reply)).toMatchObject({ code: 3, message: expect.stringMatching(/^Invalid argument: request: not valid HTTP \(HPE_\w+\)$/) });
  });
});
