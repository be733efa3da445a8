/**
 * The operations of both versions over the one store: list (v1 `{items}`, v2 paginated), v2 Get,
 * create under a parent, v1 full replace, v2 partial update, delete. Every check runs before the
 * first write, so a rejected request leaves the store as it was.
 */
import { createHash } from 'node:crypto';
import {
  ENVELOPE,
  ERROR_MODEL,
  LIST_CONTRACT,
  LIST_PARAMETERS,
  LIST_PARAMS,
  modelledResources,
  pluralWords,
  resourceOf,
  type ApiVersion,
  type FieldRule,
  type ResourceContract,
} from '../contract/index.js';
import { failedPrecondition, invalidField, notFound } from './api-error.js';
import type { Drift } from './drift.js';
import { indexAfter, sortKey, type ListFilters, type Ordering, type QueryEngine } from './list-query.js';
import type { PageTokens } from './page-token.js';
import { checkUid, readFilters, readNonNegativeInt, readOrdering, readPageSize, readQuery, type QueryValues } from './query-params.js';
import type { RenderCache } from './render-cache.js';
import { zeroValue, type Json } from './render.js';
import { clientName, parseJsonObject, readBody, readUpdateMask, settableFields } from './request-body.js';
import { storageKey, type Store, type StoredRecord } from './store.js';

