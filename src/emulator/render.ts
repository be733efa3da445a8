/**
 * Renders stored records as v1 or v2 JSON, field by field from the contract: names, timestamp
 * precision, int-map defaults and the form of references (uid, v1 object, hydrated v2 object).
 */
import {
  formatTimestamp,
  resourceOf,
  type ApiVersion,
  type FieldRule,
  type ResourceContract,
} from '../contract/index.js';
import { storageKey, type Store, type StoredRecord } from './store.js';

/** What rendering reads of the store: the records a reference names. */
export type RecordReader = Pick<Store, 'get'>;

export type Json = Record<string, unknown>;

export function zeroValue(field: FieldRule): unknown {
  switch (field.type) {
    case 'boolean':
      return false;
    case 'int-map':
      return {};
    case 'string-list':
      return [];
    case 'claim-match':
      return { issuer: '', subject: '' };
    default:
      return '';
  }
}

function renderIntMap(field: FieldRule, value: unknown, version: ApiVersion): Json {
  const map = (value ?? {}) as Record<string, number>;
  const out: Record<string, number> = {};
  // v1 shows its known members even when unset; v2 shows an empty object by default (v2 §2).
  if (version === 'v1') for (const key of field.knownKeys ?? []) out[key] = 0;
  for (const [key, n] of Object.entries(map)) if (version === 'v1' || n !== 0) out[key] = n;
  return out;
}

function readPath(value: Json, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) current = (current as Json | undefined)?.[part];
  return current;
}

function renderReference(field: FieldRule, uid: string, version: ApiVersion, store: RecordReader): unknown {
  const ref = field.reference!;
  const target = store.get(ref.target, uid);
  if (version === 'v1' && ref.v1Form === 'uid') return uid;
  if (!target) return version === 'v1' ? { id: uid } : { uid };
  const targetContract = resourceOf(ref.target);
  if (version === 'v1') return renderResource(targetContract, target, 'v1', store);
  const full = renderResource(targetContract, target, 'v2', store);
  const hydrated: Json = {};
  for (const { name, from } of ref.hydratedFields) hydrated[name] = readPath(full, from);
  return hydrated;
}

export function renderResource(resource: ResourceContract, record: StoredRecord, version: ApiVersion, store: RecordReader): Json {
  const out: Json = {};
  for (const field of resource.fields) {
    const name = field[version];
    if (!name) continue;
    const value = record[storageKey(field)];
    switch (field.type) {
      case 'uid':
        out[name] = record.uid;
        break;
      case 'timestamp':
        if (typeof value === 'number') out[name] = formatTimestamp(value, version);
        break;
      case 'int-map':
        out[name] = renderIntMap(field, value, version);
        break;
      case 'reference':
        if (typeof value === 'string') out[name] = renderReference(field, value, version, store);
        break;
      default:
        out[name] = value ?? zeroValue(field);
    }
  }
  return out;
}
