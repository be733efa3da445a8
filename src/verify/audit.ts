/**
 * The audit: for each kind both versions list, read v1 and walk v2 at the same time, pair records by
 * v1 `id` = v2 `uid`, compare them, and classify what differs. Records created or changed while the
 * walk ran are read again once before anything is reported against them.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { fillTemplate, LIST_PARAMS, parseTimestamp, readOneQuery, type FieldRule, type ResourceContract } from '../contract/index.js';
import { combineKind, emptySummary } from './combine.js';
import { compareRecords, comparedFields, oneSidedFields, recordsAgree, recordTimes, type RecordComparison } from './compare.js';
import type { Finding } from './findings.js';
import { ApiCallError, type ApiClient } from './http-client.js';
import { partFilters, wholeKinds, type AuditPart } from './parts.js';
import { Breaches, readV1, recordsOf, walkV2, type Json } from './walk.js';

export interface AuditOptions {
  client: ApiClient;
  resources: readonly ResourceContract[];
  /** Audit only the descendants of this group. */
  scope?: string;
  /** The parts to audit (a shard's); by default every kind whole, within the scope. */
  parts?: readonly AuditPart[];
  pageSize: number;
  maxPages: number;
  now?: () => number;
  onProgress?: (progress: AuditProgress) => void;
  /**
   * Called once a kind's v1 list of LARGE_V1_LIST records or more has been read and indexed. The
   * embedded audit collects garbage there: its emulator shares the heap, and the answer's text
   * (tens of MB, on both ends of the connection) is garbage by then, which V8 would otherwise carry
   * into the next large answer (peak RSS of the embedded audit of 100,000 groups and repos, median
   * of 5: 389 -> 374 MiB, for 0.25 s more). An audit of a server leaves it: there the time counts.
   */
  afterLargeV1?: () => void;
}

/** A v1 list this long answers tens of MB at once. */
export const LARGE_V1_LIST = 10_000;

export interface AuditProgress {
  compared: number;
  pages: number;
}

export interface KindSummary {
  kind: string;
  compared: number;
  equal: number;
  expected: number;
  differences: number;
  missingInV1: number;
  missingInV2: number;
  breaches: number;
  changedDuringWalk: number;
  incomplete: boolean;
  pages: number;
  /** v2 pages with no results and a token to go on (allowed before the end). */
  emptyPages: number;
}

export interface AuditResult {
  summaries: KindSummary[];
  findings: Finding[];
  pages: number;
  emptyPages: number;
  startedAt: string;
  finishedAt: string;
}

class KindAudit {
  readonly findings: Finding[] = [];
  readonly summary: KindSummary;
  /**
   * v1's records, and each one's place among them by uid. A paired record is marked by its place, so
   * the one index also answers whether the walk met a uid before: one index of 100,000 uids, not two,
   * and one hash lookup per v2 record.
   */
  private v1Records: readonly Json[] = [];
  private readonly v1Places = new Map<string, number>();
  private paired = new Uint8Array(0);
  private readonly onlyInV2 = new Map<string, Json>();
  private readonly uidBreaches: Breaches;
  private readonly pending: Json[][] = [];
  private v1Ready = false;
  /** Records whose field differed only in form, by the field's place in `compared`. */
  private readonly normalisedByField: number[];
  private readonly unknownKeys = new Map<string, number>();
  private readonly suspects: { uid: string; v1?: Json; v2?: Json; comparison?: RecordComparison }[] = [];

  private readonly resource: ResourceContract;
  private readonly compared: readonly FieldRule[];

  constructor(
    readonly part: AuditPart,
    private readonly o: AuditOptions,
    private readonly windowStartMicros: number,
    private readonly progress: AuditProgress,
    private readonly v1Turn: LimitFunction,
  ) {
    this.resource = part.resource;
    this.compared = comparedFields(part.resource);
    this.normalisedByField = this.compared.map(() => 0);
    this.summary = emptySummary(part.resource.kind);
    this.uidBreaches = new Breaches(part.resource);
  }

