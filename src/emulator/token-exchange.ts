/**
 * The token exchange (v2 §4 "Token exchange", §5): a workload presents its OIDC token and names an
 * identity; when the token's issuer and subject match the identity's claimMatch it gets an API token
 * valid for one hour. Also the bearer check every API call goes through.
 */
import { randomBytes } from 'node:crypto';
import { AUTH, resourceOf } from '../contract/index.js';
import { ApiError, invalidField, methodNotOffered, notFound, unauthenticated } from './api-error.js';
import type { DevOidcIssuer } from './oidc-issuer.js';
import { checkUid, readQuery } from './query-params.js';
import type { Store } from './store.js';

export interface ExchangeRequest {
  method: string;
  search: URLSearchParams;
  contentType: string | undefined;
  body: string;
  authorization: string | undefined;
  /** The API base URL the emulator is configured with (never the request's Host): the only audience accepted. */
  baseUrl: string;
}

export function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

export class TokenExchange {
  private readonly issued = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly issuer: DevOidcIssuer,
    private readonly staticToken: string,
    private readonly now: () => number,
    private readonly lifetimeMs = AUTH.exchange.tokenLifetimeSeconds * 1000,
  ) {}

  /** How many exchanged tokens it holds. */
  get held(): number {
    return this.issued.size;
  }

  /** Throws UNAUTHENTICATED unless the header carries the static token or an unexpired exchanged one. */
  authenticate(authorization: string | undefined): void {
    const token = bearerOf(authorization);
    if (!token) throw unauthenticated('missing bearer token');
    if (token === this.staticToken) return;
    const expiry = this.issued.get(token);
    if (expiry === undefined) throw unauthenticated('bearer token is not valid');
    if (expiry <= this.now()) {
      this.issued.delete(token);
      throw unauthenticated('bearer token has expired');
    }
  }

  async exchange(req: ExchangeRequest): Promise<{ token: string; expiry: string }> {
    const params = this.params(req);
    const oidcToken = bearerOf(req.authorization);
    if (!oidcToken) throw unauthenticated('missing OIDC token in the Authorization header');
    const audience = params.get('aud');
    if (!audience) throw invalidField('aud', 'is required: the API base URL');
    if (audience.replace(/\/+$/, '') !== req.baseUrl) throw invalidField('aud', `must be the API base URL ${req.baseUrl}`);
    const identityUid = checkUid('identity', params.get('identity') ?? '');
    let claims: { issuer: string; subject: string };
    try {
      claims = await this.issuer.verify(oidcToken, req.baseUrl);
    } catch (error) {
      throw unauthenticated(`OIDC token refused: ${(error as Error).message}`);
    }
    const identity = this.store.get('Identity', identityUid);
    if (!identity) throw notFound(`${resourceOf('Identity').singular} ${identityUid}`);
    const claim = identity['claimMatch'] as { issuer?: string; subject?: string } | undefined;
    if (claim?.issuer !== claims.issuer || claim?.subject !== claims.subject) {
      throw new ApiError('PERMISSION_DENIED', `identity ${identityUid} cannot be assumed with this token: issuer and subject do not match its claimMatch`);
    }
    const token = `emu_${randomBytes(24).toString('base64url')}`;
    const expiry = this.now() + this.lifetimeMs;
    this.sweep();
    this.issued.set(token, expiry);
    return { token, expiry: new Date(expiry).toISOString() };
  }

  /**
   * Drops expired tokens where the map grows, so it holds about an hour of exchanges and no timer
   * keeps the process alive. Tokens share one lifetime and the map keeps insertion order, so the
   * expired ones are at its front: the sweep stops at the first live one.
   */
  private sweep(): void {
    const now = this.now();
    for (const [token, expiry] of this.issued) {
      if (expiry > now) return;
      this.issued.delete(token);
    }
  }

  private params(req: ExchangeRequest): URLSearchParams {
    if (!(AUTH.exchange.methods as readonly string[]).includes(req.method)) {
      throw methodNotOffered(req.method, AUTH.exchange.path, AUTH.exchange.methods);
    }
    const allowed = [AUTH.exchange.query.audience, AUTH.exchange.query.identity];
    const merged = new URLSearchParams(req.search);
    if (req.method === 'POST') {
      if (req.body !== '' && !(req.contentType ?? '').startsWith('application/x-www-form-urlencoded')) {
        throw invalidField('body', 'must be application/x-www-form-urlencoded');
      }
      for (const [k, v] of new URLSearchParams(req.body)) merged.append(k, v);
    }
    readQuery(merged, allowed);
    return merged;
  }
}
