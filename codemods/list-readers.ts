/**
 * A function handed the path of any list, that reads its records in one place (`list<T>(path)`
 * returning `body.items`): v1 named every list's records `items` and answered them all at once;
 * v2 names them after the collection and answers a page at a time. Once all its calls migrate
 * (the analysis keeps them together), the function reads the key from the path it is handed and
 * gathers every page; its callers change only their paths.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import type { Wrapper } from '../src/codemod/wrappers.js';
import { addHelper, isTyped, LIST_KEY_HELPER, listKeyHelper, PAGE_HELPER_NAMES, pageCallOpening, pageHelper, WITH_PAGE_HELPER, withPageHelper } from './file-helpers.js';
import { pageParameter } from './pagination.js';
import { queryOption } from '../src/codemod/v1-calls.js';
import { pagedRecords, pageSlot } from '../src/codemod/list-readers.js';
import { clientFieldRenames } from '../src/contract/index.js';
import { arrayElementType, namedMembers } from '../src/codemod/resource-types.js';
import { functionOf, givesBackItsArgument } from '../src/codemod/static-text.js';
import { hasModifier } from '../src/codemod/module-shape.js';

/** The list readers whose calls all migrate, of this file (`here`) or of any. */
function migratingReaders(ctx: TransformContext, here = true): Wrapper[] {
  const out: Wrapper[] = [];
  for (const wrapper of ctx.analysis.wrappers.byFunction.values()) {
    if (!wrapper.records || (here && wrapper.fn?.getSourceFile() !== ctx.sf)) continue;
    const calls = ctx.analysis.plan.calls.filter((c) => c.via === wrapper);
    if (calls.length > 0 && calls.every((c) => ctx.analysis.plan.migrates(c))) out.push(wrapper);
  }
  return out;
}

function migrateReader(ctx: TransformContext, wrapper: Wrapper): void {
  const records = wrapper.records!;
  const key = `${LIST_KEY_HELPER}(${records.pathName})`;
  const target = pagedRecords(records);
  if ('why' in target) {
    ctx.todo(records.transport, `v2 lists return one page at a time: ${target.why}`);
    return;
  }
  const page = pageParameter(ctx, target.node);
  const start = target.node.getStart(ctx.sf);
  ctx.edit(start, start, pageCallOpening(target.kind, target.node, page, givesAwaitedValue(target.node, (n) => ctx.analysis.text.declarationOf(n))));
  ctx.edit(target.node.end, target.node.end, `, ${key})`);
  const inUrl = addPageParameters(ctx, records, page);
  for (const read of records.reads) {
    if (ts.isBindingElement(read)) {
      // `{ items }` -> `{ [listKey(path)]: items = [] }`: a body keyed by collection types the key as possibly missing.
      if (read.propertyName) ctx.replace(read.propertyName, `[${key}]`);
      else ctx.edit(read.name.getStart(ctx.sf), read.name.getStart(ctx.sf), `[${key}]: `);
      if (!read.initializer) ctx.edit(read.name.end, read.name.end, ' = []');
      ctx.claim(read);
      continue;
    }
    // `body.items` -> `(body[listKey(path)] ?? [])`: a key read by index may be missing to the checker, and an empty list may leave it out.
    const cast = indexCast(ctx, read, records);
    ctx.edit(read.getStart(ctx.sf), read.getStart(ctx.sf), cast ? '((' : '(');
    ctx.edit(read.expression.end, read.end, `${cast ? `${cast})` : ''}[${key}] ?? [])`);
    ctx.claim(read.name);
  }
  // `as { items: T[] }`: one member, keyed by collection now.
  for (const type of records.types) {
    const member = type.members[0];
    if (type.members.length === 1 && member?.name) ctx.replace(member.name, '[key: string]');
  }
  // `api<List<T>>(...)`: a v2 body keys the records by collection.
  const typed = records.typeArgument;
  if (typed) ctx.replace(typed.node, `{ [key: string]: ${ctx.textOf(typed.record)}[] }`);
  addHelper(ctx, PAGE_HELPER_NAMES[target.kind], (typed, eol) => pageHelper(target.kind, PAGE_HELPER_NAMES[target.kind], typed, eol));
  addHelper(ctx, LIST_KEY_HELPER, listKeyHelper);
  if (inUrl) addHelper(ctx, WITH_PAGE_HELPER, withPageHelper);
}

/**
 * `data.items` where `data` is typed by a list type that stays as it is (`const data: ListResponse<T>`,
 * shared by every kind the reader is handed): TypeScript refuses to index it by a key known only at
 * run time (TS7053), so the read goes through a record of the same lists, `typeof data.items`.
 * Nothing in JavaScript, or where the type takes any key (the reader's own `as { items: T[] }` or type
 * argument, which become `{ [key: string]: T[] }`).
 */
function indexCast(ctx: TransformContext, read: ts.PropertyAccessExpression, records: NonNullable<Wrapper['records']>): string | undefined {
  // The reader's type argument (`api<List<T>>(...)`) becomes `{ [key: string]: T[] }`: what it types takes any key.
  if (!isTyped(ctx.sf) || records.typeArgument) return undefined;
  const type = ctx.analysis.checker.getTypeAtLocation(read.expression);
  if (type.flags & ts.TypeFlags.Any || type.getStringIndexType() || type.symbol?.declarations?.some((d) => records.types.includes(d as ts.TypeLiteralNode))) return undefined;
  const named = (e: ts.Expression): boolean => ts.isIdentifier(e) || (ts.isPropertyAccessExpression(e) && named(e.expression));
  return named(read.expression) ? ` as unknown as Record<string, typeof ${ctx.textOf(read.expression)}.${read.name.text}>` : ' as unknown as Record<string, never[]>';
}