  async run(): Promise<void> {
    const v1 = this.v1Turn(() => readV1(this.o.client, this.resource.v1.endpoints.list!, partFilters(this.part, 'v1'), this.o.maxPages))
      .then((items) => {
        this.v1Records = items;
        this.paired = new Uint8Array(items.length);
        for (let i = 0; i < items.length; i++) this.v1Places.set(String(items[i]!['id']), i);
        if (items.length >= LARGE_V1_LIST) this.o.afterLargeV1?.();
      })
      .finally(() => {
        // Without v1 (it failed) the pages are still read, against an empty index, for v2's uid rules.
        this.v1Ready = true;
        for (const page of this.pending.splice(0)) this.comparePage(page);
      });
    const v2 = walkV2({
      client: this.o.client,
      resource: this.resource,
      filters: partFilters(this.part, 'v2'),
      pageSize: this.o.pageSize,
      maxPages: this.o.maxPages,
      onPage: (items) => {
        this.progress.pages += 1;
        this.summary.pages += 1;
        if (this.v1Ready) this.comparePage(items);
        else this.pending.push(items);
      },
    });
    const [v1Outcome, v2Outcome] = await Promise.allSettled([v1, v2]);
    for (const outcome of [v1Outcome, v2Outcome]) {
      if (outcome.status === 'rejected') this.incomplete(outcome.reason);
    }
    if (v2Outcome.status === 'fulfilled' && !v2Outcome.value.stopped) {
      this.uidBreaches.checkTotalCount(v2Outcome.value.totalCount, this.summary.compared + this.onlyInV2.size);
    }
    const breaches = [...(v2Outcome.status === 'fulfilled' ? v2Outcome.value.breaches : []), ...this.uidBreaches.findings()];
    this.findings.push(...breaches);
    this.summary.breaches = breaches.length;
    if (v2Outcome.status === 'fulfilled') {
      this.summary.emptyPages = v2Outcome.value.emptyPages;
      // The breach says what v2 did; the kind is still not audited to the end, like any other kind left so.
      if (v2Outcome.value.stopped) this.incomplete(`v2 walk: ${v2Outcome.value.stopped}`);
    }
    if (this.summary.incomplete) return;
    for (const [uid, place] of this.v1Places) if (!this.paired[place]) this.suspects.push({ uid, v1: this.v1Records[place]! });
    for (const [uid, record] of this.onlyInV2) this.suspects.push({ uid, v2: record });
    await this.settleSuspects();
    this.reportAggregates();
  }

  private comparePage(items: Json[]): void {
    for (const v2 of items) {
      const uid = String(v2['uid']);
      const place = this.v1Places.get(uid);
      if (place === undefined ? this.onlyInV2.has(uid) : this.paired[place]) {
        this.uidBreaches.duplicateUid(uid);
        continue;
      }
      if (place === undefined) {
        this.onlyInV2.set(uid, v2);
        continue;
      }
      this.paired[place] = 1;
      this.summary.compared += 1;
      this.progress.compared += 1;
      const v1 = this.v1Records[place]!;
      const agreed = recordsAgree(this.resource, v1, v2);
      if (agreed >= 0) {
        this.summary.equal += 1;
        for (let i = 0; agreed >> i; i++) if ((agreed >> i) & 1) this.normalisedByField[i]! += 1;
        continue;
      }
      const comparison = compareRecords(this.resource, v1, v2);
      for (const f of comparison.normalised) this.normalisedByField[this.compared.indexOf(f)]! += 1;
      for (const key of comparison.unknownKeys.v1) this.unknownKeys.set(`v1 ${key}`, (this.unknownKeys.get(`v1 ${key}`) ?? 0) + 1);
      for (const key of comparison.unknownKeys.v2) this.unknownKeys.set(`v2 ${key}`, (this.unknownKeys.get(`v2 ${key}`) ?? 0) + 1);
      if (comparison.differences.length === 0) this.summary.equal += 1;
      else this.suspects.push({ uid, v1, v2, comparison });
    }
  }

  /** True when the record says it was made or changed after the walk began. */
  private changedInWindow(record: Json | undefined, version: 'v1' | 'v2'): boolean {
    if (!record) return false;
    return recordTimes(this.resource, record, version).some((t) => (parseTimestamp(t) ?? 0) >= this.windowStartMicros);
  }

  private async reRead(uid: string): Promise<{ v1?: Json; v2?: Json }> {
    const v1List = this.resource.v1.endpoints.list!;
    const v1 = recordsOf(await this.o.client.getJson(`${v1List.path}${readOneQuery(this.resource)}${encodeURIComponent(uid)}`), v1List, 'v1')[0];
    let v2: Json | undefined;
    const get = this.resource.v2.endpoints.get;
    if (get) {
      try {
        v2 = (await this.o.client.getJson(fillTemplate(get.path, uid))) as Json;
      } catch (error) {
        if (!(error instanceof ApiCallError && error.statusCode === 404)) throw error;
      }
    }
    return { ...(v1 ? { v1 } : {}), ...(v2 ? { v2 } : {}) };
  }

