/**
 * Where the verifier's bearer token comes from: a token given as it is, or a workload's OIDC token
 * exchanged at {auth_url}/sts/exchange (spec §4, §5) and exchanged again before its hour is up.
 * Tokens are registered as secrets, so output can be scrubbed of them.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { AUTH } from '../contract/index.js';
import { UsageError } from '../errors.js';

export interface TokenSource {
  token(): Promise<string>;
}

/** Every secret the process has seen; reports and messages pass through `scrub`. */
export class Secrets {
  private readonly values = new Set<string>();
  add(value: string): void {
    if (value.length >= 4) this.values.add(value);
  }
  scrub(text: string): string {
    let out = text;
    for (const value of this.values) out = out.split(value).join('***');
    return out;
  }
}

export class StaticToken implements TokenSource {
  constructor(
    private readonly value: string,
    secrets: Secrets,
  ) {
    secrets.add(value);
  }
  async token(): Promise<string> {
    return this.value;
  }
}

export interface ExchangeOptions {
  authUrl: string;
  baseUrl: string;
  identity: string;
  oidcTokenFile: string;
  secrets: Secrets;
  /** Exchange again when less than this is left (default: 5 minutes). */
  refreshMarginMs?: number;
  now?: () => number;
}

export class ExchangedToken implements TokenSource {
  private current?: { token: string; expiresAt: number };
  private pending?: Promise<string>;
  exchanges = 0;

  constructor(private readonly options: ExchangeOptions) {}

  async token(): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    const margin = this.options.refreshMarginMs ?? 5 * 60_000;
    if (this.current && this.current.expiresAt - margin > now) return this.current.token;
    this.pending ??= this.exchange().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async exchange(): Promise<string> {
    const { authUrl, baseUrl, identity, oidcTokenFile, secrets } = this.options;
    let oidc: string;
    try {
      // Read each time: workload OIDC tokens are rotated on disk.
      oidc = (await readFile(oidcTokenFile, 'utf8')).trim();
    } catch (error) {
      throw new UsageError(`--oidc-token-file ${oidcTokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    secrets.add(oidc);
    const query = new URLSearchParams({ [AUTH.exchange.query.audience]: baseUrl, [AUTH.exchange.query.identity]: identity });
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${authUrl}${AUTH.exchange.path}?${query}`, { headers: { authorization: `Bearer ${oidc}` } });
    } catch (error) {
      throw new UsageError(`token exchange at ${authUrl}${AUTH.exchange.path} failed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const body = (await res.body.json().catch(() => ({}))) as { token?: string; expiry?: string; message?: string };
    if (res.statusCode !== 200 || !body.token) {
      throw new UsageError(`token exchange refused (${res.statusCode})${body.message ? `: ${secrets.scrub(body.message)}` : ''}`);
    }
    secrets.add(body.token);
    const expiresAt = body.expiry ? Date.parse(body.expiry) : (this.options.now ?? Date.now)() + AUTH.exchange.tokenLifetimeSeconds * 1000;
    this.current = { token: body.token, expiresAt };
    this.exchanges += 1;
    return body.token;
  }
}
