/**
 * What a v1 call answers its caller, in the form the caller reads it: a parsed body (ofetch's, a
 * wrapper's), a fetch Response, an axios, undici or got response; and the expression that gives it
 * (the call, or `got(...).json()` / `ky(...).json()` chained on it). Page helpers answer in the same form.
 */
import type { ts } from 'ts-morph';
import { parsedInChain, type Client, type V1Call } from './v1-calls.js';

/** What the original call answers: a page helper must answer the same. */
export type PageKind = 'body' | 'response' | 'axios' | 'undici' | 'got' | 'ofetch-raw';

/** The member of a client's response that holds its parsed body: axios's `data`, ofetch's (`.raw`) `_data`. */
export const BODY_MEMBERS: Partial<Record<Client, string>> = { axios: 'data', ofetch: '_data' };

/** Whether the call itself answers the parsed body: ofetch's do (but `.raw`), and a wrapper's that returns it. */
export function answersBody(call: Pick<V1Call, 'client' | 'via' | 'raw'>): boolean {
  return call.via ? call.via.returns === 'body' : call.client === 'ofetch' && !call.raw;
}

/** The expression to wrap, and what it answers; or why it cannot be. */
export function pagedExpression(call: Pick<V1Call, 'call' | 'client' | 'via' | 'raw'>): { node: ts.Expression; kind: PageKind } | { why: string } {
  if (answersBody(call)) return { node: call.call, kind: 'body' };
  // An ofetch answers a response only through `.raw`.
  if (call.via) return { node: call.call, kind: call.client === 'axios' ? 'axios' : call.client === 'undici' ? 'undici' : call.client === 'ofetch' ? 'ofetch-raw' : 'response' };
  const chained = parsedInChain(call);
  switch (call.client) {
    case 'fetch':
      return { node: call.call, kind: 'response' };
    case 'undici':
      return { node: call.call, kind: 'undici' };
    case 'axios':
      return { node: call.call, kind: 'axios' };
    case 'ky':
      return chained ? { node: chained, kind: 'body' } : { node: call.call, kind: 'response' };
    case 'got':
      return chained ? { node: chained, kind: 'body' } : { node: call.call, kind: 'got' };
    case 'ofetch':
      return { node: call.call, kind: 'ofetch-raw' };
  }
}