/**
 * `check(await fetch(url))` of a check that is not async, itself not awaited: it gives the response,
 * where the page helper in its place gives a promise of it.
 */
function givesAwaitedValue(node: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  let outer = node.parent;
  while (ts.isParenthesizedExpression(outer)) outer = outer.parent;
  const fn = ts.isCallExpression(node) && !ts.isAwaitExpression(outer) ? functionOf(node.expression, declarationOf) : undefined;
  const handed = fn && ts.isCallExpression(node) ? node.arguments[0] : undefined;
  let given = handed;
  while (given && ts.isParenthesizedExpression(given)) given = given.expression;
  return fn !== undefined && given !== undefined && ts.isAwaitExpression(given) && !hasModifier(fn, ts.SyntaxKind.AsyncKeyword) && givesBackItsArgument(fn, declarationOf);
}

/**
 * The page parameters join the request: in the URL (`withPage(url, page)`, true), or, where a query
 * option replaces the URL's query (got and ky `searchParams`), in that option.
 */
function addPageParameters(ctx: TransformContext, records: NonNullable<Wrapper['records']>, page: string): boolean {
  const option = (records.client === 'got' || records.client === 'ky') && !records.via ? queryOption(optionsOf(records.transport)) : undefined;
  if (option) {
    const pages = `...Object.fromEntries(new URLSearchParams(${page}))`;
    if (ts.isShorthandPropertyAssignment(option)) ctx.replace(option, `${option.name.text}: { ...${option.name.text}, ${pages} }`);
    else ctx.replace(option.initializer, `{ ...${ctx.textOf(option.initializer)}, ${pages} }`);
    return false;
  }
  // A wrapper that writes the query it is handed after the path: the pages join that query.
  const slot = pageSlot(records, ctx.analysis.checker);
  if ('query' in slot && slot.query) {
    ctx.replace(slot.query, `{ ...${ctx.textOf(slot.query)}, ...Object.fromEntries(new URLSearchParams(${page})) }`);
    return false;
  }
  const url = records.urlNode;
  ctx.edit(url.getStart(ctx.sf), url.getStart(ctx.sf), `${WITH_PAGE_HELPER}(`);
  ctx.edit(url.end, url.end, `, ${page})`);
  return true;
}

/** The options object literal of a client call (`api.get(url, { searchParams })`). */
function optionsOf(call: ts.CallExpression): ts.ObjectLiteralExpression | undefined {
  const options = call.arguments[1];
  return options && ts.isObjectLiteralExpression(options) ? options : undefined;
}

/**
 * The record type a reader declares it returns (`Promise<ApiRecord[]>`), declared in this file, when
 * no one resource owns it: the reader serves several kinds, so no kind's renames are applied to it,
 * and its v1 names (id, createdAt) would read undefined on v2 unseen. It gets a note naming the kinds
 * and the renames. Asked of every reader whose calls all migrate, in whatever file it is.
 */
function noteSharedRecordType(ctx: TransformContext, wrapper: Wrapper): void {
  const element = recordTypeName(wrapper.fn?.type);
  const container = element && ctx.analysis.types.containerOf(element);
  if (!container || container.getSourceFile() !== ctx.sf || ctx.analysis.types.containers.get(container)?.some((r) => r.shape === 'resource')) return;
  const resources = [...new Set(ctx.analysis.plan.calls.filter((c) => c.via === wrapper).map((c) => c.resource))];
  const renames = new Map(resources.flatMap((r) => [...clientFieldRenames(r)]));
  const stale = namedMembers(container).flatMap(({ name }) => (renames.has(name) ? [`${name} -> ${renames.get(name)}`] : []));
  if (stale.length === 0) return;
  const kinds = resources.map((r) => r.v2.collection).join(', ');
  ctx.todo(container, `${element.getText()} holds the records of ${kinds}, which ${wrapper.name}() now reads on v2: v2 renames ${stale.join(', ')}; one kind's renames are not applied to a type several share: rename these members by hand`);
}

/** `Promise<T[]>`, `readonly T[]`, `Array<T>`: the name of T. */
function recordTypeName(type: ts.TypeNode | undefined): ts.EntityName | undefined {
  const promised = type && ts.isTypeReferenceNode(type) && type.typeName.getText() === 'Promise' ? type.typeArguments?.[0] : type;
  const element = promised && arrayElementType(promised);
  return element && ts.isTypeReferenceNode(element) ? element.typeName : undefined;
}

export const listReaders: Transform = {
  name: 'list-readers',
  description: 'a function that reads the records of any list it is handed (body.items) -> the v2 key read from the path, every page gathered',
  apply(ctx) {
    for (const wrapper of migratingReaders(ctx)) migrateReader(ctx, wrapper);
    for (const wrapper of migratingReaders(ctx, false)) noteSharedRecordType(ctx, wrapper);
  },
};
