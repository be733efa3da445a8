/**
 * Builders for the contract tables. The v1 and v2 surfaces follow one CRUD shape per version
 * (v1-reference "v1 calls", "v2beta1 calls"); a resource states only where it departs from it.
 */
import type {
  Domain,
  FieldAccess,
  ReferenceRule,
  Endpoint,
  Endpoints,
  FieldRule,
  ListEndpoint,
  Rule,
  UpdateEndpoint,
  VersionSurface,
} from './types.js';

export const documented = (source: string): Rule => ({ status: 'documented', source });
export const assumed = (source: string): Rule => ({ status: 'assumed', source });

export const V1_REF = 'v1-reference.md';
export const V2_DOC = 'platform-api-v2.md';

export const VERSION_SEGMENT = { v1: 'v1', v2: 'v2beta1' } as const;

export const UIDP_FILTERS = ['uidp.descendants_of', 'uidp.children_of', 'uidp.ancestors_of'] as const;

type Op = keyof Endpoints;
type Overrides = Partial<Record<Op, Rule | null>>;

interface SurfaceSpec {
  domain: Domain;
  collection: string;
  filters: readonly string[];
  /** Rule for every operation not named in `rules`. */
  rule: Rule;
  /** Per operation: a different rule, or `null` when the version does not offer it. */
  rules?: Overrides;
  envelopeKey?: string;
  paginated?: boolean;
}

function endpoint(method: Endpoint['method'], path: string, rule: Rule): Endpoint {
  return { method, path, ...rule };
}

function pick(spec: SurfaceSpec, op: Op): Rule | null {
  const override = spec.rules?.[op];
  return override === undefined ? spec.rule : override;
}

/** v1: list `{items}` with `id` filter for reads of one record, create under the parent, PUT replaces. */
export function v1Surface(spec: SurfaceSpec): VersionSurface {
  const base = `/${spec.domain}/${VERSION_SEGMENT.v1}/${spec.collection}`;
  const endpoints: { -readonly [K in Op]?: Endpoints[K] } = {};
  const list = pick(spec, 'list');
  if (list) {
    endpoints.list = {
      ...endpoint('GET', base, list),
      envelopeKey: spec.envelopeKey ?? 'items',
      paginated: spec.paginated ?? false,
      filters: ['id', ...spec.filters],
    } satisfies ListEndpoint;
  }
  const create = pick(spec, 'create');
  if (create) endpoints.create = endpoint('POST', `${base}/{parent}`, create);
  const update = pick(spec, 'update');
  if (update) endpoints.update = { ...endpoint('PUT', `${base}/{id}`, update), semantics: 'replace' } satisfies UpdateEndpoint;
  const del = pick(spec, 'delete');
  if (del) endpoints.delete = endpoint('DELETE', `${base}/{id}`, del);
  return {
    collection: spec.collection,
    endpoints,
    readOne: { how: 'list-by-id', filter: 'id', ...documented(`${V1_REF} "v1 calls": no Get in v1`) },
    deleteResponse: { body: 'empty-object', ...documented(`${V1_REF} "v1 calls": every v1 Delete returns {}`) },
  };
}

/** v2beta1: paginated list keyed by the collection, Get, create under the parent, PATCH with a mask. */
export function v2Surface(spec: SurfaceSpec): VersionSurface {
  const base = `/${spec.domain}/${VERSION_SEGMENT.v2}/${spec.collection}`;
  const endpoints: { -readonly [K in Op]?: Endpoints[K] } = {};
  const list = pick(spec, 'list');
  if (list) {
    endpoints.list = {
      ...endpoint('GET', base, list),
      envelopeKey: spec.envelopeKey ?? spec.collection,
      paginated: spec.paginated ?? true,
      filters: spec.filters,
    } satisfies ListEndpoint;
  }
  const get = pick(spec, 'get');
  if (get) endpoints.get = endpoint('GET', `${base}/{uid}`, get);
  const create = pick(spec, 'create');
  if (create) endpoints.create = endpoint('POST', `${base}/{parent}`, create);
  const update = pick(spec, 'update');
  if (update) endpoints.update = { ...endpoint('PATCH', `${base}/{uid}`, update), semantics: 'partial' } satisfies UpdateEndpoint;
  const del = pick(spec, 'delete');
  if (del) endpoints.delete = endpoint('DELETE', `${base}/{uid}`, del);
  return {
    collection: spec.collection,
    endpoints,
    ...(get ? { readOne: { how: 'get' as const, ...get } } : {}),
    deleteResponse: { body: 'empty', ...documented(`${V2_DOC} §4: "Empty body on success"`) },
  };
}

/** The identifier every resource has: v1 `id`, v2 `uid`, the same string (v1-reference "Identifiers"). */
export const uidField: FieldRule = {
  v1: 'id',
  v2: 'uid',
  type: 'uid',
  access: 'output-only',
  ...documented(`${V2_DOC} §2, §9.4; ${V1_REF} "Identifiers"`),
};

/** `createdAt` -> `createTime`, `updatedAt` -> `updateTime` (v2 §9.4). */
export function timestampFields(source: Rule = documented(`${V2_DOC} §2, §9.4`)): FieldRule[] {
  return [
    { v1: 'createdAt', v2: 'createTime', type: 'timestamp', access: 'output-only', normalise: 'timestamp-precision', ...source },
    { v1: 'updatedAt', v2: 'updateTime', type: 'timestamp', access: 'output-only', normalise: 'timestamp-precision', ...source },
  ];
}

export function sameField(
  name: string,
  type: FieldRule['type'],
  access: FieldRule['access'],
  rule: Rule,
  extra: Partial<FieldRule> = {},
): FieldRule {
  return { v1: name, v2: name, type, access, ...rule, ...extra };
}

export const UID_NAME_DESCRIPTION: ReferenceRule['hydratedFields'] = [
  { name: 'uid', from: 'uid' },
  { name: 'name', from: 'name' },
  { name: 'description', from: 'description' },
];

/**
 * A role binding's reference (v2 §2 RoleBinding; v1-reference "A v1 RoleBinding as listed"): same
 * name in both versions, hydrated in v2, compared by uid.
 */
export function referenceField(
  name: string,
  access: FieldAccess,
  reference: Pick<ReferenceRule, 'target' | 'v1Form' | 'hydratedFields' | 'writeKey'>,
): FieldRule {
  const rule = documented(`${V2_DOC} §2 RoleBinding; ${V1_REF} "A v1 RoleBinding as listed"`);
  return {
    v1: name,
    v2: name,
    type: 'reference',
    access,
    ...(access === 'output-only' ? {} : { required: true }),
    normalise: 'reference-by-uid',
    ...rule,
    reference: { ...reference, v2Form: 'hydrated', ...rule },
  };
}
