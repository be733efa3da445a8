/**
 * Path templates of the contract. A `{name}` variable binds the rest of a uid, slashes included
 * (the vendor's `{id=**}`), so a template has at most one variable and it comes last.
 */
import { RESOURCES } from './resources.js';
import { VERSION_SEGMENT } from './builders.js';
import { GRPC_CODES } from './platform.js';
import type { ApiVersion, Endpoint, Operation, ResourceContract } from './types.js';

export interface TemplateMatch {
  readonly variable?: { readonly name: string; readonly value: string };
}

function splitTemplate(template: string): { prefix: string; variable?: string } {
  const open = template.indexOf('{');
  if (open < 0) return { prefix: template };
  return { prefix: template.slice(0, open), variable: template.slice(open + 1, template.indexOf('}', open)) };
}

/** Matches a concrete path (no query) against a template; `null` when it does not fit. */
export function matchTemplate(template: string, path: string): TemplateMatch | null {
  const { prefix, variable } = splitTemplate(template);
  if (variable === undefined) return path === prefix ? {} : null;
  if (!path.startsWith(prefix) || path.length === prefix.length) return null;
  return { variable: { name: variable, value: path.slice(prefix.length) } };
}

export function fillTemplate(template: string, value?: string): string {
  const { prefix, variable } = splitTemplate(template);
  if (variable === undefined) return prefix;
  if (value === undefined) throw new Error(`template ${template} needs a value for {${variable}}`);
  return prefix + value;
}

export interface RouteEntry {
  readonly resource: ResourceContract;
  readonly version: ApiVersion;
  readonly operation: Operation;
  readonly endpoint: Endpoint;
}

/** Every endpoint of every resource, for routers and reports. */
export function allEndpoints(): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const resource of RESOURCES) {
    for (const version of ['v1', 'v2'] as const) {
      for (const [operation, endpoint] of Object.entries(resource[version].endpoints)) {
        if (endpoint) entries.push({ resource, version, operation: operation as Operation, endpoint });
      }
    }
  }
  return entries;
}

/** The collection base of a resource in a version: `/iam/v1/rolebindings`. */
export function collectionBase(resource: ResourceContract, version: ApiVersion): string {
  return `/${resource.domain}/${VERSION_SEGMENT[version]}/${resource[version].collection}`;
}

/**
 * Rewrites the v1 prefix and collection spelling of a concrete path or path prefix
 * (`/iam/v1/rolebindings/abc` -> `/iam/v2beta1/roleBindings/abc`). Returns null when the text
 * holds no v1 path of the contract.
 */
export function v1PathToV2(path: string): string | null {
  for (const resource of RESOURCES) {
    const v1Base = collectionBase(resource, 'v1');
    if (path === v1Base || path.startsWith(`${v1Base}/`) || path.startsWith(`${v1Base}?`)) {
      return collectionBase(resource, 'v2') + path.slice(v1Base.length);
    }
  }
  for (const domain of new Set(RESOURCES.map((r) => r.domain))) {
    const v1Prefix = `/${domain}/${VERSION_SEGMENT.v1}/`;
    if (path.startsWith(v1Prefix) || path === v1Prefix.slice(0, -1)) {
      return `/${domain}/${VERSION_SEGMENT.v2}/` + path.slice(v1Prefix.length);
    }
  }
  return null;
}

/** The resource whose collection a concrete path of the given version addresses, if any. */
export function resourceOfPath(path: string, version: ApiVersion): ResourceContract | undefined {
  return RESOURCES.find((r) => {
    const base = collectionBase(r, version);
    return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);
  });
}

const DOMAIN_NAMES = [...new Set(RESOURCES.map((r) => r.domain))].join('|');
// What may come before a prefix: a slash, or the start of a text or literal (a path relative to a
// client's prefixUrl, 'iam/v1/groups'); what may follow it: the path goes on, a query, the end of
// the text, a quote or a template hole.
const V1_PREFIX = new RegExp(`(^|[/'"\`])(${DOMAIN_NAMES})\\/${VERSION_SEGMENT.v1}(?=[/?#'"\`$]|$)`, 'g');
// `iam/v1/` at the start too: got and ky join a relative path to their prefixUrl. The slash after it is optional: a base URL may end without one.
const PREFIX_AT_END = new RegExp(`(?:^|\\/)(${DOMAIN_NAMES})\\/${VERSION_SEGMENT.v1}\\/?$`);

