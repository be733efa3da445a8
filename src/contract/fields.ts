/**
 * Field lookups over the resource tables: names per version, renames, what a client may write.
 */
import { readOneQuery } from './paths.js';
import { UNIFORM_RENAMES } from './platform.js';
import { RESOURCES } from './resources.js';
import type { ApiVersion, ResourceContract, ResourceKind } from './types.js';

const byKind = new Map<ResourceKind, ResourceContract>(RESOURCES.map((r) => [r.kind, r]));

/** The keys v1 list answers hold their records under (`items`). */
export const V1_LIST_KEYS: ReadonlySet<string> = new Set(RESOURCES.flatMap((r) => (r.v1.endpoints.list ? [r.v1.endpoints.list.envelopeKey] : [])));

export function resourceOf(kind: ResourceKind): ResourceContract {
  const found = byKind.get(kind);
  if (!found) throw new Error(`no resource ${kind} in the contract`);
  return found;
}

export function modelledResources(): ResourceContract[] {
  return RESOURCES.filter((r) => r.modelled);
}

/** The resource whose v2 list envelope key (or v1/v2 collection) is `name`. */
export function resourceByCollection(name: string): ResourceContract | undefined {
  return RESOURCES.find((r) => r.v2.collection === name || r.v1.collection === name);
}

/** Fields a version shows, in that version's names. */
export function fieldNames(resource: ResourceContract, version: ApiVersion): string[] {
  return resource.fields.flatMap((f) => (f[version] ? [f[version]!] : []));
}

/** v1 name -> v2 name for the fields whose name changes. */
export function fieldRenames(resource: ResourceContract): ReadonlyMap<string, string> {
  const renames = new Map<string, string>();
  for (const f of resource.fields) {
    if (f.v1 && f.v2 && f.v1 !== f.v2) renames.set(f.v1, f.v2);
  }
  return renames;
}

/** Assumed rules a codemod run may reject (rejections.ts), where rejecting one changes a rename. */
export const ASSUMPTION_SWITCHES = { lastSeenOnEveryKind: true };

/**
 * A kind's references v1 gave as a uid and v2 gives as the record, by v1 name, with where v2 keeps
 * the uid: `identity` -> `identity.uid` (`b.identity.split('/')` reads a uid no more).
 */
export function uidReferences(resource: ResourceContract): ReadonlyMap<string, string> {
  return new Map(resource.fields.flatMap((f) => (f.reference?.v1Form === 'uid' && f.v1 && f.v2 ? [[f.v1, `${f.v2}.uid`] as const] : [])));
}

/** The v1 names of every kind's references that v2 gives in another form (uidReferences). */
export function uidReferenceNames(): ReadonlySet<string> {
  return new Set(RESOURCES.flatMap((r) => [...uidReferences(r).keys()]));
}

/** What a record's fields are called otherwise on v2, for a note: the renames, and the references of uidReferences. */
export function renamesInWords(resource: ResourceContract): string {
  return [...fieldRenames(resource), ...uidReferences(resource)].map(([v1, v2]) => `${v1} -> ${v2}`).join(', ');
}

/**
 * What code over a kind's v1 path changes on v2, in words for a note on a path that stays:
 * `id -> uid, createdAt -> createTime; list key items -> groups, a page at a time; a read by ?id= is a Get;
 * an update (PUT) is a PATCH with an updateMask`, the keys writes name references by, and the writes
 * v2beta1 does not have.
 */
export function changesInWords(resource: ResourceContract): string {
  const v1 = resource.v1.endpoints;
  const v2 = resource.v2.endpoints;
  const list = v1.list && v2.list ? `list key ${v1.list.envelopeKey} -> ${v2.list.envelopeKey}${v2.list.paginated ? ', a page at a time' : ''}` : '';
  const readOne = resource.v1.readOne?.how === 'list-by-id' && v2.get ? `a read by ${readOneQuery(resource)} is a Get` : '';
  const update = v1.update?.semantics === 'replace' && v2.update?.semantics === 'partial' ? 'an update (PUT) is a PATCH with an updateMask' : '';
  const written = writeKeysInWords(resource);
  const missing = (['create', 'update', 'delete'] as const).filter((op) => v1[op] && !v2[op]);
  const writes = missing.length > 0 ? `v2beta1 has no ${missing.slice(0, -1).join(', ')}${missing.length > 1 ? ' or ' : ''}${missing.at(-1)} for ${pluralWords(resource)}, so those stay on v1` : '';
  return [renamesInWords(resource), list, readOne, update, written, writes].filter(Boolean).join('; ');
}

