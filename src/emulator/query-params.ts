/**
 * Reads a query string the way grpc-gateway does: both spellings of a parameter (v1-reference
 * "List filters"), unknown parameters rejected, integers checked.
 */
import { IDENTIFIERS, LIST_CONTRACT, LIST_PARAMS, QUERY_ALIASES, type OrderField } from '../contract/index.js';
import { invalidField } from './api-error.js';
import type { ListFilters, Ordering } from './list-query.js';

const CANONICAL = new Map<string, string>(Object.entries(QUERY_ALIASES).map(([snake, camel]) => [camel, snake]));
const UID = new RegExp(IDENTIFIERS.uidPattern);

export type QueryValues = ReadonlyMap<string, string>;

/** Canonical (snake) name -> value, refusing names outside `allowed` and names given twice. */
export function readQuery(search: URLSearchParams, allowed: readonly string[]): QueryValues {
  const values = new Map<string, string>();
  for (const [rawName, value] of search) {
    const name = CANONICAL.get(rawName) ?? rawName;
    if (!allowed.includes(name)) throw invalidField(rawName, `unknown query parameter (accepted: ${allowed.join(', ') || 'none'})`);
    if (values.has(name)) throw invalidField(rawName, 'query parameter given more than once');
    values.set(name, value);
  }
  return values;
}

export function checkUid(field: string, value: string): string {
  if (!UID.test(value)) throw invalidField(field, `not a valid uid (must match ${IDENTIFIERS.uidPattern})`);
  return value;
}

export function readFilters(q: QueryValues): ListFilters {
  const filters: ListFilters = {};
  const id = q.get('id');
  if (id !== undefined) filters.id = checkUid('id', id);
  const name = q.get('name');
  if (name !== undefined) filters.name = name;
  const children = q.get('uidp.children_of') ?? q.get('parent');
  if (children !== undefined) filters.childrenOf = checkUid(q.has('parent') ? 'parent' : 'uidp.children_of', children);
  const descendants = q.get('uidp.descendants_of');
  if (descendants !== undefined) filters.descendantsOf = checkUid('uidp.descendants_of', descendants);
  const ancestors = q.get('uidp.ancestors_of');
  if (ancestors !== undefined) filters.ancestorsOf = checkUid('uidp.ancestors_of', ancestors);
  return filters;
}

export function readNonNegativeInt(q: QueryValues, name: string): number | undefined {
  const raw = q.get(name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalidField(name, 'must be an integer');
  const n = Number(raw);
  if (n < 0) throw invalidField(name, 'must not be negative');
  if (!Number.isSafeInteger(n)) throw invalidField(name, 'is too large');
  return n;
}

export function readPageSize(q: QueryValues): number {
  const n = readNonNegativeInt(q, LIST_PARAMS.pageSize);
  if (n === undefined || n === 0) return LIST_CONTRACT.pageSize.default;
  return Math.min(n, LIST_CONTRACT.pageSize.max);
}

export function readOrdering(q: QueryValues): Ordering {
  const raw = q.get(LIST_PARAMS.orderBy);
  if (raw === undefined || raw.trim() === '') return { field: LIST_CONTRACT.defaultOrder.field, desc: false };
  const [field, direction, extra] = raw.trim().split(/\s+/);
  const fields = Object.keys(LIST_CONTRACT.orderBy.fields);
  if (!field || !fields.includes(field) || extra !== undefined || (direction !== undefined && direction !== 'desc' && direction !== 'asc')) {
    throw invalidField(LIST_PARAMS.orderBy, `must be one of ${fields.join(', ')}, optionally followed by " desc"`);
  }
  return { field: field as OrderField, desc: direction === 'desc' };
}
