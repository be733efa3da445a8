/**
 * Opaque page tokens: the position after the last row of a page (sort key and uid, so pages keep
 * their order even while the collection changes), a fingerprint of the query that made it, and when
 * it was issued. Signed, so a token that was altered or made up is told apart from an expired one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidField } from './api-error.js';
import type { SortKey } from './list-query.js';

interface TokenBody {
  f: string;
  k: SortKey;
  u: string;
  t: number;
  /** Issue number: two tokens for the same position are still two tokens, as from a real server. */
  n: number;
}

export type TokenReading = { kind: 'position'; position: [SortKey, string] } | { kind: 'expired' };

export class PageTokens {
  private readonly secret = randomBytes(32);
  private issued = 0;

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 16);
  }

  issue(fingerprint: string, position: [SortKey, string]): string {
    const body: TokenBody = { f: fingerprint, k: position[0], u: position[1], t: this.now(), n: ++this.issued };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload).toString('base64url')}`;
  }

  read(token: string, fingerprint: string): TokenReading {
    const [payload, signature, extra] = token.split('.');
    const given = Buffer.from(signature ?? '', 'base64url');
    if (!payload || extra !== undefined || given.length !== 16 || !timingSafeEqual(given, this.sign(payload))) {
      throw invalidField('page_token', 'page token is not valid');
    }
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenBody;
    if (body.f !== fingerprint) {
      throw invalidField('page_token', 'page token was issued for a different query (only page_size may change between pages)');
    }
    if (this.now() - body.t > this.lifetimeMs) return { kind: 'expired' };
    return { kind: 'position', position: [body.k, body.u] };
  }
}