/** `a write names identity as identityUid, role as roleUid`: the keys a create or update body names references by on v2; '' when none change. */
export function writeKeysInWords(resource: ResourceContract): string {
  const keys = resource.fields.flatMap((f) => (f.reference?.writeKey ? [`${f.reference.writeKey.v1} as ${f.reference.writeKey.v2}`] : []));
  return keys.length > 0 ? `a write names ${keys.join(', ')}` : '';
}

/**
 * Renames for a client's type or value of a resource kind: the uniform ones of v2 §9.4 (which a
 * client type may carry whether or not v1 served that field on this kind) and the kind's own.
 */
export function clientFieldRenames(resource: ResourceContract): ReadonlyMap<string, string> {
  const renames = new Map<string, string>(Object.entries(UNIFORM_RENAMES.renames));
  if (ASSUMPTION_SWITCHES.lastSeenOnEveryKind) renames.set(UNIFORM_RENAMES.lastSeen.from, UNIFORM_RENAMES.lastSeen.to);
  for (const [from, to] of fieldRenames(resource)) renames.set(from, to);
  return renames;
}

/**
 * The v2 name of a timestamp whose text v2 shortens (v1 gave more fraction digits), by the name a
 * read of it takes: its v1 or v2 name, or a uniform rename's (a repo's `createdAt` read as `createTime`).
 */
export function preciseTimestamp(resource: ResourceContract, name: string): string | undefined {
  const v2 = clientFieldRenames(resource).get(name) ?? name;
  return resource.fields.find((f) => f.v2 === v2 && f.v1 && f.normalise === 'timestamp-precision')?.v2;
}

/**
 * Names whose reads may be such timestamps, before and after the renames (a second run reads the v2
 * names): the test before a record's kind is asked for.
 */
export function preciseTimestampNames(): ReadonlySet<string> {
  return new Set(RESOURCES.flatMap((r) => [...renamedFieldNames(), ...r.fields.flatMap((f) => [f.v1, f.v2])].filter((name): name is string => name !== undefined && preciseTimestamp(r, name) !== undefined)));
}

/** The v1 names some kind's client records may hold that v2 renames (id, createdAt, ...), as the contract stands for this run. */
export function renamedFieldNames(): ReadonlySet<string> {
  return new Set(RESOURCES.flatMap((r) => [...clientFieldRenames(r).keys()]));
}

/** Every name a client's v1 record types may hold that migrates: the renamed fields of every kind, and v1's list envelope keys. */
export function migratingMemberNames(): ReadonlySet<string> {
  return new Set([...renamedFieldNames(), ...V1_LIST_KEYS]);
}

/**
 * The v1 fields of a record another names whole (a binding's group and role) that v2 leaves out of
 * the hydrated form it gives there (the references' hydratedFields): `binding.group.verified`.
 */
export function fieldsBeyondHydration(): ReadonlySet<string> {
  const references = RESOURCES.flatMap((r) => r.fields.flatMap((f) => (f.reference?.v1Form === 'object' ? [f.reference] : [])));
  return new Set(
    references.flatMap((ref) => {
      const target = resourceOf(ref.target);
      const renames = clientFieldRenames(target);
      return target.fields.flatMap((f) => (f.v1 && !ref.hydratedFields.some((h) => h.name === (renames.get(f.v1!) ?? f.v1)) ? [f.v1] : []));
    }),
  );
}

/** The names of every field some kind's v1 serves and v2beta1 does not, as the contract stands for this run. */
export function goneFieldNames(): ReadonlySet<string> {
  return new Set(RESOURCES.flatMap((r) => [...fieldsGoneInV2(r)]));
}

