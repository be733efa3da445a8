/**
 * A v1 list answered every record; a v2 list answers a page. A migrated list call whose records
 * are read is wrapped in a small helper written into the file (see file-helpers.ts) that follows
 * nextPageToken and answers every record, as v1 did. A list read only for its size asks for one
 * page and reads `totalCount` instead. What cannot be wrapped keeps a note saying why.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { ENVELOPE, LIST_CONTRACT } from '../src/contract/index.js';
import { addToObject, appendQuery, forEachNode } from './helpers.js';
import { envelopeReads, queryObjectsOf } from '../src/codemod/paging.js';
import { HOLE, unwrap } from '../src/codemod/static-text.js';
import { addHelper, PAGE_HELPER_NAMES, pageCallOpening, pageHelper, WITH_PAGE_HELPER, withPageHelper } from './file-helpers.js';
import { isNewUrl } from '../src/codemod/analysis.js';
import type { PageKind } from '../src/codemod/answers.js';

const HELPER_NAMES = new Set(Object.values(PAGE_HELPER_NAMES));

/** `everyPage((page) => call, ...)`: a call an earlier run already wrapped. */
function wrapped(node: ts.Expression): boolean {
  const fn = node.parent;
  const outer = fn?.parent;
  return Boolean(fn && ts.isArrowFunction(fn) && outer && ts.isCallExpression(outer) && ts.isIdentifier(outer.expression) && HELPER_NAMES.has(outer.expression.text));
}

/** `fetch(url)` where `url` holds a `new URL(...)`. */
function holdsUrlObject(ctx: TransformContext, url: ts.Expression): boolean {
  const n = unwrap(url);
  if (isNewUrl(n)) return true;
  const d = ts.isIdentifier(n) ? ctx.analysis.text.declarationOf(n) : undefined;
  return Boolean(d && ts.isVariableDeclaration(d) && d.initializer && isNewUrl(d.initializer));
}

/** The page parameters as an object, for a query given as one (got's `searchParams`, a wrapper's argument). */
function pageEntries(page: string): string {
  return `Object.fromEntries(new URLSearchParams(${page}))`;
}

/**
 * `client.get(Paths.groups, { 'uidp.children_of': id })` through a wrapper that builds the query
 * from its argument itself (`?${new URLSearchParams(params)}`, `url.search = ...`): a page added to
 * the path would meet a second `?`, or be dropped. The page joins the argument, or is one.
 */
function pageIntoWrapperQuery(ctx: TransformContext, call: V1Call, page: string): boolean {
  const params = call.via?.queryParams;
  if (params?.length !== 1) return false;
  const entries = pageEntries(page);
  const args = call.call.arguments;
  const arg = args[params[0]!];
  if (!arg) {
    // Only an argument that can come next: nothing to fill in before it.
    if (params[0] !== args.length || args.length === 0) return false;
    ctx.edit(args[args.length - 1]!.end, args[args.length - 1]!.end, `, ${entries}`);
    return true;
  }
  const object = unwrap(arg);
  if (ts.isObjectLiteralExpression(object)) addToObject(ctx, object, `...${entries}`);
  else {
    ctx.edit(arg.getStart(ctx.sf), arg.getStart(ctx.sf), '{ ...');
    ctx.edit(arg.end, arg.end, `, ...${entries} }`);
  }
  return true;
}

/**
 * `${path}${q}` with `q` a parameter, or `q ? \`?${q}\` : ''`: whether the URL holds a `?` is known
 * only at run time, and a `?` or `&` chosen now breaks one of the cases.
 */
function queryKnownAtRunTime(ctx: TransformContext, url: ts.Expression): boolean {
  const known = ctx.analysis.text.of(unwrap(url));
  return Boolean(known && (known.queryMaybe || (!known.text.includes('?') && known.text.endsWith(HOLE))));
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
    const helpers = new Set<PageKind>();
    const countOnly: V1Call[] = [];
    for (const call of ctx.calls) {
      const paging = ctx.analysis.listPaging(call);
      if (paging.how === 'count') countOnly.push(call);
      if (paging.how === 'none' && paging.why) ctx.todo(call.call, `v2 lists return one page (${LIST_CONTRACT.pageSize.default} by default, ${LIST_CONTRACT.pageSize.max} at most): ${paging.why}`);
      if (paging.how !== 'pages' || wrapped(paging.node)) continue;
      const page = pageParameter(ctx, paging.node);
      const start = paging.node.getStart(ctx.sf);
      // `api(\`/iam/v1/roles/${await groupId()}\`)` awaits in its URL: the function that now makes it must be async.
      ctx.edit(start, start, pageCallOpening(paging.kind, paging.node, page));
      ctx.edit(paging.node.end, paging.node.end, `, '${call.resource.v2.endpoints.list!.envelopeKey}')`);
      // A query option replaces the URL's query (got, ky): the page parameters join the option instead, each branch of a choice of two.
      const written = queryObjectsOf(call);
      if (written) for (const o of written) addToObject(ctx, o, `...${pageEntries(page)}`);
      else if (pageIntoWrapperQuery(ctx, call, page)) {
        // The wrapper builds the query from its argument: the page went there.
      } else if (holdsUrlObject(ctx, call.urlNode) || queryKnownAtRunTime(ctx, call.urlNode)) {
        // A URL object may get its query at run time (`url.searchParams.set(...)`): the helper adds the page to whatever it holds.
        ctx.edit(call.urlNode.getStart(ctx.sf), call.urlNode.getStart(ctx.sf), `${WITH_PAGE_HELPER}(`);
        ctx.edit(call.urlNode.end, call.urlNode.end, `, ${page})`);
        addHelper(ctx, WITH_PAGE_HELPER, withPageHelper);
      } else appendQuery(ctx, call.urlNode, `\${${page}}`, true);
      helpers.add(paging.kind);
    }
    for (const kind of helpers) addHelper(ctx, PAGE_HELPER_NAMES[kind], (typed, eol) => pageHelper(kind, PAGE_HELPER_NAMES[kind], typed, eol));
    const reads = countOnly.length > 0 ? envelopeReads(ctx.sf, (e) => ctx.shapeOf(e)) : new Map<V1Call, ts.PropertyAccessExpression[]>();
    for (const call of countOnly) {
      for (const read of reads.get(call) ?? []) {
        if (read.name.text === ENVELOPE.totalCount || ctx.isClaimed(read.name)) continue;
        const start = read.getStart(ctx.sf);
        ctx.edit(start, start, 'Number(');
        ctx.edit(read.expression.end, read.parent.end, `${read.questionDotToken ? '?' : ''}.${ENVELOPE.totalCount})`);
        ctx.claim(read.name);
      }
    }
  },
};
