/**
 * The verifier's HTTP client: GET only, keep-alive connections, undici's retry interceptor (5xx,
 * 429 with Retry-After, resets, timeouts) with a capped, jittered backoff, and every request
 * through the audit's one concurrency limit.
 *
 * A body cut short after its headers is retried too: the whole-body interceptor below holds each
 * response until its last byte, so a cut reaches the retry handler as an error before any header
 * went downstream, and undici re-sends the request instead of asking for a byte range (which an
 * API does not serve). The same interceptor gives each attempt one deadline for its whole answer.
 */
import type { LimitFunction } from 'p-limit';
import { Agent, errors, interceptors, type Dispatcher } from 'undici';
import type { TokenSource } from './token-source.js';

export interface ClientStats {
  requests: number;
  retries: number;
}

export interface RetryPolicy {
  maxRetries: number;
  minDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, minDelayMs: 100, maxDelayMs: 5_000 };

const RETRY_STATUS = [429, 500, 502, 503, 504];
const RETRY_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_RETRY',
]);

/** An API call that failed for good: an error status after retries, or no answer at all. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly code: 'HTTP_STATUS' | 'CONNECTION' | 'BAD_BODY',
    readonly statusCode: number | undefined,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

/**
 * Holds a response until its body is complete, so that a cut body is an error, not a short page, and
 * gives the attempt one deadline for headers and body together: undici's own timeouts bound only the
 * wait for headers and each gap between chunks, so a server that drips a byte at a time would hold the
 * audit forever.
 */
class WholeBodyHandler implements Dispatcher.DispatchHandler {
  private held?: { statusCode: number; headers: Record<string, string | string[] | undefined>; statusMessage?: string | undefined; chunks: Buffer[] };
  private timer?: NodeJS.Timeout;
  private expired = false;

  constructor(
    private readonly next: Dispatcher.DispatchHandler,
    private readonly deadlineMs: number,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.timer = setTimeout(() => this.expire(controller), this.deadlineMs);
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    this.held = { statusCode, headers, statusMessage, chunks: [] };
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.held?.chunks.push(chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    clearTimeout(this.timer);
    if (this.expired) return;
    const held = this.held!;
    this.next.onResponseStart?.(controller, held.statusCode, held.headers, held.statusMessage);
    // Chunk by chunk, as they came: the body is read whole downstream, so joining them here would copy every byte once more.
    for (const chunk of held.chunks) this.next.onResponseData?.(controller, chunk);
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.timer);
    if (!this.expired) this.next.onResponseError?.(controller, error);
  }

  /**
   * The error goes downstream before the connection is aborted: the retry handler does not retry a
   * request whose controller was aborted (that is how a caller cancels), and a late answer is not one.
   * The abort then comes back through onResponseError, already answered.
   */
  private expire(controller: Dispatcher.DispatchController): void {
    this.expired = true;
    const text = `no complete answer within ${this.deadlineMs} ms`;
    const error = this.held ? new errors.BodyTimeoutError(text) : new errors.HeadersTimeoutError(text);
    this.next.onResponseError?.(controller, error);
    controller.abort(error);
  }
}

const wholeBody =
  (deadlineMs: number): Dispatcher.DispatcherComposeInterceptor =>
  (dispatch) =>
  (opts, handler) =>
    dispatch(opts, new WholeBodyHandler(handler, deadlineMs));

const BOM = 0xfeff;

/**
 * A GET's status and whole body as text. The whole-body interceptor has held the answer until its
 * last byte, so this last handler only keeps the chunks it is handed: no stream per response, as
 * undici's `request` would build for a body read whole anyway (a tenth of the audit's HTTP time at
 * 1,000 pages).
 */
