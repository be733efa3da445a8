/**
 * The emulator's one in-memory store. Both versions read and write the same records, so a v1 `id`
 * and a v2 `uid` are the same string. Records are kept under their v2 field names (v1 names for
 * fields only v1 has), timestamps as microseconds since the epoch, references as uid strings.
 */
import type { FieldRule, ResourceKind } from '../contract/index.js';
import { randomHex, type Random } from './seeded-random.js';

export interface StoredRecord {
  uid: string;
  createTime: number;
  updateTime: number;
  [field: string]: unknown;
}

/** The key a field is stored under. */
export function storageKey(field: FieldRule): string {
  const key = field.v2 ?? field.v1;
  if (!key) throw new Error('a field rule names neither a v1 nor a v2 field');
  return key;
}

export function parentUid(uid: string): string | undefined {
  const slash = uid.lastIndexOf('/');
  return slash < 0 ? undefined : uid.slice(0, slash);
}

/**
 * A record is never changed once stored: a write stores a new object (frozen here, so a change in
 * place fails loudly). Caches of renderings rely on it: a record object is one version of a record.
 */
export class Store {
  private readonly collections = new Map<ResourceKind, Map<string, StoredRecord>>();
  private readonly versions = new Map<ResourceKind, number>();
  private readonly arrays = new Map<ResourceKind, StoredRecord[]>();

  constructor(private readonly random: Random) {}

  private collection(kind: ResourceKind): Map<string, StoredRecord> {
    let found = this.collections.get(kind);
    if (!found) {
      found = new Map();
      this.collections.set(kind, found);
    }
    return found;
  }

  get(kind: ResourceKind, uid: string): StoredRecord | undefined {
    return this.collection(kind).get(uid);
  }

  /** Every record of a kind. The array is shared until the next write: do not change it. */
  all(kind: ResourceKind): readonly StoredRecord[] {
    let cached = this.arrays.get(kind);
    if (!cached) {
      cached = [...this.collection(kind).values()];
      this.arrays.set(kind, cached);
    }
    return cached;
  }

  count(kind: ResourceKind): number {
    return this.collection(kind).size;
  }

  /** Changes whenever a record of the kind is written; caches of query results key on it. */
  version(kind: ResourceKind): number {
    return this.versions.get(kind) ?? 0;
  }

  put(kind: ResourceKind, record: StoredRecord): void {
    this.collection(kind).set(record.uid, Object.freeze(record));
    this.touched(kind);
  }

  remove(kind: ResourceKind, uid: string): void {
    if (this.collection(kind).delete(uid)) this.touched(kind);
  }

  private touched(kind: ResourceKind): void {
    this.versions.set(kind, this.version(kind) + 1);
    this.arrays.delete(kind);
  }

  /** A fresh uid under `parent` (or a root uid), unused by any record of any kind. */
  newUid(parent: string | undefined): string {
    for (;;) {
      const uid = parent === undefined ? randomHex(this.random, 40) : `${parent}/${randomHex(this.random, 16)}`;
      if (![...this.collections.values()].some((c) => c.has(uid))) return uid;
    }
  }

  /** The first kind (in `order`) that has a record below `uid`, if any. */
  kindWithDescendants(uid: string, order: readonly ResourceKind[]): ResourceKind | undefined {
    const prefix = `${uid}/`;
    return order.find((kind) => {
      for (const key of this.collection(kind).keys()) if (key.startsWith(prefix)) return true;
      return false;
    });
  }

  /** A canonical dump of every record, for tests that check a request changed nothing. */
  snapshot(): string {
    const kinds = [...this.collections.keys()].sort();
    const dump = kinds.map((kind) => [kind, [...this.collection(kind).values()].sort((a, b) => (a.uid < b.uid ? -1 : 1))]);
    return JSON.stringify(dump);
  }
}