export interface HandlerContext {
  readonly store: Store;
  readonly queries: QueryEngine;
  readonly tokens: PageTokens;
  readonly drift: Drift;
  readonly renderings: RenderCache;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** Per-request switches the fault injector sets. */
export interface RequestFaults {
  readonly emptyPage: boolean;
}

function nowMicros(ctx: HandlerContext): number {
  return ctx.now() * 1000;
}

/** JSON text, the record as `version` shows it: the rendering is cached until the record changes. */
function render(ctx: HandlerContext, resource: ResourceContract, record: StoredRecord, version: ApiVersion): string {
  return ctx.renderings.text(resource, record, version);
}

/** Records rendered and joined at a time in a list answer. */
const RECORDS_PER_PART = 256;

/**
 * A list answer's JSON text, put together from its records' texts: the text JSON.stringify gives for
 * the whole body (the envelope key first, then the other members in order). Records are rendered and
 * joined a few hundred at a time: a record's own text (when it is not cached) is then garbage before
 * the next part, where rendering all 100,000 of a v1 list first kept them all alive at once and
 * raised the embedded audit's peak memory by some 90 MB.
 */
function listText(key: string, rows: readonly StoredRecord[], text: (row: StoredRecord) => string, members: Json = {}): string {
  const parts = [`{${JSON.stringify(key)}:[`];
  for (let i = 0; i < rows.length; i += RECORDS_PER_PART) parts.push(`${i > 0 ? ',' : ''}${rows.slice(i, i + RECORDS_PER_PART).map(text).join(',')}`);
  parts.push(`]${Object.entries(members).map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`).join('')}}`);
  // One join: a template around a joined list would be a second copy of it, made when it is sent.
  return parts.join('');
}

function existing(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, uid: string): StoredRecord {
  checkUid(version === 'v1' ? 'id' : 'uid', uid);
  const record = ctx.store.get(resource.kind, uid);
  if (!record || ctx.drift.hidden(resource.kind, version)?.has(uid)) throw notFound(`${resource.singular} ${uid}`);
  return record;
}

// ---------------------------------------------------------------------------------------------
// Lists

interface Page {
  rows: StoredRecord[];
  nextPageToken: string;
  totalCount: number;
  skipped: number;
}

function queryFingerprint(resource: ResourceContract, version: ApiVersion, filters: ListFilters, ordering: Ordering): string {
  const text = JSON.stringify([resource.kind, version, filters, ordering]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

function readPage(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, q: QueryValues, faults: RequestFaults): Page {
  const filters = readFilters(q);
  const ordering = version === 'v2' ? readOrdering(q) : { field: LIST_CONTRACT.defaultOrder.field, desc: false };
  const pageSize = readPageSize(q);
  const skip = readNonNegativeInt(q, LIST_PARAMS.skip) ?? 0;
  const fingerprint = queryFingerprint(resource, version, filters, ordering);
  const token = q.get(LIST_PARAMS.pageToken);
  const reading = token ? ctx.tokens.read(token, fingerprint) : undefined;
  const rows = ctx.queries.run(resource.kind, version, filters, ordering);
  const continued = reading?.kind === 'position';
  const start = continued ? indexAfter(rows, reading.position, ordering) : skip;
  const positionOf = (row: StoredRecord): [string | number, string] => [sortKey(row, ordering.field), row.uid];

  if (faults.emptyPage && continued && start > 0 && start < rows.length) {
    return { rows: [], nextPageToken: ctx.tokens.issue(fingerprint, positionOf(rows[start - 1]!)), totalCount: rows.length, skipped: skip };
  }
  // Drift: a continued page repeats the previous page's last row in its first slot.
  const repeat = continued && start > 0 && ctx.drift.duplicatesAcrossPages;
  const end = Math.min(rows.length, start + pageSize - (repeat ? 1 : 0));
  const page = repeat ? [rows[start - 1]!, ...rows.slice(start, end)] : rows.slice(start, end);
  const last = page[page.length - 1];
  const more = last !== undefined && end < rows.length;
  const own = more ? ctx.tokens.issue(fingerprint, positionOf(last)) : '';
  return {
    rows: page,
    nextPageToken: ctx.drift.cycledToken(fingerprint, own, continued),
    totalCount: rows.length,
    skipped: skip,
  };
}

/** A list answer, as JSON text. */
export function list(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, search: URLSearchParams, faults: RequestFaults): string {
  const endpoint = resource[version].endpoints.list!;
  const paging = endpoint.paginated ? (version === 'v2' ? LIST_PARAMETERS : [LIST_PARAMS.pageSize, LIST_PARAMS.pageToken]) : [];
  const q = readQuery(search, [...endpoint.filters, ...paging]);
  if (!endpoint.paginated) {
    const rows = ctx.queries.run(resource.kind, version, readFilters(q), { field: LIST_CONTRACT.defaultOrder.field, desc: false });
    return listText(endpoint.envelopeKey, rows, (r) => render(ctx, resource, r, version));
  }
  const page = readPage(ctx, resource, version, q, faults);
  const members: Json = { [ENVELOPE.nextPageToken]: page.nextPageToken, [ENVELOPE.totalCount]: String(page.totalCount) };
  if (version === 'v2') members[ENVELOPE.skipped] = page.skipped;
  return listText(endpoint.envelopeKey, page.rows, (r) => render(ctx, resource, r, version), members);
}

/** v2 Get, as JSON text. */
export function get(ctx: HandlerContext, resource: ResourceContract, uid: string, search: URLSearchParams): string {
  readQuery(search, []);
  return render(ctx, resource, existing(ctx, resource, 'v2', uid), 'v2');
}

// ---------------------------------------------------------------------------------------------
// Writes

function validate(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, record: StoredRecord): void {
  for (const field of resource.fields) {
    const value = record[storageKey(field)];
    const name = clientName(field, version);
    if (field.pattern && !new RegExp(field.pattern).test(String(value ?? ''))) {
      throw invalidField(name, `${name} must match ${field.pattern}`);
    }
    if (field.required && field.type === 'claim-match') {
      const claim = value as { issuer?: string; subject?: string };
      if (!claim.issuer || !claim.subject) throw invalidField(name, `${name} needs a non-empty issuer and subject`);
    } else if (field.required && (value === '' || value === undefined)) {
      throw invalidField(name, `${name} is required`);
    }
    if (field.type === 'reference' && typeof value === 'string' && !ctx.store.get(field.reference!.target, value)) {
      throw notFound(`${resourceOf(field.reference!.target).singular} ${value}`);
    }
  }
}

function initialValue(field: FieldRule, parent: string, now: number): unknown {
  if (field.type === 'timestamp') return now;
  // An output-only reference is the parent (a binding's group); a written one the body left out is missing, and validation says so.
  if (field.type === 'reference') return field.access === 'output-only' ? parent : zeroValue(field);
  return zeroValue(field);
}

export function create(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, parent: string, bodyText: string, search: URLSearchParams): string {
  readQuery(search, []);
  checkUid('parent', parent);
  const parentKind = resource.parent!;
  if (!ctx.store.get(parentKind, parent)) throw notFound(`${resourceOf(parentKind).singular} ${parent}`);
  const { values } = readBody(resource, version, parseJsonObject(bodyText));
  // One instant for the whole record: a clock read per field could put its times a millisecond apart.
  const now = nowMicros(ctx);
  const record: StoredRecord = { uid: '', createTime: now, updateTime: now };
  for (const field of resource.fields) {
    const key = storageKey(field);
    if (key === 'uid') continue;
    record[key] = values.has(key) ? values.get(key) : initialValue(field, parent, now);
  }
  validate(ctx, resource, version, record);
  record.uid = ctx.store.newUid(parent);
  ctx.store.put(resource.kind, record);
  return render(ctx, resource, record, version);
}

function refuseImmutableChange(resource: ResourceContract, version: ApiVersion, before: StoredRecord, values: Map<string, unknown>): void {
  for (const field of settableFields(resource, version)) {
    const key = storageKey(field);
    if (field.access === 'immutable' && values.has(key) && JSON.stringify(values.get(key)) !== JSON.stringify(before[key])) {
      throw invalidField(clientName(field, version), 'cannot change after creation');
    }
  }
}

/** v1 PUT: the body is the whole resource; a mutable field it omits is reset to its zero value. */
export function replace(ctx: HandlerContext, resource: ResourceContract, uid: string, bodyText: string, search: URLSearchParams): string {
  readQuery(search, []);
  const before = existing(ctx, resource, 'v1', uid);
  const { values } = readBody(resource, 'v1', parseJsonObject(bodyText));
  refuseImmutableChange(resource, 'v1', before, values);
  const after: StoredRecord = { ...before, updateTime: nowMicros(ctx) };
  for (const field of settableFields(resource, 'v1')) {
    if (field.access !== 'mutable') continue;
    const key = storageKey(field);
    after[key] = values.has(key) ? values.get(key) : zeroValue(field);
  }
  validate(ctx, resource, 'v1', after);
  ctx.store.put(resource.kind, after);
  return render(ctx, resource, after, 'v1');
}

/** v2 PATCH (v2 §4 "Partial update"): the mask, or else the body's keys, say what changes. */
export function patch(ctx: HandlerContext, resource: ResourceContract, uid: string, bodyText: string, search: URLSearchParams): string {
  const q = readQuery(search, ['update_mask']);
  const before = existing(ctx, resource, 'v2', uid);
  const { values } = readBody(resource, 'v2', parseJsonObject(bodyText));
  const mask = q.get('update_mask');
  let fields: FieldRule[];
  if (mask !== undefined) {
    fields = readUpdateMask(resource, mask);
  } else {
    refuseImmutableChange(resource, 'v2', before, values);
    fields = settableFields(resource, 'v2').filter((f) => f.access === 'mutable' && values.has(storageKey(f)));
  }
  const after: StoredRecord = { ...before, updateTime: nowMicros(ctx) };
  for (const field of fields) {
    const key = storageKey(field);
    after[key] = values.has(key) ? values.get(key) : zeroValue(field);
  }
  validate(ctx, resource, 'v2', after);
  ctx.store.put(resource.kind, after);
  return render(ctx, resource, after, 'v2');
}

function refuseDeleteOfNonEmpty(ctx: HandlerContext, resource: ResourceContract, uid: string): void {
  const childKind = ctx.store.kindWithDescendants(uid, modelledResources().map((r) => r.kind));
  if (childKind) {
    const children = pluralWords(resourceOf(childKind));
    throw failedPrecondition(
      `cannot delete ${resource.singular} with child ${children}`,
      ERROR_MODEL.nonEmptyGroupViolationType,
      `${resource.singular} ${uid} still has child ${children}; delete them first`,
    );
  }
}

function refuseDeleteOfReferenced(ctx: HandlerContext, resource: ResourceContract, uid: string): void {
  for (const holder of modelledResources()) {
    for (const field of holder.fields) {
      if (field.reference?.target !== resource.kind || field.access === 'output-only') continue;
      const key = storageKey(field);
      if (ctx.store.all(holder.kind).some((r) => r[key] === uid)) {
        throw failedPrecondition(
          `cannot delete ${resource.singular} still named by ${pluralWords(holder)}`,
          'RESOURCE_IN_USE',
          `delete the ${pluralWords(holder)} that name ${uid} first`,
        );
      }
    }
  }
}

/** Deletes one record; v1 answers `{}`, v2 an empty body (`undefined`). */
export function remove(ctx: HandlerContext, resource: ResourceContract, version: ApiVersion, uid: string, search: URLSearchParams): Json | undefined {
  readQuery(search, []);
  existing(ctx, resource, version, uid);
  refuseDeleteOfNonEmpty(ctx, resource, uid);
  refuseDeleteOfReferenced(ctx, resource, uid);
  ctx.store.remove(resource.kind, uid);
  return resource[version].deleteResponse?.body === 'empty' ? undefined : {};
}
