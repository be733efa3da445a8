/**
 * The emulator's core: a function from request to reply over one store. It knows nothing of
 * sockets; node-server.ts carries requests in and replies (and the socket faults they ask for) out.
 */
import {
  apiPathPrefixes,
  AUTH,
  ERROR_MODEL,
  GRPC_CODES,
  LIST_CONTRACT,
  SUCCESS_STATUS,
  type ApiVersion,
} from '../contract/index.js';
import { ApiError, methodNotAllowed, methodNotOffered } from './api-error.js';
import { loadDataset } from './datasets.js';
import { Drift, NO_DRIFT, planDrift, type DriftSpec } from './drift.js';
import { FaultInjector, NO_FAULTS, type FaultDecision, type FaultSpec } from './faults.js';
import { QueryEngine } from './list-query.js';
import { DevOidcIssuer, DEV_OIDC_ISSUER } from './oidc-issuer.js';
import { PageTokens } from './page-token.js';
import { readNonNegativeInt, readQuery } from './query-params.js';
import { RenderCache } from './render-cache.js';
import type { RequestLogSink } from './request-log.js';
import { create, get, list, patch, remove, replace, type HandlerContext } from './resource-handlers.js';
import { Router, type Route } from './router.js';
import type { Store } from './store.js';
import { TokenExchange } from './token-exchange.js';

export const DEFAULT_API_TOKEN = 'emulator-dev-token';

export interface EmulatorOptions {
  /** `demo`, `large:N` or a dataset file; ignored when `store` is given. */
  dataset?: string;
  store?: Store;
  /** The static bearer token every API call may use. */
  token?: string;
  disable?: readonly ApiVersion[];
  pageTokenTtlSeconds?: number;
  faults?: FaultSpec;
  drift?: DriftSpec;
  requestLog?: RequestLogSink;
  /** Milliseconds since the epoch; tests move time with it. */
  now?: () => number;
  serviceDomain?: string;
  seed?: number;
  /**
   * Keep each record's rendering until it changes (the default). Off for a single pass over the
   * store, as in the embedded audit: every record read once per version, so nothing to gain, and a
   * copy of the store to hold.
   */
  cacheRenderings?: boolean;
}

export interface EmulatorRequest {
  method: string;
  /** Path and query, as on the request line. */
  url: string;
  headers: { authorization?: string; 'content-type'?: string };
  body: string;
  /**
   * The API base URL the server is configured to answer as (its public URL, or the address it listens
   * on): the token audience and the address of the OIDC keys. Never taken from the Host header, which
   * the caller writes.
   */
  baseUrl: string;
}

export interface EmulatorReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Asks the transport to reset the connection, or to cut the body short. */
  fault?: 'reset' | 'truncate';
  delayMs?: number;
}

const API_PREFIXES = apiPathPrefixes();
/** The emulator's own endpoints, outside the platform's API; each offers GET only. */
const OWN_ENDPOINTS = ['/healthz', '/.well-known/openid-configuration', '/oidc/jwks', '/oidc/mint'];

function json(status: number, body: unknown, headers: Record<string, string> = {}): EmulatorReply {
  return jsonText(status, JSON.stringify(body), headers);
}

function jsonText(status: number, text: string, headers: Record<string, string> = {}): EmulatorReply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: text };
}

export class Emulator {
  readonly drift: Drift;
  private readonly router: Router;
  private readonly ctx: HandlerContext;
  private readonly faults: FaultInjector;
  readonly exchange: TokenExchange;
  private readonly now: () => number;

  private constructor(
    readonly store: Store,
    readonly oidc: DevOidcIssuer,
    private readonly options: EmulatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.drift = new Drift(options.drift ? planDrift(options.drift, store) : NO_DRIFT);
    this.router = new Router(options.disable ?? []);
    const ttlMs = (options.pageTokenTtlSeconds ?? LIST_CONTRACT.pageToken.lifetimeSeconds) * 1000;
    this.ctx = {
      store,
      queries: new QueryEngine(store, (kind, view) => this.drift.hidden(kind, view as ApiVersion)),
      tokens: new PageTokens(ttlMs, this.now),
      drift: this.drift,
      renderings: new RenderCache(store, (kind, uid, json) => this.drift.alter(kind, uid, json), options.cacheRenderings ?? true),
      now: this.now,
    };
    this.faults = new FaultInjector(options.faults ?? NO_FAULTS);
    this.exchange = new TokenExchange(store, oidc, options.token ?? DEFAULT_API_TOKEN, this.now);
  }

  static async create(options: EmulatorOptions = {}): Promise<Emulator> {
    const store = options.store ?? loadDataset(options.dataset ?? 'demo', options.seed);
    const now = options.now ?? Date.now;
    return new Emulator(store, await DevOidcIssuer.create(now), options);
  }

  get oidcIssuer(): string {
    return DEV_OIDC_ISSUER;
  }

