/**
 * Platform-wide rules of the contract: identifiers, timestamps, the v2 list contract, errors,
 * authentication and versioning. Resource tables live in resources.ts.
 */
import { assumed, documented, V1_REF, V2_DOC, VERSION_SEGMENT } from './builders.js';
import type { Rule } from './types.js';

export const IDENTIFIERS = {
  rootPattern: '[0-9a-f]{40}',
  childSegmentPattern: '[0-9a-f]{16}',
  uidPattern: '^[0-9a-f]{40}(?:/[0-9a-f]{16})*$',
  ancestry: 'prefix test on parent + "/"',
  ...documented(`${V1_REF} "Identifiers"; ${V2_DOC} §2`),
} as const;

export const TIMESTAMPS = {
  v1: {
    format: 'RFC 3339 UTC with microsecond precision',
    fractionDigits: 6,
    ...assumed(`neither document gives v1's precision; protobuf JSON emits 0, 3, 6 or 9 digits, and the emulator stores microseconds`),
  },
  v2: { format: 'ISO 8601 UTC with millisecond precision', fractionDigits: 3, ...documented(`${V2_DOC} §2`) },
  /** The verifier compares at the coarser precision: a difference below it is only one of form. */
  compareAtFractionDigits: 3,
} as const;

/** The v2 fields that say when a resource was made and last changed (the uniform shape of v2 §1). */
export const RESOURCE_TIMES = { fields: ['createTime', 'updateTime'], ...documented(`${V2_DOC} §1, §2`) } as const;

export type OrderField = 'name' | 'created_at' | 'uid';

export const LIST_CONTRACT = {
  pageSize: { default: 50, max: 200, ...documented(`${V2_DOC} §4 "Common list parameters", §8`) },
  oversizedPageSize: { behaviour: 'coerce-to-max', ...assumed(`${V2_DOC} §8: behaviour above 200 "not shown"; AIP-158 coerces`) },
  pageToken: {
    lifetimeSeconds: 3 * 24 * 3600,
    expired: 'restart-from-first-page-without-error',
    ...documented(`${V2_DOC} §8 "Page token lifetime"`),
  },
  changedQueryWithToken: {
    behaviour: 'INVALID_ARGUMENT',
    ...assumed('AIP-158: a page token used with other parameters than the ones that made it is rejected (page_size may change)'),
  },
  orderBy: {
    fields: { name: 'name', created_at: 'createTime', uid: 'uid' } satisfies Record<OrderField, string>,
    directions: ['asc', 'desc'],
    ...documented(`${V2_DOC} §4 "order_by": name, created_at, each optionally followed by desc`),
  },
  orderByUid: { ...assumed('uid ordering is not in the spec; offered as the deterministic default') },
  defaultOrder: { field: 'uid' as OrderField, ...assumed(`${V2_DOC} does not say how an unordered list is sorted`) },
  tieBreak: { field: 'uid', ...assumed(`${V2_DOC} does not say how equal sort keys are ordered`) },
  totalCount: { encoding: 'decimal-string', countsSkipped: true, ...documented(`${V2_DOC} §2 "List response envelope"`) },
  totalCountWithSkip: {
    ...assumed('totalCount is "total matches across all pages"; taken to count the skipped results too, so a walk finds totalCount - skipped'),
  },
  skipped: { echoesRequest: true, ...documented(`${V2_DOC} §4 rule 3`) },
  skipWithToken: {
    ...assumed('skip is taken to position the first page only; later pages continue from the cursor and still echo skip'),
  },
  lastPage: { nextPageToken: 'absent-or-empty', ...documented(`${V2_DOC} §2 "List response envelope"`) },
  nameFilter: { match: 'exact', ...documented(`${V2_DOC} §4 rule 4; ${V1_REF} "List filters"`) },
  unknownQueryParameter: { behaviour: 'INVALID_ARGUMENT', ...assumed('grpc-gateway rejects query parameters that name no request field') },
  repeatedQueryParameter: { behaviour: 'INVALID_ARGUMENT', ...assumed('a scalar query parameter given twice is refused rather than one of its values picked') },
  scopingOptional: {
    ...assumed(`${V2_DOC} §2 says listing roles needs no scoping parameter; the emulator makes scoping optional on every list`),
  },
} as const;

/**
 * Query parameters accepted in two spellings, as grpc-gateway does (v1-reference "List filters").
 * Key: canonical snake spelling; value: the lower camel alias.
 */
export const QUERY_ALIASES: Readonly<Record<string, string>> = {
  page_size: 'pageSize',
  page_token: 'pageToken',
  order_by: 'orderBy',
  update_mask: 'updateMask',
  'uidp.descendants_of': 'uidp.descendantsOf',
  'uidp.children_of': 'uidp.childrenOf',
  'uidp.ancestors_of': 'uidp.ancestorsOf',
};

/** Names of the list parameters, in their canonical spelling (v2 §4 "Common list parameters"). */
export const LIST_PARAMS = { pageSize: 'page_size', pageToken: 'page_token', orderBy: 'order_by', skip: 'skip', descendantsOf: 'uidp.descendants_of', childrenOf: 'uidp.children_of' } as const;
export const LIST_PARAMETERS = [LIST_PARAMS.pageSize, LIST_PARAMS.pageToken, LIST_PARAMS.orderBy, LIST_PARAMS.skip] as const;

/** The list envelope's fields besides the array (v2 §2 "List response envelope"). */
export const ENVELOPE = { nextPageToken: 'nextPageToken', totalCount: 'totalCount', skipped: 'skipped', ...documented(`${V2_DOC} §2`) } as const;