const ENDS_WITH_DOMAIN = new RegExp(`\\/(${DOMAIN_NAMES})\\/$`);

/** Whether a text ends with a domain's prefix before its version segment: `.../iam/`. */
export function endsWithDomain(text: string): boolean {
  return ENDS_WITH_DOMAIN.test(text);
}

/** The v1 version segment, as a version parameter would hold it. */
export const V1_SEGMENT = VERSION_SEGMENT.v1;

const DOMAIN_THEN_HOLE = new RegExp(`\\/(${DOMAIN_NAMES})\\/\\$\\{`);
const V1_SEGMENT_LITERAL = new RegExp(`['"\`]${VERSION_SEGMENT.v1}['"\`]`);

/** Whether a text may call v1: a v1 path in it, or a domain path whose version is chosen at run time with 'v1' at hand. */
export function mayCallV1(text: string): boolean {
  return hasV1Path(text) || (DOMAIN_THEN_HOLE.test(text) && V1_SEGMENT_LITERAL.test(text));
}

/** The v1 prefixes of the API's domains: `/iam/v1`, `/registry/v1`, ... */
export function v1Prefixes(): string[] {
  return DOMAIN_NAMES.split('|').map((d) => `/${d}/${VERSION_SEGMENT.v1}`);
}

/** Path prefixes of the API's domains, in any version: `/iam/`, `/registry/`, ... */
export function apiPathPrefixes(): string[] {
  return DOMAIN_NAMES.split('|').map((d) => `/${d}/`);
}

/** Whether a text ends with a domain's v1 prefix, so that what follows (the collection) is not in it. */
export function endsWithV1Prefix(text: string): boolean {
  return text.endsWith('/') && PREFIX_AT_END.test(text);
}

/**
 * A path piece that follows a v1 prefix written elsewhere (`'/rolebindings'` after a base URL
 * ending `/iam/v1`), with its collection spelled as v2 spells it; undefined when it needs no change.
 */
export function collectionAfterV1Prefix(before: string, piece: string): string | undefined {
  const prefix = PREFIX_AT_END.exec(before)?.[0];
  if (!prefix) return undefined;
  const v2Prefix = rewriteV1Paths(prefix);
  const whole = rewriteV1Paths(prefix + piece);
  const rewritten = whole.startsWith(v2Prefix) ? whole.slice(v2Prefix.length) : undefined;
  return rewritten !== undefined && rewritten !== piece ? rewritten : undefined;
}

/** Collections whose v2 spelling differs from v1's: [v1, v2]. */
export function renamedCollections(): [string, string][] {
  return RESOURCES.filter((r) => r.v1.collection !== r.v2.collection).map((r) => [r.v1.collection, r.v2.collection]);
}

/** The query that reads one record in v1 (`?id=`), from the resource's read-one rule. */
/** How a read of one missing record changes, as notes say it: "v2 answers a missing group with 404 where v1 answered an empty list". */
export function missingRecordChange(resource: ResourceContract): string {
  return `v2 answers a missing ${resource.singular} with ${GRPC_CODES.NOT_FOUND.http} where v1 answered an empty list`;
}

export function readOneQuery(resource: ResourceContract): string {
  return `?${resource.v1.readOne?.filter ?? 'id'}=`;
}

/** Whether a text holds a v1 path prefix of the platform. */
export function hasV1Path(text: string): boolean {
  V1_PREFIX.lastIndex = 0;
  return V1_PREFIX.test(text);
}

/**
 * Rewrites every v1 prefix in a text (a string literal, a template's text) to v2beta1, with the
 * collection spellings that changed (`rolebindings` -> `roleBindings`).
 */
export function rewriteV1Paths(text: string): string {
  let out = text.replace(V1_PREFIX, (_m, lead: string, domain: string) => `${lead}${domain}/${VERSION_SEGMENT.v2}`);
  for (const resource of RESOURCES) {
    if (resource.v1.collection === resource.v2.collection) continue;
    const from = `${resource.domain}/${VERSION_SEGMENT.v2}/${resource.v1.collection}`;
    out = out.replace(new RegExp(`(^|[/'"\`])${from.replace(/[/]/g, '\\/')}(?=[/?#'"\`$]|$)`, 'g'), (_m, lead: string) => `${lead}${resource.domain}/${VERSION_SEGMENT.v2}/${resource.v2.collection}`);
  }
  return out;
}
