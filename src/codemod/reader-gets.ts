/**
 * A read of one record by `?id=` through a list reader (`one(api, 'iam/v1/identities', { id })`,
 * `const [identity] = await list('/iam/v1/identities', { id })`). v2 reads one record with Get,
 * which a function that reads lists cannot do. When the reader's request can be written at the
 * call site (its client or wrapper reachable there under the same names, the reader's parameters
 * given by the call's arguments) and it throws on 404 with the status, the call becomes that
 * request for the record's path, and the 404 becomes the reader's "none".
 */
import { ts } from 'ts-morph';
import { pagedRecords } from './list-readers.js';
import { HOLE, unwrap, type StaticText } from './static-text.js';
import type { V1Call } from './v1-calls.js';
import type { Wrapper } from './wrappers.js';

/** The request text around the record's path: `before` + path + `after`. */
export interface ReaderGet {
  before: string;
  after: string;
  /** The id the call hands in `{ id }`: it stays where it is, so edits inside it keep working. */
  id: ts.Expression;
  /** What the reader answered: one record (or undefined), or a list of it (or an empty one). */
  gives: 'array' | 'resource';
}

/** The `{ id }` a call hands the reader as its query, when that is all the query holds. */
function idOnly(call: V1Call, wrapper: Wrapper): ts.Expression | undefined {
  const params = wrapper.queryParams ?? [];
  if (params.length !== 1) return undefined;
  const arg = call.call.arguments[params[0]!];
  const object = arg && unwrap(arg);
  if (!object || !ts.isObjectLiteralExpression(object) || object.properties.length !== 1) return undefined;
  const p = object.properties[0]!;
  if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'id') return p.name;
  if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'id') return p.initializer;
  return undefined;
}

function mentions(node: ts.Node, names: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(node) && names.has(node.text)) return true;
  return ts.forEachChild(node, (child) => mentions(child, names) || undefined) ?? false;
}

function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

/** Whether a name at the call site stands for the same declaration as in the reader. */
function sameAtCallSite(name: ts.Identifier, site: ts.Node, checker: ts.TypeChecker, text: StaticText): boolean {
  const declaration = text.declarationOf(name);
  if (!declaration) return false;
  const symbol = checker.getSymbolsInScope(site, ts.SymbolFlags.Value | ts.SymbolFlags.Alias).find((s) => s.name === name.text);
  const resolved = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return Boolean(resolved && (resolved.valueDeclaration ?? resolved.declarations?.[0]) === declaration);
}

/**
 * The reader's request for one record, written for the call site; or why it cannot be. Only
 * requests that throw on 404 with the status are taken: the missing-record helper reads it.
 */
export function readerGet(call: V1Call, checker: ts.TypeChecker, text: StaticText): ReaderGet | string {
  const wrapper = call.via!;
  const records = wrapper.records!;
  const fn = wrapper.fn;
  const throwsStatus = records.via ? records.via.throws && !records.via.ownThrow : records.client !== 'fetch' && records.client !== 'undici';
  if (!throwsStatus) return `the request inside ${wrapper.name}() does not throw a 404 that carries its status`;
  const id = idOnly(call, wrapper);
  if (!fn || !id) return wrapper.query ? `it writes the query (${wrapper.query.replaceAll(HOLE, '...')}) itself` : wrapper.queryParams?.length ? 'its query holds more than the id' : 'the id is written into the path it is handed';
  const target = pagedRecords(records);
  if (!('node' in target) || target.kind !== 'body') return `${wrapper.name}() reads a response migrate-v2 does not rebuild for one record`;
  const body = target.node;
  const urlNode = records.urlNode;
  const pathParameter = fn.parameters[wrapper.pathParam];
  if (!pathParameter || !ts.isIdentifier(pathParameter.name) || !(ts.isIdentifier(unwrap(urlNode)) || ts.isConditionalExpression(unwrap(urlNode))) || !mentions(urlNode, new Set([pathParameter.name.text]))) {
    return `the URL inside ${wrapper.name}() adds more than the path it is handed`;
  }
  const typeParameters = new Set((fn.typeParameters ?? []).map((p) => p.name.text));
  const record = call.call.typeArguments?.[0]?.getText();
  const edits: { start: number; end: number; text: string }[] = [];
  let why: string | undefined;
  const visit = (node: ts.Node): void => {
    if (why) return;
    if (node === urlNode) {
      edits.push({ start: node.getStart(), end: node.end, text: '\u0000' });
      return;
    }
    if (ts.isTypeNode(node) && ts.isCallExpression(node.parent) && node.parent.typeArguments?.includes(node) && mentions(node, typeParameters)) {
      if (!record) why = `the call gives ${wrapper.name}() no type argument for the record`;
      else edits.push({ start: node.getStart(), end: node.end, text: record });
      return;
    }
    if (node.kind === ts.SyntaxKind.ThisKeyword && enclosingClass(node) !== enclosingClass(call.call)) why = `${wrapper.name}() reads this, which the call site is not in`;
    if (ts.isIdentifier(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) && !(ts.isPropertyAssignment(node.parent) && node.parent.name === node)) {
      const d = text.declarationOf(node);
      const index = d && ts.isParameter(d) ? fn.parameters.indexOf(d) : -1;
      if (index >= 0 && wrapper.queryParams?.includes(index)) {
        // `{ searchParams }`: the query that held the id is gone; the option stays, empty.
        edits.push({ start: node.getStart(), end: node.end, text: ts.isShorthandPropertyAssignment(node.parent) ? `${node.text}: undefined` : 'undefined' });
      } else if (index >= 0) {
        const arg = call.call.arguments[index];
        if (!arg) why = `the call leaves a parameter of ${wrapper.name}() to its default`;
        else edits.push({ start: node.getStart(), end: node.end, text: ts.isShorthandPropertyAssignment(node.parent) ? `${node.text}: ${arg.getText()}` : arg.getText() });
      } else if (!d || (d.getSourceFile() === fn.getSourceFile() && d.pos >= fn.pos && d.end <= fn.end) || !sameAtCallSite(node, call.call, checker, text)) {
        why = `${wrapper.name}() builds its request from ${node.text}, which the call site does not see`;
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  if (why) return why;
  let request = body.getText();
  const start = body.getStart();
  for (const e of edits.sort((a, b) => b.start - a.start)) request = request.slice(0, e.start - start) + e.text + request.slice(e.end - start);
  const [before, after] = request.split('\u0000') as [string, string];
  return { before, after, id, gives: records.gives };
}
