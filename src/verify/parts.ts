/**
 * The parts an audit is made of, and how `verify --shard i/n` splits them. A part is one kind listed
 * with one ancestry filter on both versions, so that a record falls in the same part on v1 and on
 * v2 and is paired there.
 *
 * Unsharded, or without --scope, a part is a whole kind (within --scope where the kind allows it).
 * With --scope S a kind that both versions filter by ancestry is split by top-level group: the
 * records directly under S (`uidp.children_of=S`), and for each child P of S that can hold the
 * kind (a group; a repo for tags) the records under P (`uidp.descendants_of=P`). Those sets cover
 * the descendants of S once each. Without --scope the records at the top (the organisation's own
 * group, built-in roles) are reachable only by listing a whole kind, so the shards split by kind.
 *
 * A part goes to the shard a hash of its kind and uid names, whatever else exists: shards plan on
 * different machines a few seconds apart, and a group created in between must not move the others.
 */
import { createHash } from 'node:crypto';
import { LIST_PARAMS, modelledResources, type ResourceContract, type ResourceKind } from '../contract/index.js';
import type { Shard } from '../commands/options.js';
import type { ApiClient } from './http-client.js';
import { readV1, walkV2 } from './walk.js';

type AncestryParam = typeof LIST_PARAMS.childrenOf | typeof LIST_PARAMS.descendantsOf;

export interface AuditPart {
  resource: ResourceContract;
  /** Listed on each version that offers the filter; none: the whole kind. */
  filter?: { param: AncestryParam; uid: string };
}

/** One part per kind, within the scope where the kind can be scoped: the unsharded audit. */
export function wholeKinds(resources: readonly ResourceContract[], scope: string | undefined): AuditPart[] {
  return resources.map((resource) => ({ resource, ...(scope ? { filter: { param: LIST_PARAMS.descendantsOf, uid: scope } } : {}) }));
}

/** The query a part lists one version with. */
export function partFilters(part: AuditPart, version: 'v1' | 'v2'): URLSearchParams {
  const q = new URLSearchParams();
  if (part.filter && part.resource[version].endpoints.list!.filters.includes(part.filter.param)) q.set(part.filter.param, part.filter.uid);
  return q;
}

function splitsByAncestry(resource: ResourceContract): boolean {
  const lists = [resource.v1.endpoints.list!, resource.v2.endpoints.list!];
  return lists.every((l) => l.filters.includes(LIST_PARAMS.childrenOf) && l.filters.includes(LIST_PARAMS.descendantsOf));
}

/** The kinds a record of this kind can sit under: its parent's kind, that one's, and so on. */
function ancestorKinds(resource: ResourceContract): ResourceKind[] {
  const out: ResourceKind[] = [];
  for (let kind = resource.parent; kind && !out.includes(kind); kind = modelledResources().find((r) => r.kind === kind)?.parent ?? null) out.push(kind);
  return out;
}

/** The plan could not be read: the server failed a list the split depends on (as an audit's kind would be incomplete). */
export class PlanError extends Error {
  readonly code = 'E_SHARD_PLAN';
}

/** The uids of the records of a kind directly under `scope`, as either version lists them (one may miss some: drift). */
async function childUids(client: ApiClient, resource: ResourceContract, scope: string, maxPages: number): Promise<string[]> {
  const filters = new URLSearchParams({ [LIST_PARAMS.childrenOf]: scope });
  let stopped: string | undefined;
  const uids = new Set<string>();
  try {
    for (const r of await readV1(client, resource.v1.endpoints.list!, filters, maxPages)) uids.add(String(r['id']));
    ({ stopped } = await walkV2({ client, resource, filters, pageSize: 200, maxPages, onPage: (items) => items.forEach((r) => uids.add(String(r['uid']))) }));
  } catch (error) {
    // Whatever a list call throws is the server's doing here, as it is for a kind left incomplete.
    stopped = (error as Error).message;
  }
  if (stopped) throw new PlanError(`listing the ${resource.v2.collection} under ${scope}: ${stopped}`);
  return [...uids].sort();
}

/** Every part of the audit, split by top-level group under --scope (see the head of this file). */
export async function planParts(client: ApiClient, resources: readonly ResourceContract[], scope: string | undefined, maxPages: number): Promise<AuditPart[]> {
  if (!scope) return wholeKinds(resources, undefined);
  const children = new Map<ResourceKind, Promise<string[]>>();
  const childrenOf = (kind: ResourceKind): Promise<string[]> => {
    if (!children.has(kind)) children.set(kind, childUids(client, modelledResources().find((r) => r.kind === kind)!, scope, maxPages));
    return children.get(kind)!;
  };
  const parts: AuditPart[] = [];
  for (const resource of resources) {
    if (!splitsByAncestry(resource)) {
      parts.push(...wholeKinds([resource], scope));
      continue;
    }
    parts.push({ resource, filter: { param: LIST_PARAMS.childrenOf, uid: scope } });
    const parents = (await Promise.all(ancestorKinds(resource).map(childrenOf))).flat().sort();
    // v1-reference: ancestry is a prefix test on the parent's uid, so a repo's uid scopes its tags as a group's does.
    for (const uid of parents) parts.push({ resource, filter: { param: LIST_PARAMS.descendantsOf, uid } });
  }
  return parts;
}

/** The shard (1 to `count`) a part belongs to. */
export function shardOfPart(part: AuditPart, count: number): number {
  const key = `${part.resource.kind}|${part.filter?.param ?? ''}|${part.filter?.uid ?? ''}`;
  return (createHash('sha256').update(key).digest().readUInt32BE(0) % count) + 1;
}

export function partsOfShard(parts: readonly AuditPart[], shard: Shard): AuditPart[] {
  return parts.filter((p) => shardOfPart(p, shard.count) === shard.index);
}
