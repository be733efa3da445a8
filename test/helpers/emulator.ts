/** Starts the emulator over real HTTP on 127.0.0.1:0 and talks to it with fetch. */
import { afterAll } from 'vitest';
import { DEFAULT_API_TOKEN } from '../../src/emulator/emulator.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/node-server.js';
import type { EmulatorOptions } from '../../src/emulator/emulator.js';

export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = Date.UTC(2026, 0, 1)): TestClock {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface TestEmulator {
  running: RunningEmulator;
  url: string;
  call(method: string, path: string, options?: { body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<Reply>;
  get(path: string): Promise<Reply>;
}

/** One emulator per test file, closed after it. */
export async function useEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const running = await startEmulator(options);
  afterAll(() => running.close());
  const call: TestEmulator['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? DEFAULT_API_TOKEN : opts.token;
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(running.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  return { running, url: running.url, call, get: (path) => call('GET', path) };
}

/** Checks the google.rpc.Status shape and returns the body. */
export function expectStatusBody(reply: Reply, code: number): any {
  if (reply.json?.code !== code || typeof reply.json?.message !== 'string' || !Array.isArray(reply.json?.details)) {
    throw new Error(`expected a google.rpc.Status with code ${code}, got ${reply.status} ${reply.text}`);
  }
  return reply.json;
}

export function detail(body: any, type: string): any {
  return body.details.find((d: any) => d['@type'] === `type.googleapis.com/google.rpc.${type}`);
}
