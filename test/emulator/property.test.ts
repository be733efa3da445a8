/**
 * Random and malformed requests: each gets a well-formed success or google.rpc.Status error, never a
 * 500, and a rejected write leaves the store unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/contract/index.js';
import { useEmulator } from '../helpers/emulator.js';

const emu = await useEmulator({ dataset: 'demo' });
const store = emu.running.emulator.store;
const uids = ['Group', 'Identity', 'Role', 'RoleBinding', 'Repo', 'Tag', 'Advisory'].flatMap((k) => store.all(k as any).map((r) => r.uid));
const endpoints = allEndpoints().filter((e) => e.resource.modelled).map((e) => e.endpoint);
const templates = endpoints.map((e) => e.path);

// Weighted towards well-formed requests, so that successes are reached as well as refusals.
const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...uids) },
  { weight: 1, arbitrary: fc.constantFrom('', '../..') },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789abcdef/'), minLength: 1, maxLength: 60 }) },
);
const path = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...templates), segment).map(([t, s]) => t.replace(/\{[^}]+\}/, s)) },
  { weight: 1, arbitrary: fc.string().map((s) => `/iam/v2beta1/${s}`) },
  { weight: 1, arbitrary: fc.webPath() },
);
const queryValue = fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom(...uids), fc.constantFrom('name', 'name desc', 'created_at desc', '*'));
const queryName = fc.constantFrom('page_size', 'pageSize', 'page_token', 'order_by', 'skip', 'name', 'id', 'uidp.children_of', 'uidp.descendants_of', 'updateMask', 'update_mask', 'parent', 'x');
const query = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()) },
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const fieldName = fc.constantFrom('name', 'description', 'resourceLimits', 'verified', 'claimMatch', 'identityUid', 'roleUid', 'identity', 'role', 'uid', 'id', 'parent', 'capabilities', 'digest');
const fieldValue = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('ok name', 'x', '', 'Bad Name') },
  { weight: 2, arbitrary: fc.constantFrom(...uids) },
  { weight: 1, arbitrary: fc.constant({ issuer: 'i', subject: 's' }) },
  { weight: 1, arbitrary: jsonValue },
);
const body = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fieldName, fieldValue, { maxKeys: 4 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: jsonValue.map((v) => JSON.stringify(v)) },
);
const method = fc.oneof({ weight: 3, arbitrary: fc.constant('GET') }, { weight: 4, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') });

const fill = (template: string, s: string) => template.replace(/\{[^}]+\}/, s);
// Either anything at all, or a method and path of a real endpoint with random content.
const request = fc.oneof(
  fc.tuple(method, path, query, body),
  fc.tuple(fc.constantFrom(...endpoints), segment, query, body).map(([e, s, q, b]) => [e.method, fill(e.path, s), q, b] as const),
);

describe('random requests', () => {
  it('never get a 500, always a well-formed reply, and rejected writes change nothing', async () => {
    const seen = { ok: 0, okWrites: 0, rejectedWrites: 0 };
    await fc.assert(
      fc.asyncProperty(request, async ([m, p, q, b]) => {
        const url = `${p.startsWith('/') ? p : `/${p}`}${q ? `?${q}` : ''}`;
        let parsedUrl: URL;
        try {
          // Concatenated, never resolved: a path like //host must stay a path on the emulator.
          parsedUrl = new URL(emu.url + url);
        } catch {
          return; // not a request a client could send
        }
        if (parsedUrl.origin !== emu.url) return;
        const before = store.snapshot();
        const hasBody = m !== 'GET' && m !== 'HEAD';
        const res = await fetch(parsedUrl, { method: m, headers: { authorization: 'Bearer emulator-dev-token', 'content-type': 'application/json' }, ...(hasBody ? { body: b } : {}) });
        const text = await res.text();
        expect(res.status, `${m} ${url} ${b}`).not.toBe(500);
        if (m === 'HEAD') return;
        if (m !== 'GET') seen[res.status < 400 ? 'okWrites' : 'rejectedWrites'] += 1;
        if (res.status < 400) seen.ok += 1;
        if (res.status >= 400) {
          const status = JSON.parse(text);
          expect(Number.isInteger(status.code) && status.code > 0).toBe(true);
          expect(typeof status.message).toBe('string');
          expect(Array.isArray(status.details)).toBe(true);
          expect(store.snapshot(), `${m} ${url} changed the store and failed`).toBe(before);
        } else if (text !== '') {
          expect(typeof JSON.parse(text)).toBe('object');
        }
      }),
      { numRuns: 600, seed: 7 },
    );
    // The generators reach both sides: successful reads and writes, and refused writes.
    console.log('random requests:', JSON.stringify(seen));
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.okWrites).toBeGreaterThan(0);
    expect(seen.rejectedWrites).toBeGreaterThan(100);
  });
});
