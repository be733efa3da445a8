/**
 * Each record's JSON text per version, kept until the record changes, so a walk that reads records
 * again costs a lookup instead of formatting timestamps and serialising.
 *
 * Every write stores a new record object and never changes a stored one in place (see Store), so a
 * record object stands for one version of the record: the cache is keyed by it and drops what it
 * held when the record is replaced or deleted. A rendering that reads other records (a binding's
 * group, role and identity) also keeps the records it read, and is made again when any of them has
 * been replaced since. One cache per emulator: what it holds is after that emulator's drift.
 */
import type { ApiVersion, ResourceContract, ResourceKind } from '../contract/index.js';
import { renderResource, type Json, type RecordReader } from './render.js';
import type { Store, StoredRecord } from './store.js';

interface Rendering {
  text: string;
  /** The other records the rendering read, as they were then (undefined: there was none). */
  read: readonly ReadRecord[];
}

type ReadRecord = [ResourceKind, string, StoredRecord | undefined];
type Renderings = { -readonly [V in ApiVersion]?: Rendering };

const NOTHING_READ: readonly ReadRecord[] = [];

/** A reader of the store that notes every record it hands out. */
function recordingReader(store: Store, read: ReadRecord[]): RecordReader {
  return {
    get: (kind, uid) => {
      const found = store.get(kind, uid);
      read.push([kind, uid, found]);
      return found;
    },
  };
}

export class RenderCache {
  private readonly renderings = new WeakMap<StoredRecord, Renderings>();

  /**
   * `alter` applies the emulator's drift to a v2 rendering. With `keep` false nothing is kept: for a
   * single pass over the store, such as the embedded audit's, which reads each record once per version.
   */
  constructor(
    private readonly store: Store,
    private readonly alter: (kind: ResourceKind, uid: string, json: Json) => Json,
    private readonly keep = true,
  ) {}

  /** The record's JSON text as `version` shows it. */
  text(resource: ResourceContract, record: StoredRecord, version: ApiVersion): string {
    if (!this.keep) return this.render(resource, record, version, this.store);
    const held = this.renderings.get(record) ?? {};
    const cached = held[version];
    if (cached && this.unchanged(cached)) return cached.text;
    const read: ReadRecord[] = [];
    const text = this.render(resource, record, version, recordingReader(this.store, read));
    held[version] = { text, read: read.length > 0 ? read : NOTHING_READ };
    this.renderings.set(record, held);
    return text;
  }

  private render(resource: ResourceContract, record: StoredRecord, version: ApiVersion, reader: RecordReader): string {
    const json = renderResource(resource, record, version, reader);
    return JSON.stringify(version === 'v2' ? this.alter(resource.kind, record.uid, json) : json);
  }

  private unchanged(rendering: Rendering): boolean {
    return rendering.read.every(([kind, uid, seen]) => this.store.get(kind, uid) === seen);
  }
}
