/**
 * List readers: functions handed the path of any list, that read its records in one place
 * (`list<T>(path)` returning `body.items`, `findOne(path, name)` over `api('GET', path)`). The v1
 * envelope key is `items` for every kind; v2 names it after the collection, so such a function
 * is migrated once for all its callers: the key read from the path, every page gathered.
 */
import { ts } from 'ts-morph';
import { V1_LIST_KEYS } from '../contract/index.js';
import { ARRAY_OF_ARRAY, ELEMENT_OF_ARRAY } from './data-flow.js';
import { returnedExpressions, unwrap } from './static-text.js';
import type { AnswerReader, Transport, Wrapper, WrapperFunction } from './wrappers.js';
import { pagedExpression } from './answers.js';

/** Where a function reads the records of the body: `body.items`, or `{ items }` taken apart. */
export type RecordsAccess = ts.PropertyAccessExpression | ts.BindingElement;

export interface RecordsRead {
  /** The `X.items` reads of the parsed body. */
  reads: RecordsAccess[];
  /** What a caller gets: the records, or one of them (`.find(...)`). */
  gives: 'array' | 'resource';
  /** The request inside the function, which each page repeats. */
  transport: ts.CallExpression;
  /** The client and wrapper underneath, to gather pages in the form the function reads. */
  client: Transport['client'];
  via?: Wrapper;
  /** ofetch's `.raw(...)` underneath: each page is a response, its body in `_data`. */
  raw?: boolean;
  urlNode: ts.Expression;
  /** The parameter that holds the list's path: its last segment names the v2 key. */
  pathName: string;
  /** Inline body types with an `items` member (`as { items: T[] }`), keyed by collection on v2. */
  types: ts.TypeLiteralNode[];
  /** The body's type given as the transport's type argument (`api<List<T>>(...)`), and its record type. */
  typeArgument?: { node: ts.TypeReferenceNode; record: ts.TypeNode };
}

/** The records wrapper a function is, when it reads `.items` of its answer and returns what it made of them. */
export function recordsRead(fn: WrapperFunction, call: ts.CallExpression, transport: Transport, reader: AnswerReader, pathParam: number, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Pick<Wrapper, 'returns' | 'records'> | undefined {
  const reads: RecordsAccess[] = [];
  const types: ts.TypeLiteralNode[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && V1_LIST_KEYS.has(node.name.text) && reader.isBody(node.expression)) reads.push(node);
    // const { items } = await api('GET', path)
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && reader.isBody(node.initializer)) {
      for (const element of node.name.elements) if (V1_LIST_KEYS.has((element.propertyName ?? element.name).getText())) reads.push(element);
    }
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && ts.isTypeLiteralNode(node.type) && reader.isBody(node.expression)) types.push(node.type);
    if (ts.isVariableDeclaration(node) && node.type && ts.isTypeLiteralNode(node.type) && node.initializer && reader.isBody(node.initializer)) types.push(node.type);
    // `.then((body: { items: T[] }) => body.items)`
    if (ts.isParameter(node) && node.type && ts.isTypeLiteralNode(node.type) && ts.isIdentifier(node.name) && reader.isBody(node.name)) types.push(node.type);
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  const path = fn.parameters[pathParam]?.name;
  if (reads.length === 0 || !path || !ts.isIdentifier(path)) return undefined;
  const results = returnedExpressions(fn).map((e) => resultOf(e, reads, declarationOf));
  const gives = results[0];
  if (!gives || results.some((r) => r !== gives)) return undefined;
  // The body's type is the transport's type argument (`api<List<T>>(...)`) or its parse's (`.json<List<T>>()`).
  const chained = call.parent && ts.isPropertyAccessExpression(call.parent) && call.parent.name.text === 'json' && ts.isCallExpression(call.parent.parent) ? call.parent.parent : undefined;
  const arg = call.typeArguments?.[0] ?? chained?.typeArguments?.[0];
  const typeArgument = arg && ts.isTypeReferenceNode(arg) && arg.typeArguments?.length === 1 ? { node: arg, record: arg.typeArguments[0]! } : undefined;
  return {
    returns: 'records',
    records: { reads, gives, transport: call, client: transport.client, ...(transport.via ? { via: transport.via } : {}), ...(transport.raw ? { raw: true } : {}), urlNode: transport.urlNode, pathName: path.text, types: types.filter((t) => t.members.some((m) => m.name && V1_LIST_KEYS.has(m.name.getText()))), ...(typeArgument ? { typeArgument } : {}) },
  };
}

