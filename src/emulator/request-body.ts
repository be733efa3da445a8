/**
 * Reads request bodies against the contract: which keys a version accepts, their types, and what
 * a create, a v1 full replace and a v2 partial update do with them. Nothing is written here.
 */
import { IDENTIFIERS, type ApiVersion, type FieldRule, type ResourceContract } from '../contract/index.js';
import { invalidArgument, invalidField, type FieldViolation } from './api-error.js';
import type { Json } from './render.js';
import { storageKey } from './store.js';

const UID = new RegExp(IDENTIFIERS.uidPattern);

export function parseJsonObject(text: string): Json {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidField('body', 'malformed JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidField('body', 'must be a JSON object');
  return value as Json;
}

interface BodyKey {
  field: FieldRule;
  /** True when the key is the output form of the field, which a body may carry and the server ignores. */
  ignored: boolean;
}

/** The keys a body of this version may hold, each tied to its field. */
function bodyKeys(resource: ResourceContract, version: ApiVersion): Map<string, BodyKey> {
  const keys = new Map<string, BodyKey>();
  for (const field of resource.fields) {
    const name = field[version];
    const writeKey = field.reference?.writeKey?.[version];
    if (writeKey) keys.set(writeKey, { field, ignored: false });
    if (name && !keys.has(name)) keys.set(name, { field, ignored: field.access === 'output-only' || field.type === 'reference' });
  }
  return keys;
}

function typeProblem(field: FieldRule, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'string-list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'must be an array of strings';
    case 'int-map':
      return typeof value === 'object' && value !== null && !Array.isArray(value) &&
        Object.values(value).every((v) => Number.isSafeInteger(v) && (v as number) >= 0)
        ? undefined
        : 'must be an object of non-negative integers';
    case 'claim-match': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object with issuer and subject';
      const entries = Object.entries(value);
      const ok = entries.every(([k, v]) => (k === 'issuer' || k === 'subject') && typeof v === 'string');
      return ok ? undefined : 'must hold only string members issuer and subject';
    }
    case 'reference':
      return typeof value === 'string' && UID.test(value) ? undefined : 'must be a uid string';
    default:
      return undefined;
  }
}

export interface BodyValues {
  /** Storage key -> value, for the keys the body sets. */
  readonly values: Map<string, unknown>;
  readonly writeKeyOf: Map<string, string>;
}

/** Checks every key and type of a body; returns the values it sets, by storage key. */
export function readBody(resource: ResourceContract, version: ApiVersion, body: Json): BodyValues {
  const keys = bodyKeys(resource, version);
  const violations: FieldViolation[] = [];
  const values = new Map<string, unknown>();
  const writeKeyOf = new Map<string, string>();
  for (const [key, value] of Object.entries(body)) {
    const known = keys.get(key);
    if (!known) {
      violations.push({ field: key, description: `unknown field for a ${version} ${resource.singular}` });
      continue;
    }
    if (known.ignored) continue;
    const problem = typeProblem(known.field, value);
    if (problem) violations.push({ field: key, description: problem });
    else {
      values.set(storageKey(known.field), value);
      writeKeyOf.set(storageKey(known.field), key);
    }
  }
  if (violations.length > 0) throw invalidArgument(violations);
  return { values, writeKeyOf };
}

/** The fields of a version that a client may set. */
export function settableFields(resource: ResourceContract, version: ApiVersion): FieldRule[] {
  return resource.fields.filter((f) => f.access !== 'output-only' && (f[version] || f.reference?.writeKey?.[version]));
}

/** Field name a client uses for `field` in this version, for messages. */
export function clientName(field: FieldRule, version: ApiVersion): string {
  return field.reference?.writeKey?.[version] ?? field[version] ?? storageKey(field);
}

/** Names an update mask may hold for a field: its v2 name, its write key, and their snake spellings. */
function maskNames(field: FieldRule): string[] {
  const names = [field.v2, field.reference?.writeKey?.v2].filter((n): n is string => Boolean(n));
  return [...names, ...names.map((n) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))];
}

/** The mutable fields an update mask names; `*` names them all. */
export function readUpdateMask(resource: ResourceContract, mask: string): FieldRule[] {
  const mutable = resource.fields.filter((f) => f.access === 'mutable' && (f.v2 || f.reference?.writeKey));
  const chosen = new Set<FieldRule>();
  for (const part of mask.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (part === '*') {
      mutable.forEach((f) => chosen.add(f));
      continue;
    }
    const field = mutable.find((f) => maskNames(f).includes(part));
    if (!field) throw invalidField('update_mask', `"${part}" is not a field an update may change (mutable: ${mutable.map((f) => clientName(f, 'v2')).join(', ')})`);
    chosen.add(field);
  }
  if (chosen.size === 0) throw invalidField('update_mask', 'names no field');
  return [...chosen];
}