function wholeAnswer(dispatcher: Dispatcher, url: string, headers: Record<string, string>): Promise<{ statusCode: number; text: string }> {
  const { origin, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    const chunks: Buffer[] = [];
    dispatcher.dispatch(
      { origin, path: `${pathname}${search}`, method: 'GET', headers },
      {
        // Its presence tells undici the handler speaks the controller API, not the legacy callbacks.
        onRequestStart: () => undefined,
        onResponseStart: (_controller, status) => {
          statusCode = status;
        },
        onResponseData: (_controller, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ statusCode, text: text.charCodeAt(0) === BOM ? text.slice(1) : text });
        },
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
}

/** Exponential backoff with full jitter, capped; Retry-After wins when the server sends it. */
function retryDecision(policy: RetryPolicy, stats: ClientStats, attempts: WeakMap<Error, number>) {
  return (
    err: Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[] | undefined> },
    { state }: { state: { counter: number } },
    done: (result?: Error | null) => void,
  ): void => {
    const retryable = err.statusCode !== undefined ? RETRY_STATUS.includes(err.statusCode) : RETRY_ERRORS.has(err.code ?? '');
    if (!retryable || state.counter > policy.maxRetries) {
      // The counter is this request's own; the audit's stats count every request's retries together.
      attempts.set(err, state.counter);
      done(err);
      return;
    }
    const retryAfter = Number(err.headers?.['retry-after']);
    const backoff = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (state.counter - 1));
    const delay = Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter * 1000, policy.maxDelayMs) : Math.random() * backoff;
    stats.retries += 1;
    setTimeout(() => done(null), delay);
  };
}

export interface ApiClientOptions {
  baseUrl: string;
  tokens: TokenSource;
  limit: LimitFunction;
  timeoutMs: number;
  retry?: RetryPolicy;
  connections?: number;
}

export class ApiClient {
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  /** How many attempts a request made before its error was final, by that error. */
  private readonly attempts = new WeakMap<Error, number>();
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: ApiClientOptions) {
    this.agent = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 10_000,
      // Off: the whole-body deadline is the one clock of an attempt.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const policy = options.retry ?? DEFAULT_RETRY;
    this.dispatcher = this.agent.compose(
      wholeBody(options.timeoutMs),
      interceptors.retry({ methods: ['GET'], maxRetries: policy.maxRetries, retry: retryDecision(policy, this.stats, this.attempts) as never }),
    );
  }

  /** GET a path (with its query) of the API and parse the JSON answer. */
  getJson(pathAndQuery: string): Promise<unknown> {
    return this.options.limit(async () => {
      this.stats.requests += 1;
      const token = await this.options.tokens.token();
      let text: string;
      let statusCode: number;
      try {
        ({ statusCode, text } = await wholeAnswer(this.dispatcher, `${this.options.baseUrl}${pathAndQuery}`, { authorization: `Bearer ${token}`, accept: 'application/json' }));
      } catch (error) {
        throw this.gaveUp(pathAndQuery, error as Error & { statusCode?: number; code?: string });
      }
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        throw new ApiCallError(`GET ${pathAndQuery.split('?')[0]} answered a body that is not JSON`, 'BAD_BODY', statusCode);
      }
      if (statusCode >= 400) {
        const message = (body as { message?: string } | undefined)?.message ?? '';
        throw new ApiCallError(`GET ${pathAndQuery.split('?')[0]} answered ${statusCode}${message ? `: ${message}` : ''}`, 'HTTP_STATUS', statusCode, body);
      }
      return body;
    });
  }

  /** The error of a request the retry handler gave up on, with the attempts that request made. */
  private gaveUp(pathAndQuery: string, e: Error & { statusCode?: number; code?: string }): ApiCallError {
    const path = pathAndQuery.split('?')[0];
    const count = this.attempts.get(e) ?? 1;
    const attempts = `${count} attempt${count === 1 ? '' : 's'}`;
    if (e.statusCode !== undefined) return new ApiCallError(`GET ${path} answered ${e.statusCode} after ${attempts}`, 'HTTP_STATUS', e.statusCode);
    return new ApiCallError(`GET ${path} failed after ${attempts}: ${e.code ?? e.message}`, 'CONNECTION', undefined);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