/** gRPC status codes and the HTTP status grpc-gateway maps each to (v1-reference "Errors"). */
export const GRPC_CODES = {
  OK: { code: 0, http: 200 },
  INVALID_ARGUMENT: { code: 3, http: 400 },
  DEADLINE_EXCEEDED: { code: 4, http: 504 },
  NOT_FOUND: { code: 5, http: 404 },
  ALREADY_EXISTS: { code: 6, http: 409 },
  PERMISSION_DENIED: { code: 7, http: 403 },
  RESOURCE_EXHAUSTED: { code: 8, http: 429 },
  FAILED_PRECONDITION: { code: 9, http: 400 },
  ABORTED: { code: 10, http: 409 },
  OUT_OF_RANGE: { code: 11, http: 400 },
  UNIMPLEMENTED: { code: 12, http: 501 },
  INTERNAL: { code: 13, http: 500 },
  UNAVAILABLE: { code: 14, http: 503 },
  UNAUTHENTICATED: { code: 16, http: 401 },
} as const;
export type GrpcCodeName = keyof typeof GRPC_CODES;

export const ERROR_MODEL = {
  body: 'google.rpc.Status JSON: code, message, details',
  detailTypes: {
    ErrorInfo: 'type.googleapis.com/google.rpc.ErrorInfo',
    BadRequest: 'type.googleapis.com/google.rpc.BadRequest',
    PreconditionFailure: 'type.googleapis.com/google.rpc.PreconditionFailure',
  },
  ...documented(`${V2_DOC} §7; ${V1_REF} "Errors"`),
  messagePrefix: {
    INVALID_ARGUMENT: 'Invalid argument',
    FAILED_PRECONDITION: 'Precondition failed',
  } as Partial<Record<GrpcCodeName, string>>,
  nonEmptyGroupViolationType: 'RESOURCE_NOT_EMPTY',
  v1SameModel: { ...assumed('v1 errors are taken to use the same google.rpc.Status body; both versions sit behind grpc-gateway') },
  methodNotOffered: { code: 'UNIMPLEMENTED', ...assumed('a method a path does not offer is answered with code 12, as grpc-gateway answers an unbound method') },
  serviceDomain: { default: 'platform.example', ...assumed(`${V2_DOC} §7 names the domain iam.<service_domain> without a value`) },
} as const;

/** HTTP status of every success, creates and deletes included. */
export const SUCCESS_STATUS = { http: 200, ...assumed(`${V2_DOC} §7: HTTP statuses "not shown"; grpc-gateway answers 200 for every success`) } as const;

export const AUTH = {
  scheme: 'Bearer',
  exchange: {
    path: '/sts/exchange',
    methods: ['GET', 'POST'],
    query: { audience: 'aud', identity: 'identity' },
    tokenLifetimeSeconds: 3600,
    response: ['token', 'expiry'],
    ...documented(`${V2_DOC} §4 "Token exchange", §5, §8; ${V1_REF} "Token exchange"`),
  },
  sameModelInV1AndV2: { ...documented(`${V2_DOC} §5.2, §5.3`) },
  permissions: { ...assumed(`${V2_DOC} §5: permissions per operation "not shown"; the emulator lets every valid token do everything`) },
} as const;

export const VERSIONING: Rule & { readonly v2Segment: string } = {
  v2Segment: VERSION_SEGMENT.v2,
  ...documented(`${V2_DOC} §9`),
};

export const PATCH_RULES = {
  withoutMask: { behaviour: 'fields present in the body change; omitted fields keep their values', ...documented(`${V2_DOC} §4 "Partial update" rule 1`) },
  withMask: { behaviour: 'only the named fields change; a named field missing from the body is cleared', ...documented(`${V2_DOC} §4 rule 2; AIP-134`) },
  wildcardMask: { behaviour: '* replaces every mutable field', ...documented(`${V1_REF} "v2beta1 calls not spelled out"`) },
  zeroValuesWithoutMask: {
    behaviour: 'a present field with a zero value changes too',
    ...assumed(`${V1_REF} says v2beta1 ignores zero values without a mask, ${V2_DOC} §4 (which wins) that present fields change; over REST grpc-gateway infers the mask from the body, which agrees with ${V2_DOC}`),
  },
  outputOnlyInBody: { behaviour: 'ignored', ...assumed('AIP-203: output-only fields in a request body are ignored') },
} as const;

export const DELETE_RULES = {
  nonEmptyGroup: { code: 'FAILED_PRECONDITION', ...documented(`${V2_DOC} §4, §7`) },
  referencedIdentityOrRole: {
    code: 'FAILED_PRECONDITION',
    ...assumed('deleting an identity or role that a binding still names is refused, like a group with children'),
  },
} as const;

/**
 * The renames of the uniform resource shape, applied to every resource kind: v2 §9.4 tells clients
 * to rename these wherever they hold a resource, and §1-2 give every v2 resource uid, createTime
 * and updateTime, so client types that carry them on a kind whose v1 form did not still migrate.
 */
export const UNIFORM_RENAMES = {
  renames: { id: 'uid', createdAt: 'createTime', updatedAt: 'updateTime' } as Readonly<Record<string, string>>,
  ...documented(`${V2_DOC} §9.4, §1, §2`),
  lastSeen: {
    from: 'lastSeen',
    to: 'lastSeenTime',
    ...assumed(`${V1_REF} gives lastSeen on identities only; a client type of another kind that carries it is taken to mean the same time, as §9.4 renames by name`),
  },
} as const;
