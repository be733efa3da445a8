/**
 * Types of the migration contract: every v1-to-v2 difference, written as data.
 *
 * A rule is `documented` when one of the two spec documents states it (the vendor's v2 document, or
 * the v1 reference taken from the vendor's protos) and `assumed` when neither does; `source` cites
 * the section, or for an assumption says what it follows (AIP, grpc-gateway, the emulator's choice).
 */
export type RuleStatus = 'documented' | 'assumed';

export interface Rule {
  readonly status: RuleStatus;
  readonly source: string;
}

export type ApiVersion = 'v1' | 'v2';
export type Domain = 'iam' | 'registry' | 'vulnerabilities';
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ResourceKind =
  | 'Group'
  | 'Identity'
  | 'Role'
  | 'RoleBinding'
  | 'Repo'
  | 'Tag'
  | 'Advisory'
  | 'IdentityProvider'
  | 'AccountAssociation'
  | 'GroupInvite';

/**
 * One HTTP call. `path` is a template: `{name}` binds the rest of a uid, slashes included, as the
 * vendor's `{id=**}` bindings do.
 */
export interface Endpoint extends Rule {
  readonly method: HttpMethod;
  readonly path: string;
}

export interface ListEndpoint extends Endpoint {
  /** Key of the array in the response: `items` in v1, the plural collection name in v2. */
  readonly envelopeKey: string;
  readonly paginated: boolean;
  /** Query filters besides the pagination parameters, in their canonical (snake) spelling. */
  readonly filters: readonly string[];
}

export interface UpdateEndpoint extends Endpoint {
  /** `replace`: omitted fields reset to zero values (v1 PUT). `partial`: PATCH with a field mask. */
  readonly semantics: 'replace' | 'partial';
}

export interface Endpoints {
  readonly list?: ListEndpoint;
  readonly get?: Endpoint;
  readonly create?: Endpoint;
  readonly update?: UpdateEndpoint;
  readonly delete?: Endpoint;
}

/** How one record is read: v1 lists with the `id` filter and takes `items[0]`; v2 has Get. */
export interface ReadOneRule extends Rule {
  readonly how: 'list-by-id' | 'get';
  /** The filter that selects one record, for `list-by-id`. */
  readonly filter?: string;
}

export interface VersionSurface {
  /** Collection segment of the path: `rolebindings` in v1, `roleBindings` in v2. */
  readonly collection: string;
  readonly endpoints: Endpoints;
  readonly readOne?: ReadOneRule;
  /** What a successful Delete returns. */
  readonly deleteResponse?: Rule & { readonly body: 'empty-object' | 'empty' };
}

export type FieldType =
  | 'uid'
  | 'string'
  | 'boolean'
  | 'timestamp'
  | 'int-map'
  | 'string-list'
  | 'claim-match'
  | 'reference';

/**
 * Who may set a field. `output-only` fields are assigned by the server and ignored in request
 * bodies (AIP-203); `immutable` ones are given at creation only; `mutable` ones an update may change.
 */
export type FieldAccess = 'output-only' | 'immutable' | 'mutable';

export interface ReferenceRule extends Rule {
  readonly target: ResourceKind;
  /** v1 shape of the reference when read: a plain uid string, or the v1 object with `id`. */
  readonly v1Form: 'uid' | 'object';
  readonly v2Form: 'hydrated';
  /** Fields of the hydrated v2 object; `from` is the path in the target's v2 form it is read from. */
  readonly hydratedFields: readonly { readonly name: string; readonly from: string }[];
  /** Key of this reference in a create body; absent when the path carries it (the parent group). */
  readonly writeKey?: { readonly v1: string; readonly v2: string };
}

/** A change of form only, which the verifier normalises away before comparing. */
export type Normalisation = 'timestamp-precision' | 'int-map-zero-defaults' | 'reference-by-uid';

export interface FieldRule extends Rule {
  /** Name in v1 JSON; absent when only v2 has the field. */
  readonly v1?: string;
  /** Name in v2 JSON; absent when only v1 has (or v2 does not show) the field. */
  readonly v2?: string;
  readonly type: FieldType;
  readonly access: FieldAccess;
  readonly required?: boolean;
  readonly reference?: ReferenceRule;
  readonly normalise?: Normalisation;
  /** For `int-map`: the members v1 always shows (zero when unset). */
  readonly knownKeys?: readonly string[];
  /** For string fields with a documented pattern. */
  readonly pattern?: string;
}

export interface ResourceContract {
  readonly kind: ResourceKind;
  readonly domain: Domain;
  /** Lower camel singular, used in messages and reports: `roleBinding`. */
  readonly singular: string;
  /**
   * Whether the spec says enough about this resource to serve it, verify it and rewrite its fields.
   * Resources known by path only are still migrated on their paths.
   */
  readonly modelled: boolean;
  /** Kind of the parent whose uid the child's uid extends; `null` for top-level resources. */
  readonly parent: ResourceKind | null;
  /** True when some instances are top level even though others have a parent (built-in roles). */
  readonly mayBeTopLevel?: boolean;
  readonly v1: VersionSurface;
  readonly v2: VersionSurface;
  readonly fields: readonly FieldRule[];
  readonly notes?: readonly (Rule & { readonly text: string })[];
}
