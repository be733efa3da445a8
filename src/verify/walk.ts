/**
 * Reads a kind from each version: v1's list (`{items}`, paginated only where the contract says), and
 * a walk of every v2 page that checks the list contract on the way (spec §2 envelope, §4 rules, §8).
 * Every page request carries the same parameters; only page_token changes.
 */
import { ENVELOPE, LIST_CONTRACT, LIST_PARAMS, type ApiVersion, type ListEndpoint, type ResourceContract } from '../contract/index.js';
import type { ApiClient } from './http-client.js';
import type { BreachType, Finding } from './findings.js';

export type Json = Record<string, unknown>;

function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The records of a list answer; a 200 that is not such a list makes the kind incomplete, never "parity holds". */
export function recordsOf(body: unknown, endpoint: ListEndpoint, version: ApiVersion): Json[] {
  const list = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Json)[endpoint.envelopeKey] : undefined;
  if (!Array.isArray(list) || list.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
    const seen = JSON.stringify(body)?.slice(0, 60) ?? String(body);
    throw new Error(`${version} ${endpoint.path} answered 200 without a list of records under "${endpoint.envelopeKey}" (got ${seen})`);
  }
  return list as Json[];
}

/** Every v1 record of a kind. v1 advisories page; the rest answer everything at once. */
export async function readV1(client: ApiClient, endpoint: ListEndpoint, filters: URLSearchParams, maxPages: number): Promise<Json[]> {
  const items: Json[] = [];
  let token = '';
  for (let page = 0; page < maxPages; page++) {
    const query = new URLSearchParams(filters);
    if (endpoint.paginated) query.set(LIST_PARAMS.pageSize, String(LIST_CONTRACT.pageSize.max));
    if (token) query.set(LIST_PARAMS.pageToken, token);
    const body = await client.getJson(withQuery(endpoint.path, query));
    // One record at a time: spreading a page into push() overflows the stack past ~125,000 records.
    for (const record of recordsOf(body, endpoint, 'v1')) items.push(record);
    token = endpoint.paginated ? String((body as Json)[ENVELOPE.nextPageToken] ?? '') : '';
    if (!token) return items;
  }
  throw new Error(`v1 list ${endpoint.path} went past ${maxPages} pages`);
}

export interface V2WalkResult {
  breaches: Finding[];
  /** The totalCount the last page gave, when the walk reached the end and the server gave one. */
  totalCount?: string;
  pages: number;
  /** Pages with no results and a token to go on: allowed before the end (AIP-158), so counted, not flagged. */
  emptyPages: number;
  /** Why the walk had to stop early (a cycle, an expired token, the page cap); absent when it reached the end. */
  stopped?: string;
}

/** The documented order the walk asks for and checks: creation time where v2 shows it, else name. */
export function walkOrder(resource: ResourceContract): { orderBy: string; field: string } {
  const shows = (name: string) => resource.fields.some((f) => f.v2 === name);
  const byCreation = LIST_CONTRACT.orderBy.fields.created_at;
  return shows(byCreation) ? { orderBy: 'created_at', field: byCreation } : { orderBy: 'name', field: LIST_CONTRACT.orderBy.fields.name };
}

/** The same promise, marked as handled: it is awaited after the page before it has been compared, which may throw first. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export interface V2WalkOptions {
  client: ApiClient;
  resource: ResourceContract;
  filters: URLSearchParams;
  pageSize: number;
  maxPages: number;
  onPage: (items: Json[]) => void;
}

/** The breaches of one kind's walk, one finding per type, counted. */
export class Breaches {
  private readonly byType = new Map<BreachType, Finding>();

  constructor(private readonly resource: ResourceContract) {}

  add(type: BreachType, message: string, extra: Partial<Finding> = {}): void {
    const seen = this.byType.get(type);
    if (seen) seen.count = (seen.count ?? 1) + 1;
    else this.byType.set(type, { kind: 'contract-breach', resource: this.resource.kind, breach: type, message, ...extra });
  }

  /** A uid met on an earlier page of the walk: the record is not compared again. */
  duplicateUid(uid: string): void {
    this.add('duplicate-uid', `uid ${uid} came back on more than one page`, { uid });
  }