/** Fields v1 serves and v2beta1 does not (a role's `capabilities`): code that reads them gets nothing on v2. */
export function fieldsGoneInV2(resource: ResourceContract): ReadonlySet<string> {
  return new Set(resource.fields.filter((f) => f.v1 && !f.v2 && !f.reference).map((f) => f.v1!));
}

/** Whether v1 serves a field of this kind, by its v1 name or the v2 name it takes. */
export function servedByV1(resource: ResourceContract, name: string): boolean {
  return resource.fields.some((f) => f.v1 !== undefined && (f.v1 === name || f.v2 === name));
}

/**
 * The v2 name a read takes where v1 never served that field on this kind and v2 does (a group's
 * `createdAt` read as `createTime`): undefined on v1, a value on v2.
 */
export function servedOnlyByV2(resource: ResourceContract, v1Name: string): string | undefined {
  const to = clientFieldRenames(resource).get(v1Name);
  return to && !resource.fields.some((f) => f.v1 === v1Name) && fieldsNewInV2(resource).includes(to) ? to : undefined;
}

const DELETE_BODIES = { 'empty-object': '{}', empty: 'no body' } as const;

/** What a kind's Delete answers on each version, where they differ: "v1 gave {} and v2 gives no body". */
export function deleteBodyChange(resource: ResourceContract): string | undefined {
  const v1 = resource.v1.deleteResponse?.body;
  const v2 = resource.v2.deleteResponse?.body;
  return v1 && v2 && v1 !== v2 ? `v1 gave ${DELETE_BODIES[v1]} and v2 gives ${DELETE_BODIES[v2]}` : undefined;
}

/** Fields v2 shows that v1 did not, in v2's names. */
export function fieldsNewInV2(resource: ResourceContract): string[] {
  return resource.fields.filter((f) => f.v2 && !f.v1).map((f) => f.v2!);
}

/** Fields an update may change, in the version's names. */
export function mutableFields(resource: ResourceContract, version: ApiVersion): string[] {
  return resource.fields.filter((f) => f.access === 'mutable' && f[version]).map((f) => f[version]!);
}

/** Fields a create body may carry, in the version's names (references by their write keys). */
export function writableFields(resource: ResourceContract, version: ApiVersion): string[] {
  return resource.fields.flatMap((f) => {
    if (f.access === 'output-only') return [];
    if (f.type === 'reference') return f.reference?.writeKey ? [f.reference.writeKey[version]] : [];
    return f[version] ? [f[version]!] : [];
  });
}

/** How messages name a kind: the v2 collection in words, `roleBindings` -> "role bindings". */
export function pluralWords(resource: ResourceContract): string {
  return resource.v2.collection.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}

/** What a record's own list of keys shows otherwise on v2, leaving out the keys a pattern names: '' when nothing. */
export function keyChanges(resource: ResourceContract, named: ReadonlySet<string> = new Set()): string {
  const renamed = [...fieldRenames(resource)].filter(([v1, v2]) => !named.has(v1) && !named.has(v2)).map(([v1, v2]) => `${v1} -> ${v2}`);
  const added = fieldsNewInV2(resource).filter((k) => !named.has(k));
  const gone = [...fieldsGoneInV2(resource)].filter((k) => !named.has(k));
  return [renamed.length ? `renames ${renamed.join(', ')}` : '', added.length ? `adds ${added.join(', ')}` : '', gone.length ? `drops ${gone.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
}

/** What a record's keys show otherwise on v2, its maps' zero members included. */
export function keysOnV2(resource: ResourceContract): string {
  const maps = resource.fields.filter((f) => f.normalise === 'int-map-zero-defaults').map((f) => f.v2);
  // A reference v1 gave as a uid string becomes an object; one v1 gave as an object keeps fewer members.
  const references = resource.fields.flatMap((f) => (f.reference && f.v2 ? [`gives ${f.v2} as { ${f.reference.hydratedFields.map((h) => h.name).join(', ')} }${f.reference.v1Form === 'uid' ? ' where v1 gave its uid' : ''}`] : []));
  return [keyChanges(resource), ...maps.map((m) => `leaves a zero member of ${m} out`), ...references].filter(Boolean).join('; ');
}