  private async settleSuspects(): Promise<void> {
    for (const suspect of this.suspects) {
      let { v1, v2, comparison } = suspect;
      if (this.changedInWindow(v1, 'v1') || this.changedInWindow(v2, 'v2')) {
        try {
          ({ v1, v2 } = await this.reRead(suspect.uid));
        } catch (error) {
          this.incomplete(error);
          return;
        }
        comparison = v1 && v2 ? compareRecords(this.resource, v1, v2) : undefined;
        if (v1 && v2 && comparison!.differences.length === 0) {
          this.summary.changedDuringWalk += 1;
          this.findings.push({ kind: 'changed-during-walk', resource: this.resource.kind, uid: suspect.uid, message: 'changed while the walk ran; equal when read again' });
          continue;
        }
      }
      this.classify(suspect.uid, v1, v2, comparison);
    }
  }

  private classify(uid: string, v1: Json | undefined, v2: Json | undefined, comparison: RecordComparison | undefined): void {
    const kind = this.resource.kind;
    if (v1 && !v2) {
      this.summary.missingInV2 += 1;
      this.findings.push({ kind: 'missing-in-v2', resource: kind, uid, message: `v1 lists ${this.resource.singular} ${uid}; v2 does not` });
    } else if (v2 && !v1) {
      this.summary.missingInV1 += 1;
      this.findings.push({ kind: 'missing-in-v1', resource: kind, uid, message: `v2 lists ${this.resource.singular} ${uid}; v1 does not` });
    } else if (comparison) {
      this.summary.differences += 1;
      for (const d of comparison.differences) {
        this.findings.push({ kind: 'field-differs', resource: kind, uid, path: d.path, v1: d.v1, v2: d.v2, message: `${d.path} differs`, rule: { status: d.field.status, source: d.field.source } });
      }
    }
  }

  private reportAggregates(): void {
    const kind = this.resource.kind;
    if (this.summary.compared === 0) return;
    for (const field of oneSidedFields(this.resource)) {
      const shownBy = field.v1 ? `v1 shows ${field.v1}` : `v2 shows ${field.v2}`;
      this.findings.push({ kind: 'expected-difference', resource: kind, path: `$.${field.v2 ?? field.v1}`, count: this.summary.compared, message: `${shownBy}; the other version does not`, rule: { status: field.status, source: field.source } });
    }
    for (const [place, field] of this.compared.entries()) {
      const count = this.normalisedByField[place]!;
      if (count === 0) continue;
      this.findings.push({ kind: 'expected-difference', resource: kind, path: `$.${field.v2}`, count, message: `equal once normalised (${field.normalise}): a change of form only`, rule: { status: field.status, source: field.source } });
    }
    for (const [key, count] of this.unknownKeys) {
      this.findings.push({ kind: 'not-in-contract', resource: kind, path: `$.${key.slice(3)}`, count, message: `${key.slice(0, 2)} shows a field the contract does not name; not compared` });
    }
    this.summary.expected = this.findings.filter((f) => f.kind === 'expected-difference').length;
  }

  /** A call failed for good (after its retries): the kind is reported incomplete, never equal. */
  private incomplete(reason: unknown): void {
    if (this.summary.incomplete) return;
    this.summary.incomplete = true;
    const message = reason instanceof Error ? reason.message : String(reason);
    this.findings.push({ kind: 'incomplete', resource: this.resource.kind, message: `not audited to the end: ${message}` });
  }
}

export async function runAudit(o: AuditOptions): Promise<AuditResult> {
  const now = o.now ?? Date.now;
  const startedAt = new Date(now()).toISOString();
  // A second of slack: the server's clock and ours need not agree to the millisecond.
  const windowStartMicros = (now() - 1000) * 1000;
  const progress: AuditProgress = { compared: 0, pages: 0 };
  const timer = o.onProgress ? setInterval(() => o.onProgress!(progress), 200) : undefined;
  try {
    // v1 answers a kind's whole list at once (tens of MB at 100,000 records): read one kind's list at a
    // time, so the audit holds one such answer in flight, not one per kind. The walks of v2 go on meanwhile.
    const v1Turn = pLimit(1);
    const audits = (o.parts ?? wholeKinds(o.resources, o.scope)).map((p) => new KindAudit(p, o, windowStartMicros, progress, v1Turn));
    await Promise.all(audits.map((a) => a.run()));
    const kinds = o.resources.map((r) => combineKind(r.kind, audits.filter((a) => a.part.resource === r)));
    return {
      summaries: kinds.map((k) => k.summary),
      findings: kinds.flatMap((k) => k.findings),
      pages: progress.pages,
      emptyPages: kinds.reduce((n, k) => n + k.summary.emptyPages, 0),
      startedAt,
      finishedAt: new Date(now()).toISOString(),
    };
  } finally {
    if (timer) clearInterval(timer);
    o.onProgress?.(progress);
  }
}