  async handle(req: EmulatorRequest): Promise<EmulatorReply> {
    let url: URL;
    try {
      // Concatenated, not resolved: a request path such as //x is a path, not another host.
      url = new URL(`http://emulator.invalid${req.url.startsWith('/') ? '' : '/'}${req.url}`);
    } catch {
      return this.errorReply(new ApiError('INVALID_ARGUMENT', 'request: the request target is not a valid path'));
    }
    let reply: EmulatorReply;
    let domain = 'iam';
    let fault: FaultDecision | undefined;
    try {
      if (API_PREFIXES.some((p) => url.pathname.startsWith(p))) {
        this.exchange.authenticate(req.headers.authorization);
        const routed = this.route(req.method, url.pathname);
        domain = routed.resource.domain;
        fault = this.faults.decide();
        reply = this.injected(fault) ?? this.api(routed, req, url, fault);
      } else {
        reply = await this.service(req, url);
      }
    } catch (error) {
      reply = this.errorReply(error, domain);
    }
    if (fault && fault.kind === 'truncate') reply.fault = 'truncate';
    if (fault && fault.delayMs > 0) reply.delayMs = fault.delayMs;
    this.options.requestLog?.({
      time: new Date(this.now()).toISOString(),
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: reply.status,
      ...(reply.fault ? { fault: reply.fault } : {}),
    });
    return reply;
  }

  /** The reply for an error thrown while handling; anything but an ApiError is a bug, shown as 500. */
  errorReply(error: unknown, domain = 'iam'): EmulatorReply {
    if (error instanceof ApiError) {
      return json(error.httpStatus, error.body(`${domain}.${this.options.serviceDomain ?? ERROR_MODEL.serviceDomain.default}`), error.httpHeaders);
    }
    process.stderr.write(`emulator: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return json(500, { code: GRPC_CODES.INTERNAL.code, message: 'Internal error', details: [] });
  }

  private route(method: string, path: string): Route {
    const result = this.router.match(method, path);
    if (result.kind === 'found') return result.route;
    if (result.kind === 'method-not-allowed') throw methodNotOffered(method, path, result.allowed);
    throw new ApiError('NOT_FOUND', `no endpoint ${method} ${path}`);
  }

  private injected(fault: FaultDecision): EmulatorReply | undefined {
    switch (fault.kind) {
      case 'reset':
        return { status: 0, headers: {}, body: '', fault: 'reset' };
      case 'server-error':
        return this.errorReply(new ApiError('UNAVAILABLE', 'injected fault: service unavailable'));
      case 'too-many-requests': {
        const reply = this.errorReply(new ApiError('RESOURCE_EXHAUSTED', 'injected fault: too many requests'));
        reply.headers['retry-after'] = String(this.faults.spec.retryAfterSeconds);
        return reply;
      }
      default:
        return undefined;
    }
  }

  private api(route: Route, req: EmulatorRequest, url: URL, fault: FaultDecision): EmulatorReply {
    const { resource, version, value = '' } = route;
    const search = url.searchParams;
    const ok = SUCCESS_STATUS.http;
    switch (route.operation) {
      case 'list':
        return jsonText(ok, list(this.ctx, resource, version, search, fault));
      case 'get':
        return jsonText(ok, get(this.ctx, resource, value, search));
      case 'create':
        return jsonText(ok, create(this.ctx, resource, version, value, req.body, search));
      case 'update':
        return jsonText(ok, version === 'v1' ? replace(this.ctx, resource, value, req.body, search) : patch(this.ctx, resource, value, req.body, search));
      case 'delete': {
        const body = remove(this.ctx, resource, version, value, search);
        return body === undefined ? { status: ok, headers: {}, body: '' } : json(ok, body);
      }
    }
  }

  /** Everything outside the API: health, the OIDC issuer, the token exchange. */
  private async service(req: EmulatorRequest, url: URL): Promise<EmulatorReply> {
    const baseUrl = req.baseUrl;
    if (OWN_ENDPOINTS.includes(url.pathname) && req.method !== 'GET') throw methodNotAllowed(req.method, url.pathname, ['GET']);
    switch (url.pathname) {
      case '/healthz':
        return json(200, { status: 'ok' });
      case '/.well-known/openid-configuration':
        return json(200, { issuer: DEV_OIDC_ISSUER, jwks_uri: `${baseUrl}/oidc/jwks`, id_token_signing_alg_values_supported: ['ES256'] });
      case '/oidc/jwks':
        return json(200, this.oidc.jwks());
      case '/oidc/mint': {
        const q = readQuery(url.searchParams, ['subject', 'audience', 'ttl']);
        const subject = q.get('subject');
        if (!subject) throw new ApiError('INVALID_ARGUMENT', 'subject: is required');
        const ttl = readNonNegativeInt(q, 'ttl');
        const audience = q.get('audience');
        const token = await this.oidc.mint({ subject, audience: audience || baseUrl, ...(ttl !== undefined ? { ttlSeconds: ttl } : {}) });
        return json(200, { token, issuer: DEV_OIDC_ISSUER });
      }
      case AUTH.exchange.path:
        return json(200, await this.exchange.exchange({
          method: req.method,
          search: url.searchParams,
          contentType: req.headers['content-type'],
          body: req.body,
          authorization: req.headers.authorization,
          baseUrl,
        }));
      default:
        throw new ApiError('NOT_FOUND', `no endpoint ${req.method} ${url.pathname}`);
    }
  }
}
