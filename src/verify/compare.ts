/**
 * Compares one resource as v1 and v2 show it, field by field through the contract. What the
 * contract calls a change of form (timestamp precision, int-map defaults, a reference's shape) is
 * normalised first, and counted, so the report can say what it forgave and why.
 */
import { comparableTimestamp, RESOURCE_TIMES, sameComparableTime, type FieldRule, type ResourceContract } from '../contract/index.js';
import type { Json } from './walk.js';

export interface FieldDifference {
  field: FieldRule;
  path: string;
  v1: unknown;
  v2: unknown;
}

export interface RecordComparison {
  differences: readonly FieldDifference[];
  /** Fields whose raw values differed but are equal once normalised. */
  normalised: readonly FieldRule[];
  /** Keys that the contract does not name, per version. */
  unknownKeys: { v1: readonly string[]; v2: readonly string[] };
}

function referenceUid(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return (value as Json)['uid'] ?? (value as Json)['id'];
  return value;
}

export function normalise(field: FieldRule, value: unknown): unknown {
  if (value === undefined) return value;
  switch (field.normalise) {
    case 'timestamp-precision':
      return typeof value === 'string' ? (comparableTimestamp(value) ?? value) : value;
    case 'int-map-zero-defaults':
      return value && typeof value === 'object' ? Object.fromEntries(Object.entries(value as Json).filter(([, n]) => n !== 0)) : value;
    case 'reference-by-uid':
      return referenceUid(value);
    default:
      return value;
  }
}

/**
 * Equal JSON values, as equal serialisations are (keys in the same order), without serialising:
 * the audit asks this of every shared field of every record, and most are equal.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && sameItems(a, b);
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    if (keysA[i] !== keysB[i] || !sameJson((a as Json)[keysA[i]!], (b as Json)[keysB[i]!])) return false;
  }
  return true;
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
  return true;
}

/** Two int maps with the same members once zeros are dropped, in the same order (as sameJson reads the normalised maps). */
function sameNonZeroMembers(a: Json, b: Json): boolean {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < keysA.length && a[keysA[i]!] === 0) i++;
    while (j < keysB.length && b[keysB[j]!] === 0) j++;
    if (i === keysA.length || j === keysB.length) return i === keysA.length && j === keysB.length;
    if (keysA[i] !== keysB[j] || !sameJson(a[keysA[i]!], b[keysB[j]!])) return false;
    i++;
    j++;
  }
}

const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * True when two raw values are equal once normalised, told without normalising them where the forms
 * are the usual ones (a large audit asks this of nearly every record); false where only the full
 * comparison can tell.
 */
function equalOnceNormalised(field: FieldRule, a: unknown, b: unknown): boolean {
  if (field.normalise === 'timestamp-precision' && typeof a === 'string' && typeof b === 'string') return sameComparableTime(a, b);
  if (field.normalise === 'int-map-zero-defaults' && isMap(a) && isMap(b)) return sameNonZeroMembers(a, b);
  return false;
}

/** Leaf-level differences between two JSON values, with their paths. */
function diffValues(a: unknown, b: unknown, path: string, out: { path: string; a: unknown; b: unknown }[]): void {
  if (sameJson(a, b)) return;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a as Json), ...Object.keys(b as Json)]);
    for (const key of [...keys].sort()) {
      diffValues((a as Json)[key], (b as Json)[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`, out);
    }
    return;
  }
  out.push({ path, a, b });
}

interface ComparisonPlan {
  shared: FieldRule[];
  known: { v1: ReadonlySet<string | undefined>; v2: ReadonlySet<string | undefined> };
}

const plans = new WeakMap<ResourceContract, ComparisonPlan>();

/** What to compare for a resource, worked out once per resource rather than once per record. */
function planFor(resource: ResourceContract): ComparisonPlan {
  let plan = plans.get(resource);
  if (!plan) {
    plan = {
      shared: resource.fields.filter((f) => f.v1 && f.v2 && f.type !== 'uid'),
      known: { v1: new Set(resource.fields.map((f) => f.v1)), v2: new Set(resource.fields.map((f) => f.v2)) },
    };
    plans.set(resource, plan);
  }
  return plan;
}

const NONE: readonly never[] = [];

/** Keys of a record that the contract does not name; the one shared empty list when there are none, as with nearly every record. */
function unknownKeys(record: Json, known: ReadonlySet<string | undefined>): readonly string[] {
  let unknown: string[] | undefined;
  for (const key of Object.keys(record)) if (!known.has(key)) (unknown ??= []).push(key);
  return unknown ?? NONE;
}

/** The fields compared between the versions, in the order whose positions `recordsAgree` reports. */
export function comparedFields(resource: ResourceContract): readonly FieldRule[] {
  return planFor(resource).shared;
}

function onlyKnownKeys(record: Json, known: ReadonlySet<string | undefined>): boolean {
  for (const key in record) if (!known.has(key)) return false;
  return true;
}

/**
 * The audit's question of nearly every pair, answered without building a comparison: -1 unless the
 * records agree on every compared field once normalised and show no key the contract does not name;
 * else a bit for each compared field (by its place in `comparedFields`) that differed only in form.
 * Where it answers -1, compareRecords says what differs.
 */
export function recordsAgree(resource: ResourceContract, v1: Json, v2: Json): number {
  const plan = planFor(resource);
  if (plan.shared.length > 31 || !onlyKnownKeys(v1, plan.known.v1) || !onlyKnownKeys(v2, plan.known.v2)) return -1;
  let normalised = 0;
  for (let i = 0; i < plan.shared.length; i++) {
    const field = plan.shared[i]!;
    const raw1 = v1[field.v1!];
    const raw2 = v2[field.v2!];
    if (sameJson(raw1, raw2)) continue;
    if (!equalOnceNormalised(field, raw1, raw2)) return -1;
    normalised |= 1 << i;
  }
  return normalised;
}

export function compareRecords(resource: ResourceContract, v1: Json, v2: Json): RecordComparison {
  const plan = planFor(resource);
  let differences: FieldDifference[] | undefined;
  let normalised: FieldRule[] | undefined;
  for (const field of plan.shared) {
    const raw1 = v1[field.v1!];
    const raw2 = v2[field.v2!];
    if (sameJson(raw1, raw2)) continue;
    if (equalOnceNormalised(field, raw1, raw2)) {
      (normalised ??= []).push(field);
      continue;
    }
    const leaves: { path: string; a: unknown; b: unknown }[] = [];
    diffValues(normalise(field, raw1), normalise(field, raw2), `$.${field.v2}`, leaves);
    if (leaves.length === 0) (normalised ??= []).push(field);
    for (const leaf of leaves) (differences ??= []).push({ field, path: leaf.path, v1: leaf.a, v2: leaf.b });
  }
  return {
    differences: differences ?? NONE,
    normalised: normalised ?? NONE,
    unknownKeys: { v1: unknownKeys(v1, plan.known.v1), v2: unknownKeys(v2, plan.known.v2) },
  };
}

/** Fields one version shows and the other does not: expected differences by the contract. */
export function oneSidedFields(resource: ResourceContract): FieldRule[] {
  return resource.fields.filter((f) => Boolean(f.v1) !== Boolean(f.v2));
}

/** Create and update times of a record, read under either version's names. */
export function recordTimes(resource: ResourceContract, record: Json, version: 'v1' | 'v2'): string[] {
  const times: readonly string[] = RESOURCE_TIMES.fields;
  return resource.fields
    .filter((f) => f.v2 && times.includes(f.v2) && f[version])
    .map((f) => record[f[version]!])
    .filter((v): v is string => typeof v === 'string');
}