/** Where a reader's page parameters join its request: the query object it hands on, else its URL. */
export type PageSlot = { query?: ts.Expression } | { why: string };

/**
 * A reader whose wrapper writes the query it is handed after the path (`${path}?${qs}`) would send
 * two `?` with the pages in the path: they join that query object instead, when the wrapper takes
 * an object (a string index type, or one it hands `new URLSearchParams` or `Object.entries`).
 */
export function pageSlot(records: RecordsRead, checker: ts.TypeChecker): PageSlot {
  const via = records.via;
  const handed = (via?.queryParams ?? []).filter((i) => records.transport.arguments[i]);
  if (!via || handed.length === 0) return {};
  const param = via.fn?.parameters[handed[0]!];
  if (handed.length === 1 && param && takesQueryObject(via.fn!, param, checker)) return { query: records.transport.arguments[handed[0]!]! };
  return { why: `${via.name}() writes the query it is handed after the path itself, in a form migrate-v2 cannot add the page parameters to` };
}

function takesQueryObject(fn: WrapperFunction, param: ts.ParameterDeclaration, checker: ts.TypeChecker): boolean {
  const type = checker.getNonNullableType(checker.getTypeAtLocation(param));
  if (type.flags & ts.TypeFlags.StringLike) return false;
  if (checker.getIndexInfoOfType(type, ts.IndexKind.String)) return true;
  if (!ts.isIdentifier(param.name)) return false;
  const name = param.name.text;
  const handedWhole = (node: ts.Node): boolean => {
    const arg = (ts.isNewExpression(node) && node.expression.getText() === 'URLSearchParams') || (ts.isCallExpression(node) && node.expression.getText() === 'Object.entries') ? node.arguments?.[0] : undefined;
    if (arg && ts.isIdentifier(unwrap(arg)) && (unwrap(arg) as ts.Identifier).text === name) return true;
    return ts.forEachChild(node, handedWhole) ?? false;
  };
  return Boolean(fn.body && handedWhole(fn.body));
}

/** What an expression built from the records is: the records, one of them, or something else. */
function resultOf(expression: ts.Expression, reads: readonly RecordsAccess[], declarationOf: (n: ts.Node) => ts.Declaration | undefined, depth = 0): RecordsRead['gives'] | undefined {
  const n = unwrap(expression);
  if (depth > 8) return undefined;
  const next = (e: ts.Expression) => resultOf(e, reads, declarationOf, depth + 1);
  if (reads.includes(n as ts.PropertyAccessExpression)) return 'array';
  if (ts.isIdentifier(n)) {
    const d = declarationOf(n);
    if (d && ts.isBindingElement(d) && reads.includes(d)) return 'array';
    return d && ts.isVariableDeclaration(d) && ts.isIdentifier(d.name) && d.initializer ? next(d.initializer) : undefined;
  }
  if (ts.isElementAccessExpression(n)) return next(n.expression) === 'array' ? 'resource' : undefined;
  if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return undefined;
  const method = n.expression.name.text;
  if (method === 'then') {
    const callback = n.arguments[0];
    const returned = callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? returnedExpressions(callback) : [];
    return returned.length === 1 ? next(returned[0]!) : undefined;
  }
  const over = next(n.expression.expression);
  if (over !== 'array') return undefined;
  if (ELEMENT_OF_ARRAY.has(method)) return 'resource';
  return ARRAY_OF_ARRAY.has(method) ? 'array' : undefined;
}

/** The request a list reader repeats for each page, and the form its pages answer in. */
export function pagedRecords(records: RecordsRead): ReturnType<typeof pagedExpression> {
  return pagedExpression({ call: records.transport, client: records.client, ...(records.via ? { via: records.via } : {}), ...(records.raw ? { raw: true } : {}) });
}