  /** totalCount, where the server gives it, is the number of distinct uids the walk met. */
  checkTotalCount(totalCount: string | undefined, distinct: number): void {
    if (totalCount !== undefined && Number(totalCount) !== distinct) {
      this.add('total-count-mismatch', `totalCount says ${totalCount}, the walk found ${distinct}`, { v2: totalCount });
    }
  }

  findings(): Finding[] {
    return [...this.byType.values()];
  }
}

/**
 * Walks every page and checks the rules a page shows (envelope, order, tokens, skipped). The rules
 * on uids across pages (none twice, totalCount their number) are the caller's to check: it indexes
 * every record by uid anyway, and a second index of 100,000 uids here cost the audit a tenth of its
 * time.
 */
export async function walkV2(o: V2WalkOptions): Promise<V2WalkResult> {
  const endpoint = o.resource.v2.endpoints.list!;
  const order = walkOrder(o.resource);
  const query = new URLSearchParams(o.filters);
  query.set(LIST_PARAMS.pageSize, String(o.pageSize));
  query.set(LIST_PARAMS.orderBy, order.orderBy);
  const breaches = new Breaches(o.resource);

  const seenTokens = new Set<string>();
  let firstUid: string | undefined;
  let lastKey: string | undefined;
  let totalCount: string | undefined;
  let token = '';
  let pages = 0;
  let emptyPages = 0;
  const result = (): V2WalkResult => ({ breaches: breaches.findings(), pages, emptyPages });
  const stop = (type: BreachType, message: string): V2WalkResult => {
    breaches.add(type, message);
    return { ...result(), stopped: message };
  };
  const pagePath = (pageToken: string): string => {
    const pageQuery = new URLSearchParams(query);
    if (pageToken) pageQuery.set(LIST_PARAMS.pageToken, pageToken);
    return withQuery(endpoint.path, pageQuery);
  };
  let asked: Promise<unknown> | undefined;
  for (;;) {
    if (pages >= o.maxPages) {
      return stop('page-cap-reached', `stopped after ${o.maxPages} pages (--max-pages): the walk did not end`);
    }
    const answer = await (asked ?? o.client.getJson(pagePath(token)));
    const items = recordsOf(answer, endpoint, 'v2');
    const body = answer as Json;
    pages += 1;
    const next = String(body[ENVELOPE.nextPageToken] ?? '');
    totalCount = body[ENVELOPE.totalCount] === undefined ? totalCount : String(body[ENVELOPE.totalCount]);
    const skipped = body[ENVELOPE.skipped];
    if (skipped !== undefined && skipped !== 0) breaches.add('skipped-not-echoed', `skipped is ${JSON.stringify(skipped)} where no skip was asked (rule: skipped echoes skip)`);

    if (token && items.length > 0 && items[0]!['uid'] === firstUid) {
      return stop('expired-token-restart', 'a page token led back to the first page: it expired and the query restarted; the walk stopped rather than read everything twice');
    }
    if (pages === 1) firstUid = items[0]?.['uid'] as string | undefined;
    if (items.length === 0 && next) emptyPages += 1;
    // The next page is asked for before this one is checked and compared, so that the server works
    // while the audit does; only when the walk will go on to it (no cycle, under the page cap).
    asked = next && !seenTokens.has(next) && pages < o.maxPages ? settledLater(o.client.getJson(pagePath(next))) : undefined;

    const first = items[0]?.[order.field];
    // Equal keys are ties (their order is an assumption); only a strictly earlier key breaks the order.
    if (lastKey !== undefined && first !== undefined && String(first) < lastKey) {
      breaches.add('order-broken', `order_by=${order.orderBy}: a page starts before the previous page ended`, { uid: String(items[0]!['uid']), v1: lastKey, v2: String(first) });
    }
    if (items.length > 0) lastKey = items[items.length - 1]![order.field] === undefined ? lastKey : String(items[items.length - 1]![order.field]);
    o.onPage(items);
    if (!next) break;
    if (seenTokens.has(next)) {
      return stop('token-cycle', 'a nextPageToken came back that an earlier page had already given: the pages cycle');
    }
    seenTokens.add(next);
    token = next;
  }
  return { ...result(), ...(totalCount === undefined ? {} : { totalCount }) };
}
