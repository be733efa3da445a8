/**
 * A v1 list answered every record; a v2 list answers a page. A migrated list call whose records
 * are read is wrapped in a small helper written into the file (see file-helpers.ts) that follows
 * nextPageToken and answers every record, as v1 did. A list read only for its size asks for one
 * page and reads `totalCount` instead. What cannot be wrapped keeps a note saying why.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { ENVELOPE, LIST_CONTRACT, V1_LIST_KEYS } from '../src/contract/index.js';
import { addToObject, appendQuery, forEachNode } from './helpers.js';
import { unwrap } from '../src/codemod/static-text.js';
import { addHelper, PAGE_HELPER_NAMES, pageHelper, WITH_PAGE_HELPER, withPageHelper } from './file-helpers.js';
import { isNewUrl } from '../src/codemod/analysis.js';
import { pagedExpression, type PageKind } from '../src/codemod/answers.js';

const v1Key = (call: V1Call) => call.resource.v1.endpoints.list!.envelopeKey;
const HELPER_NAMES = new Set(Object.values(PAGE_HELPER_NAMES));

/** `X.items` and `X.totalCount` where X is the list's envelope, for each list call of the file. */
function envelopeReads(ctx: TransformContext): Map<V1Call, ts.PropertyAccessExpression[]> {
  const out = new Map<V1Call, ts.PropertyAccessExpression[]>();
  forEachNode(ctx.sf, (node) => {
    if (!ts.isPropertyAccessExpression(node) || (node.name.text !== ENVELOPE.totalCount && !V1_LIST_KEYS.has(node.name.text))) return;
    const shape = ctx.shapeOf(node.expression);
    if (shape?.kind !== 'envelope' || shape.call?.operation !== 'list' || (node.name.text !== v1Key(shape.call) && node.name.text !== ENVELOPE.totalCount)) return;
    out.set(shape.call, [...(out.get(shape.call) ?? []), node]);
  });
  return out;
}

/** `items.length`, or a `totalCount` already read: the list's size, not its records. */
function readsSize(read: ts.PropertyAccessExpression): boolean {
  return read.name.text === ENVELOPE.totalCount || (ts.isPropertyAccessExpression(read.parent) && read.parent.name.text === 'length');
}

/** `everyPage((page) => call, ...)`: a call an earlier run already wrapped. */
function wrapped(node: ts.Expression): boolean {
  const fn = node.parent;
  const outer = fn?.parent;
  return Boolean(fn && ts.isArrowFunction(fn) && outer && ts.isCallExpression(outer) && ts.isIdentifier(outer.expression) && HELPER_NAMES.has(outer.expression.text));
}

/** Whether the body is taken apart or handed on somewhere the item reads do not show. */
function escapes(ctx: TransformContext, call: V1Call): boolean {
  if (ctx.file.flow.takesApart(call)) return true;
  let found = false;
  forEachNode(ctx.sf, (node) => {
    if (found || !ts.isReturnStatement(node) || !node.expression) return;
    const shape = ctx.shapeOf(node.expression);
    if (shape && 'call' in shape && shape.call === call) found = true;
  });
  return found;
}

/** `fetch(url)` where `url` holds a `new URL(...)`. */
function holdsUrlObject(ctx: TransformContext, url: ts.Expression): boolean {
  const n = unwrap(url);
  const d = ts.isIdentifier(n) ? ctx.analysis.text.declarationOf(n) : undefined;
  return Boolean(d && ts.isVariableDeclaration(d) && d.initializer && isNewUrl(d.initializer));
}

/** A name for the page parameter that the wrapped call does not already use. */
export function pageParameter(ctx: TransformContext, node: ts.Node): string {
  const used = new Set<string>();
  forEachNode(node, (n) => {
    if (ts.isIdentifier(n)) used.add(n.text);
  });
  let name = 'page';
  for (let i = 2; used.has(name); i++) name = `page${i}`;
  return name;
}

export const pagination: Transform = {
  name: 'pagination',
  description: 'v1 lists that answered every record -> every v2 page gathered by a small helper in the file; a list read for its size -> Number(totalCount)',
  apply(ctx) {
    const reads = envelopeReads(ctx);
    const helpers = new Set<PageKind>();
    const countOnly = new Set<V1Call>();
    for (const call of ctx.calls) {
      // A list reader gathers the pages itself (list-readers.ts).
      if (call.operation !== 'list' || call.resource.v1.endpoints.list!.paginated || call.via?.records) continue;
      const seen = reads.get(call) ?? [];
      if (seen.length > 0 && seen.every(readsSize) && !escapes(ctx, call)) {
        countOnly.add(call);
        continue;
      }
      const target = pagedExpression(call);
      if ('node' in target && wrapped(target.node)) continue;
      if ('why' in target) {
        ctx.todo(call.call, `v2 lists return one page (${LIST_CONTRACT.pageSize.default} by default, ${LIST_CONTRACT.pageSize.max} at most): ${target.why}`);
        continue;
      }
      const page = pageParameter(ctx, target.node);
      const options = call.query && ts.isPropertyAssignment(call.query) ? unwrap(call.query.initializer) : undefined;
      if (call.query && !(options && ts.isObjectLiteralExpression(options))) {
        ctx.todo(call.call, `v2 lists return one page (${LIST_CONTRACT.pageSize.default} by default, ${LIST_CONTRACT.pageSize.max} at most): this call's query parameters are built elsewhere, so the page parameters cannot join them; follow nextPageToken by hand`);
        continue;
      }
      const start = target.node.getStart(ctx.sf);
      ctx.edit(start, start, `${PAGE_HELPER_NAMES[target.kind]}((${page}) => `);
      ctx.edit(target.node.end, target.node.end, `, '${call.resource.v2.endpoints.list!.envelopeKey}')`);
      // A query option replaces the URL's query (got, ky): the page parameters join the option instead.
      if (options && ts.isObjectLiteralExpression(options)) addToObject(ctx, options, `...Object.fromEntries(new URLSearchParams(${page}))`);
      else if (holdsUrlObject(ctx, call.urlNode)) {
        // A URL object may get its query at run time (`url.searchParams.set(...)`): the helper adds the page to whatever it holds.
        ctx.edit(call.urlNode.getStart(ctx.sf), call.urlNode.getStart(ctx.sf), `${WITH_PAGE_HELPER}(`);
        ctx.edit(call.urlNode.end, call.urlNode.end, `, ${page})`);
        addHelper(ctx, WITH_PAGE_HELPER, withPageHelper);
      } else appendQuery(ctx, call.urlNode, `\${${page}}`, true);
      helpers.add(target.kind);
    }
    for (const kind of helpers) addHelper(ctx, PAGE_HELPER_NAMES[kind], (typed, eol) => pageHelper(kind, PAGE_HELPER_NAMES[kind], typed, eol));
    for (const call of countOnly) {
      for (const read of reads.get(call)!) {
        if (read.name.text === ENVELOPE.totalCount || ctx.isClaimed(read.name)) continue;
        const start = read.getStart(ctx.sf);
        ctx.edit(start, start, 'Number(');
        ctx.edit(read.expression.end, read.parent.end, `.${ENVELOPE.totalCount})`);
        ctx.claim(read.name);
      }
    }
  },
};
