/**
 * How a migrated v1 list meets v2's pages: wrapped in a page helper that asks for every page
 * (`page_size=200` and `page_token`, added at the end of its query), read for its size only (one
 * page, `Number(totalCount)`), or left as it is with a reason. Decided once here: the pagination
 * transform writes it, and the test doubles of the list expect the request it makes.
 */
import { ts } from 'ts-morph';
import { ENVELOPE, LIST_CONTRACT, LIST_PARAMS, V1_LIST_KEYS } from '../contract/index.js';
import { pagedExpression, type PageKind } from './answers.js';
import type { Shape } from './data-flow.js';
import { nodesOf } from './file-nodes.js';
import { unwrap } from './static-text.js';
import { pagedRecords } from './list-readers.js';
import type { V1Call } from './v1-calls.js';

/** The query a page helper asks for first: the largest page the contract allows. */
export const FIRST_PAGE = `${LIST_PARAMS.pageSize}=${LIST_CONTRACT.pageSize.max}`;

export type ListPaging =
  | { how: 'pages'; kind: PageKind; node: ts.Expression }
  | { how: 'count' }
  | { how: 'none'; why?: string };

const v1Key = (call: V1Call) => call.resource.v1.endpoints.list!.envelopeKey;

/** `X.items` and `X.totalCount` where X is the envelope of a list call, for each list call of a file. */
export function envelopeReads(sf: ts.SourceFile, shapeOf: (e: ts.Expression) => Shape | undefined): Map<V1Call, ts.PropertyAccessExpression[]> {
  const out = new Map<V1Call, ts.PropertyAccessExpression[]>();
  for (const node of nodesOf(sf).of<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression)) {
    if (node.name.text !== ENVELOPE.totalCount && !V1_LIST_KEYS.has(node.name.text)) continue;
    const shape = shapeOf(node.expression);
    if (shape?.kind !== 'envelope' || shape.call?.operation !== 'list' || (node.name.text !== v1Key(shape.call) && node.name.text !== ENVELOPE.totalCount)) continue;
    out.set(shape.call, [...(out.get(shape.call) ?? []), node]);
  }
  return out;
}

/** `items.length`, or a `totalCount` already read: the list's size, not its records. */
function readsSize(read: ts.PropertyAccessExpression): boolean {
  return read.name.text === ENVELOPE.totalCount || (ts.isPropertyAccessExpression(read.parent) && read.parent.name.text === 'length');
}

/** Whether the body is taken apart or handed on somewhere the item reads do not show. */
function escapes(sf: ts.SourceFile, call: V1Call, shapeOf: (e: ts.Expression) => Shape | undefined, takesApart: (call: V1Call) => boolean): boolean {
  if (takesApart(call)) return true;
  return nodesOf(sf)
    .of<ts.ReturnStatement>(ts.SyntaxKind.ReturnStatement)
    .some((node) => {
      const shape = node.expression && shapeOf(node.expression);
      return shape !== undefined && 'call' in shape && shape.call === call;
    });
}

/**
 * The object literals a call's query option is written as: one, or each branch of a choice of two
 * (`parent ? { 'uidp.children_of': parent } : {}`); undefined when it is built elsewhere.
 */
export function queryObjectsOf(call: Pick<V1Call, 'query'>): ts.ObjectLiteralExpression[] | undefined {
  const options = call.query && ts.isPropertyAssignment(call.query) ? unwrap(call.query.initializer) : undefined;
  const written = options && ts.isConditionalExpression(options) ? [unwrap(options.whenTrue), unwrap(options.whenFalse)] : options ? [options] : [];
  return written.length > 0 && written.every(ts.isObjectLiteralExpression) ? written : undefined;
}

/** How a plain list call (not one through a list reader) meets v2's pages. */
export function listPaging(call: V1Call, reads: readonly ts.PropertyAccessExpression[], escaping: () => boolean): ListPaging {
  if (call.operation !== 'list' || call.resource.v1.endpoints.list!.paginated || call.via?.records) return { how: 'none' };
  if (reads.length > 0 && reads.every(readsSize) && !escaping()) return { how: 'count' };
  const target = pagedExpression(call);
  if ('why' in target) return { how: 'none', why: target.why };
  if (call.query && !queryObjectsOf(call)) return { how: 'none', why: "this call's query parameters are built elsewhere, so the page parameters cannot join them; follow nextPageToken by hand" };
  return { how: 'pages', ...target };
}

/** The list paging of every list call of a file, from its envelope reads. */
export function filePaging(sf: ts.SourceFile, calls: readonly V1Call[], shapeOf: (e: ts.Expression) => Shape | undefined, takesApart: (call: V1Call) => boolean): Map<V1Call, ListPaging> {
  const reads = envelopeReads(sf, shapeOf);
  return new Map(calls.map((call) => [call, listPaging(call, reads.get(call) ?? [], () => escapes(sf, call, shapeOf, takesApart))]));
}

/** Whether a migrated list call asks for pages (through a page helper, or the list reader it goes through). */
export function sendsPages(call: V1Call, paging: ListPaging | undefined): boolean {
  if (call.operation !== 'list') return false;
  const records = call.via?.records;
  if (records) return !('why' in pagedRecords(records));
  return paging?.how === 'pages';
}
