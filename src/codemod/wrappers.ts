/**
 * Transport wrappers: functions and methods of the program through which its HTTP calls go
 * (`get<T>(path)`, `send(method, path, body)`, an SDK's private `call<T>(method, path, body)`).
 * A function is one when a parameter of it reaches the URL of a recognised HTTP call (or of
 * another wrapper) as the path, and what it returns is that call's response or its parsed body.
 * A call of a wrapper with a v1 path is then a v1 call like any other, with its method and body
 * taken from the arguments.
 */
import { ts } from 'ts-morph';
import { collectionBase, GRPC_CODES, RESOURCES, type HttpMethod } from '../contract/index.js';
import { functionOf, givesBackItsArgument, HOLE, isConst, PARAMETER_MARK, queryKeysOf, returnedExpressions, StaticText, unwrap, type Evaluated, type FunctionWithBody } from './static-text.js';
import { recordsRead, type RecordsRead } from './list-readers.js';
import type { DeclaredWrapper } from './config.js';
import { statusReadIn } from './read-one.js';
import { isProjectSource } from './resource-types.js';
import { methodFromOptions, optionsOf, prefixed, queryOption, type Client } from './v1-calls.js';
import { answersBody, BODY_MEMBERS } from './answers.js';
import { nodesOf } from './file-nodes.js';
import { functionName } from './places.js';
import { holdsNothing, isFallback, propertyOf, thenParameter } from './syntax.js';

export type WrapperFunction = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

export interface Wrapper {
  /** The program's function; none for a wrapper declared in the config (a package's). */
  fn?: WrapperFunction;
  name: string;
  /** The HTTP client underneath, and the call of it that sends the request (of the innermost wrapper); none for a wrapper the config declares. */
  client: Client;
  transport?: ts.CallExpression;
  pathParam: number;
  /** What the wrapper puts before the path (its base URL). */
  prefix: Evaluated;
  methodParam?: number;
  /** The parameter whose request options the wrapper hands its client (`(input, init) => fetch(input, init)`): they name each call's method. */
  initParam?: number;
  /** The method when the wrapper fixes it, and the node in it that names it (`'PUT'`, axios's `put`). */
  method?: HttpMethod;
  methodNode?: ts.Node;
  bodyParam?: number;
  /** The member of the options parameter (`initParam`) the wrapper sends as the body (`init.body`, `{ data }`): read from each call's options. */
  bodyField?: string;
  /** Parameters that may carry the query the wrapper adds to the URL at run time (`list(path, { name })`). */
  queryParams?: number[];
  /** The query the wrapper hands the one it calls, written in it (`send(path, { id })`: `id=HOLE`). */
  query?: string;
  /** The query the wrapper (or one it calls) writes after the path it is handed (`${path}?name=${name}`): nothing can follow that path. */
  ownQuery?: string;
  /** The call's parsed body, the client's response itself, or what it made of a list's records (list-readers.ts). */
  returns: 'body' | 'response' | 'records';
  records?: RecordsRead;
  /** Where the wrapper parses a fetch or undici body (`res.json()`), for answers that have none. */
  parse?: ts.CallExpression;
  /** A non-2xx answer is thrown (axios, got, ky, or a wrapper that checks and throws). */
  throws: boolean;
  /** The wrapper (or one it calls) throws errors that do not say their HTTP status, and cannot be made to. */
  ownThrow: boolean;
  /** Errors thrown where the response's status was tested, that do not carry it yet: a read of one record tags them. */
  untagged: Tag[];
}

/** What a call sends, as far as wrappers need it: found by v1-calls for clients, by `viaWrapper` for wrappers. */
export interface Transport {
  client: Client;
  method: HttpMethod;
  methodNode?: ts.Node;
  /** The expression that names the method, when it is not a literal the call site fixes. */
  methodExpression?: ts.Expression;
  /** Options handed in or spread in, which may name the method (`fetch(url, init)`, `{ ...init, headers }`). */
  initExpression?: ts.Expression;
  urlNode: ts.Expression;
  prefix: Evaluated;
  body?: ts.Expression;
  options?: ts.ObjectLiteralExpression;
  via?: Wrapper;
  /** The query a wrapper's call hands it apart from the path (`k=HOLE&...`). */
  query?: string;
  /** ofetch's `.raw(...)`: it answers the response, its parsed body in `_data`. */
  raw?: boolean;
}

/** `k=HOLE&...` for the keys of a query object a call hands its wrapper (followed to a local object), `HOLE` when unknown. */
function queryKeys(arg: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string {
  let n = unwrap(arg);
  if (ts.isIdentifier(n)) {
    const d = declarationOf(n);
    if (d && ts.isVariableDeclaration(d) && d.initializer) n = unwrap(d.initializer);
  }
  return queryKeysOf(n) ?? HOLE;
}

/**
 * The query a wrapper's call hands the wrapper it goes through: the arguments that are the calling
 * function's own parameters come from its callers; the rest it writes itself (`send(path, { id })`,
 * a read of one record by list), and they belong to every URL it asks for.
 */
function handedQuery(fn: WrapperFunction, call: ts.CallExpression, via: Wrapper | undefined, declarationOf: (n: ts.Node) => ts.Declaration | undefined): { params: number[]; written: string[] } {
  const params: number[] = [];
  const written: string[] = [];
  for (const i of via?.queryParams ?? []) {
    const arg = call.arguments[i];
    if (!arg) continue;
    const param = parameterIndex(fn, arg, declarationOf);
    if (param !== undefined) params.push(param);
    else written.push(queryKeys(arg, declarationOf));
  }
  return { params, written };
}

/**
 * `?id=\u00021\u0002&view=full` after a wrapper's path: `id=HOLE&view=full`, when every key is
 * written out (a parameter in a key's place, `?${query}`, says nothing of its keys).
 */
function writtenQuery(query: string): string | undefined {
  const pairs = query.slice(1).split('&');
  const marked = new RegExp(`${MARK}\\d+${MARK}`, 'g');
  if (pairs.some((pair) => !/^[\w.-]+=/.test(pair))) return undefined;
  return pairs.map((pair) => pair.replace(marked, HOLE)).join('&');
}

/** An error thrown after a status test (`if (!res.ok) throw new Error(...)`), and the status it could carry. */
export interface Tag {
  error: ts.NewExpression;
  status: string;
}

const MARK = PARAMETER_MARK;

/** Whether the name a callee starts from is imported from the module given. */
function importedFrom(callee: ts.Expression, module: string, checker: ts.TypeChecker): boolean {
  let root = callee;
  while (ts.isPropertyAccessExpression(root)) root = root.expression;
  const declaration = ts.isIdentifier(root) ? checker.getSymbolAtLocation(root)?.declarations?.[0] : undefined;
  let n: ts.Node | undefined = declaration;
  while (n && !ts.isImportDeclaration(n)) n = n.parent;
  return Boolean(n && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === module);
}

/** The index of the parameter a node names directly, if it names one of the function's. */
function parameterIndex(fn: WrapperFunction, node: ts.Node | undefined, declarationOf: (n: ts.Node) => ts.Declaration | undefined): number | undefined {
  const n = node && ts.isExpression(node) ? unwrap(node) : node;
  if (!n || !ts.isIdentifier(n)) return undefined;
  const d = declarationOf(n);
  const i = d && ts.isParameter(d) ? fn.parameters.indexOf(d) : -1;
  return i >= 0 ? i : undefined;
}

/** The parameter an expression is built from (`JSON.stringify(body)`, `body ? JSON.stringify(body) : undefined`). */
function parameterWithin(fn: WrapperFunction, node: ts.Node | undefined, declarationOf: (n: ts.Node) => ts.Declaration | undefined): number | undefined {
  if (!node) return undefined;
  const direct = parameterIndex(fn, node, declarationOf);
  if (direct !== undefined) return direct;
  return ts.forEachChild(node, (child) => parameterWithin(fn, child, declarationOf));
}

/** A member of an options parameter a wrapper reads: `opts.method`, `opts?.body`, `opts['method']`, or `{ method = 'GET' }` taken apart in the parameter list. */
interface OptionRead {
  param: number;
  field: string;
  /** What stands in when the caller's options name none (`opts.method ?? 'GET'`, `{ method = 'GET' }`). */
  fallback?: ts.Expression;
}

/** The member of one of the function's parameters a node reads, with its fallback; undefined for anything else. */
function optionRead(fn: WrapperFunction, node: ts.Node, declarationOf: (n: ts.Node) => ts.Declaration | undefined): OptionRead | undefined {
  const n = ts.isExpression(node) ? unwrap(node) : node;
  if (ts.isBinaryExpression(n) && isFallback(n.operatorToken.kind)) {
    const read = optionRead(fn, n.left, declarationOf);
    return read && !read.fallback ? { ...read, fallback: n.right } : undefined;
  }
  if ((ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) || (ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression))) {
    const param = parameterIndex(fn, n.expression, declarationOf);
    return param === undefined ? undefined : { param, field: ts.isPropertyAccessExpression(n) ? n.name.text : (n.argumentExpression as ts.StringLiteral).text };
  }
  const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
  // `const method = opts.method ?? 'GET'` in the function.
  if (d && ts.isVariableDeclaration(d) && isConst(d) && d.initializer && ts.isIdentifier(d.name)) return optionRead(fn, d.initializer, declarationOf);
  if (!d || !ts.isBindingElement(d) || d.dotDotDotToken || !ts.isObjectBindingPattern(d.parent)) return undefined;
  const param = takenApart(fn, d.parent.parent, declarationOf);
  const key = d.propertyName ?? d.name;
  if (param === undefined || !(ts.isIdentifier(key) || ts.isStringLiteral(key))) return undefined;
  return { param, field: key.text, ...(d.initializer ? { fallback: d.initializer } : {}) };
}

/** The parameter an object pattern takes apart: `({ method }) =>`, or `const { method } = opts` (`opts ?? {}`) in the function. */
function takenApart(fn: WrapperFunction, holder: ts.Node, declarationOf: (n: ts.Node) => ts.Declaration | undefined): number | undefined {
  if (ts.isParameter(holder)) return fn.parameters.indexOf(holder) >= 0 ? fn.parameters.indexOf(holder) : undefined;
  if (!ts.isVariableDeclaration(holder) || !isConst(holder) || !holder.initializer) return undefined;
  const value = unwrap(holder.initializer);
  return parameterIndex(fn, ts.isBinaryExpression(value) && isFallback(value.operatorToken.kind) ? value.left : value, declarationOf);
}

/**
 * `init.body === undefined ? undefined : JSON.stringify(init.body)`: the one member of an options
 * parameter a body is built from. Undefined when the body reads anything else of the parameters.
 */
function bodyFieldOf(fn: WrapperFunction, body: ts.Expression, initParam: number, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string | undefined {
  const fields = new Set<string>();
  let other = false;
  const visit = (node: ts.Node): void => {
    const read = optionRead(fn, node, declarationOf);
    if (read && !read.fallback) {
      if (read.param === initParam) fields.add(read.field);
      else other = true;
      return;
    }
    if (parameterIndex(fn, node, declarationOf) !== undefined) other = true;
    else ts.forEachChild(node, visit);
  };
  visit(body);
  return !other && fields.size === 1 ? [...fields][0] : undefined;
}

function enclosingFunction(node: ts.Node): WrapperFunction | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return n;
    if (ts.isSourceFile(n)) return undefined;
  }
  return undefined;
}

/**
 * `withRetry(() => fetch(url))`: the call of a function of the program that answers whatever the
 * callback it is handed answers (a retry or a timing helper); `check(await fetch(url))`: a function
 * of the file that tests the response and gives it back. The wrapper around it reads that call's
 * answer as the transport's; the call itself when it is handed to no such function.
 */
function carrierOf(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.CallExpression {
  const carrier = retryCarrierOf(call, declarationOf);
  return checkOf(carrier, declarationOf)?.call ?? carrier;
}

/** `check(await fetch(url))`: the call of a function of the same file, giving back the response it is handed, that the answer goes through. */
function checkOf(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): { call: ts.CallExpression; fn: FunctionWithBody } | undefined {
  let handed: ts.Node = call;
  while (ts.isAwaitExpression(handed.parent) || ts.isParenthesizedExpression(handed.parent)) handed = handed.parent;
  const outer = handed.parent;
  if (!ts.isCallExpression(outer) || outer.arguments[0] !== handed) return undefined;
  const fn = functionOf(outer.expression, declarationOf);
  return fn && fn.getSourceFile() === call.getSourceFile() && givesBackItsArgument(fn, declarationOf) ? { call: outer, fn } : undefined;
}

function retryCarrierOf(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.CallExpression {
  const callback = enclosingFunction(call);
  if (!callback || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) return call;
  const returned = returnedExpressions(callback);
  // `async () => { const r = await fetch(url); if (!r.ok) throw ...; return r; }` answers the response too.
  const held = responseVariable(callback, call);
  const isResponse = (e: ts.Expression) => unwrap(e) === call || (held !== undefined && ts.isIdentifier(unwrap(e)) && declarationOf(unwrap(e)) === held.parent && isConst(held.parent as ts.VariableDeclaration));
  if (returned.length === 0 || !returned.every(isResponse)) return call;
  const outer = callback.parent;
  if (!ts.isCallExpression(outer) || !outer.arguments.includes(callback)) return call;
  const helper = functionOf(outer.expression, declarationOf);
  return helper && answersCallback(helper, outer.arguments.indexOf(callback), declarationOf) ? outer : call;
}

/**
 * Whether every value the function returns is what its parameter at `index`, a callback, answered
 * when called, itself or through another such helper it hands the callback to (`return retry(fn, 4)`).
 */
function answersCallback(fn: ts.SignatureDeclaration, index: number, declarationOf: (n: ts.Node) => ts.Declaration | undefined, depth = 0): boolean {
  const parameter = fn.parameters[index];
  if (!parameter || !ts.isIdentifier(parameter.name)) return false;
  const isParameter = (e: ts.Expression) => ts.isIdentifier(unwrap(e)) && declarationOf(unwrap(e)) === parameter;
  const callsParameter = (e: ts.Expression): boolean => {
    const n = unwrap(e);
    if (!ts.isCallExpression(n)) return false;
    if (isParameter(n.expression)) return true;
    const handed = n.arguments.findIndex(isParameter);
    const helper = handed >= 0 && depth < 3 ? functionOf(n.expression, declarationOf) : undefined;
    return helper !== undefined && helper !== fn && answersCallback(helper, handed, declarationOf, depth + 1);
  };
  const returned = returnedExpressions(fn);
  return (
    returned.length > 0 &&
    returned.every((e) => {
      if (callsParameter(e)) return true;
      const n = unwrap(e);
      const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
      return Boolean(d && ts.isVariableDeclaration(d) && d.initializer && callsParameter(d.initializer));
    })
  );
}

/** Where an error may carry the HTTP status for the missing-record helper to read. */
const STATUS_PROPERTIES = new Set(['status', 'statusCode']);

/**
 * The errors a function throws itself: whether it throws any, and whether each carries the HTTP
 * status in a `status` or `statusCode` property (`new ApiError(res.status, ...)` with a parameter
 * property or `this.status = status`, or `Object.assign(new Error(), { status: res.status })`).
 * `call` is the request, or the retry helper's call that carries it (carrierOf); `transport` the request.
 */
function ownErrors(fn: WrapperFunction, call: ts.CallExpression, transport: ts.CallExpression, response: ts.Identifier | undefined, declarationOf: (n: ts.Node) => ts.Declaration | undefined): { throws: boolean; statusKnown: boolean; untagged: Tag[] } {
  let throws = false;
  let statusKnown = true;
  const untagged: Tag[] = [];
  // The callback a retry helper is handed (carrierOf) makes the request: what it throws, the wrapper throws, tested on its own response.
  const check = call !== transport ? checkOf(retryCarrierOf(transport, declarationOf), declarationOf) : undefined;
  const callback = call !== transport && !check ? enclosingFunction(transport) : undefined;
  const visit = (node: ts.Node, request: ts.CallExpression | undefined, answer: ts.Identifier | undefined, returned404: number | undefined): void => {
    // A throw before the request (a missing setting) is no answer of the platform's: it cannot be a 404.
    if (ts.isThrowStatement(node) && request && node.end <= request.getStart()) return;
    if (ts.isThrowStatement(node)) {
      throws = true;
      // A 404 was handed back before it (`if (res.status !== 429 && res.status < 500) return res;` of a retry loop).
      if (returned404 !== undefined && node.getStart() >= returned404) return;
      if (carriesStatus(node.expression, declarationOf) || rethrown(node.expression, declarationOf)) return;
      const status = answer && statusTested(node, answer);
      const error = unwrap(node.expression);
      if (status && ts.isNewExpression(error)) untagged.push({ error, status });
      else statusKnown = false;
    } else if (node === callback) {
      const held = responseVariable(callback, transport);
      ts.forEachChild(node, (child) => visit(child, transport, held, held && notFoundReturnedAt(transport, held)));
    } else if (!ts.isFunctionLike(node) || isPromiseCallback(node)) ts.forEachChild(node, (child) => visit(child, request, answer, returned404));
  };
  if (fn.body) visit(fn.body, call, response, response && notFoundReturnedAt(call, response));
  // `check(await fetch(url))`: what the check throws, tested on the response it is handed.
  const tested = check?.fn.parameters[0]?.name;
  if (check?.fn.body && tested && ts.isIdentifier(tested)) visit(check.fn.body, undefined, tested, undefined);
  return { throws, statusKnown, untagged };
}

/**
 * Where a 404 has been returned as it came: the end of an `if` right after the request, in the same
 * block, that returns the response on a condition a 404 meets. Undefined when none is found.
 */
function notFoundReturnedAt(call: ts.CallExpression, response: ts.Identifier): number | undefined {
  let statement: ts.Node = call;
  while (!ts.isBlock(statement.parent) && !ts.isFunctionLike(statement.parent)) statement = statement.parent;
  if (!ts.isBlock(statement.parent)) return undefined;
  const after = statement.parent.statements.slice(statement.parent.statements.indexOf(statement as ts.Statement) + 1);
  for (const s of after) {
    if (!ts.isIfStatement(s)) {
      // Only what cannot leave first: a throw or return before the test decides for the 404 instead.
      if (ts.isExpressionStatement(s) || ts.isVariableStatement(s)) continue;
      return undefined;
    }
    const branch = ts.isBlock(s.thenStatement) && s.thenStatement.statements.length === 1 ? s.thenStatement.statements[0]! : s.thenStatement;
    const returnsResponse = ts.isReturnStatement(branch) && branch.expression !== undefined && ts.isIdentifier(unwrap(branch.expression)) && (unwrap(branch.expression) as ts.Identifier).text === response.text;
    const met = notFoundMeets(s.expression, response.text);
    if (returnsResponse && met === true) return s.end;
    // A test a 404 may meet, in a branch that does something else, decides for it first.
    if (met !== false) return undefined;
  }
  return undefined;
}

/** The value of a test of a response's status for a 404 (`status` 404, `ok` false); undefined where it reads anything else. */
export function notFoundMeets(e: ts.Expression, response: string): boolean | number | undefined {
  const n = ts.isParenthesizedExpression(e) ? e.expression : e;
  if (ts.isNumericLiteral(n)) return Number(n.text);
  if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === response) {
    return n.name.text === 'ok' ? false : STATUS_PROPERTIES.has(n.name.text) ? GRPC_CODES.NOT_FOUND.http : undefined;
  }
  if (ts.isPrefixUnaryExpression(n) && n.operator === ts.SyntaxKind.ExclamationToken) {
    const v = notFoundMeets(n.operand, response);
    return typeof v === 'boolean' ? !v : undefined;
  }
  if (!ts.isBinaryExpression(n)) return undefined;
  const [a, b] = [notFoundMeets(n.left, response), notFoundMeets(n.right, response)];
  switch (n.operatorToken.kind) {
    case ts.SyntaxKind.AmpersandAmpersandToken:
      return a === false || b === false ? false : a === true && b === true ? true : undefined;
    case ts.SyntaxKind.BarBarToken:
      return a === true || b === true ? true : a === false && b === false ? false : undefined;
  }
  if (typeof a !== 'number' || typeof b !== 'number') return undefined;
  switch (n.operatorToken.kind) {
    case ts.SyntaxKind.EqualsEqualsEqualsToken:
    case ts.SyntaxKind.EqualsEqualsToken:
      return a === b;
    case ts.SyntaxKind.ExclamationEqualsEqualsToken:
    case ts.SyntaxKind.ExclamationEqualsToken:
      return a !== b;
    case ts.SyntaxKind.LessThanToken:
      return a < b;
    case ts.SyntaxKind.LessThanEqualsToken:
      return a <= b;
    case ts.SyntaxKind.GreaterThanToken:
      return a > b;
    case ts.SyntaxKind.GreaterThanEqualsToken:
      return a >= b;
  }
  return undefined;
}

/** A callback of `.then(...)`: what it throws, the function that chains it throws. */
function isPromiseCallback(node: ts.Node): boolean {
  const call = node.parent;
  return (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isCallExpression(call) && call.arguments[0] === node && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'then';
}

/** `res.json()` within a node, where `res` is the name given. */
function jsonOf(node: ts.Node, response: string): ts.CallExpression | undefined {
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'json' && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === response) return node;
  return ts.forEachChild(node, (child) => jsonOf(child, response));
}

/** `res.status` when a throw stands in the branch of an `if` that tests the response's status (`!res.ok`). */
function statusTested(node: ts.Node, response: ts.Identifier): string | undefined {
  for (let n = node.parent; n && !ts.isFunctionLike(n); n = n.parent) {
    const status = ts.isIfStatement(n) ? statusReadIn(n.expression, response.text) : undefined;
    if (status) return status;
  }
  return undefined;
}

/** The variable a function keeps the transport's response in (`const res = await fetch(...)`). */
export function responseVariable(fn: WrapperFunction, call: ts.CallExpression): ts.Identifier | undefined {
  for (let n: ts.Node = call; n !== fn; n = n.parent) {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && unwrap(n.initializer) === call) return n.name;
  }
  return thenParameter(call);
}

function readsStatus(node: ts.Expression): boolean {
  const n = unwrap(node);
  return ts.isPropertyAccessExpression(n) && STATUS_PROPERTIES.has(n.name.text);
}

/** `catch (err) { ...; throw err; }`: the error the request threw, thrown on as it was, its status with it. */
function rethrown(thrown: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const n = unwrap(thrown);
  const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
  return Boolean(d && ts.isVariableDeclaration(d) && ts.isCatchClause(d.parent));
}

function carriesStatus(thrown: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const n = unwrap(thrown);
  if (ts.isIdentifier(n)) return statusSetBefore(n, declarationOf);
  if (ts.isCallExpression(n) && n.expression.getText() === 'Object.assign') {
    return n.arguments.slice(1).some((a) => ts.isObjectLiteralExpression(a) && a.properties.some((p) => ts.isPropertyAssignment(p) && STATUS_PROPERTIES.has(p.name.getText()) && readsStatus(p.initializer)));
  }
  if (!ts.isNewExpression(n) || !ts.isIdentifier(n.expression)) return false;
  const index = n.arguments?.findIndex(readsStatus) ?? -1;
  const cls = declarationOf(n.expression);
  const ctor = index >= 0 && cls && ts.isClassDeclaration(cls) ? cls.members.find(ts.isConstructorDeclaration) : undefined;
  const parameter = ctor?.parameters[index];
  if (!parameter || !ts.isIdentifier(parameter.name)) return false;
  if (ts.getModifiers(parameter)?.length) return STATUS_PROPERTIES.has(parameter.name.text);
  const name = parameter.name.text;
  return (ctor!.body?.statements ?? []).some((st) => {
    const e = ts.isExpressionStatement(st) ? st.expression : undefined;
    return Boolean(e && ts.isBinaryExpression(e) && ts.isPropertyAccessExpression(e.left) && e.left.expression.kind === ts.SyntaxKind.ThisKeyword && STATUS_PROPERTIES.has(e.left.name.text) && ts.isIdentifier(e.right) && e.right.text === name);
  });
}

/**
 * `const err = new Error(...); err.status = res.status; throw err;`: an error made in the block that
 * throws it, its status set there before the throw.
 */
function statusSetBefore(thrown: ts.Identifier, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const d = declarationOf(thrown);
  const throwing = thrown.parent;
  if (!d || !ts.isVariableDeclaration(d) || !d.initializer || !ts.isNewExpression(unwrap(d.initializer)) || !ts.isThrowStatement(throwing) || !ts.isBlock(throwing.parent)) return false;
  const statements = throwing.parent.statements;
  return statements.slice(0, statements.indexOf(throwing)).some((st) => {
    const e = ts.isExpressionStatement(st) ? st.expression : undefined;
    return Boolean(e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(e.left) && ts.isIdentifier(e.left.expression) && declarationOf(e.left.expression) === d && STATUS_PROPERTIES.has(e.left.name.text) && readsStatus(e.right));
  });
}

/** `undefined`, `null`, or `{}`: what a wrapper answers for an empty body, the same on v1 and v2. */
const isNothing = (e: ts.Expression): boolean => holdsNothing(unwrap(e));

/** How a function tells the transport's response and parsed body apart, and where it parses the body. */
export interface AnswerReader {
  isResponse(e: ts.Expression): boolean;
  isBody(e: ts.Expression): boolean;
  /** The `res.json()` that parsed a fetch or undici body, once `isBody` has met it. */
  parse(): ts.CallExpression | undefined;
}

function answerReader(fn: WrapperFunction, call: ts.CallExpression, transport: Transport, declarationOf: (n: ts.Node) => ts.Declaration | undefined): AnswerReader {
  let parse: ts.CallExpression | undefined;
  const holds = (e: ts.Expression, test: (init: ts.Expression) => boolean): boolean => {
    const n = unwrap(e);
    if (!ts.isIdentifier(n)) return false;
    const d = declarationOf(n);
    return Boolean(d && ts.isVariableDeclaration(d) && ts.isIdentifier(d.name) && d.initializer && enclosingFunction(d) === fn && test(d.initializer));
  };
  const isResponse = (e: ts.Expression): boolean => unwrap(e) === call || holds(e, isResponse);
  // `const { data } = await http.get(...)`, `const { statusCode, body } = await request(url)`: a member taken out of the response.
  const takenOut = (n: ts.Expression, member: string): boolean => {
    const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
    const owner = d && ts.isBindingElement(d) && (d.propertyName ?? d.name).getText() === member ? d.parent.parent : undefined;
    return Boolean(owner && ts.isVariableDeclaration(owner) && owner.initializer && isResponse(owner.initializer));
  };
  // undici answers the body as a stream on the response: `res.body.json()`, `res.body.text()`.
  const isResponseOrBody = (e: ts.Expression): boolean => {
    const n = unwrap(e);
    return isResponse(n) || (ts.isPropertyAccessExpression(n) && n.name.text === 'body' && isResponse(n.expression)) || takenOut(n, 'body');
  };
  // `const text = await res.text()`: the body as text, parsed with JSON.parse.
  const isText = (e: ts.Expression): boolean => {
    const n = unwrap(e);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'text' && isResponseOrBody(n.expression.expression)) return true;
    // `res.text().then((text) => ...)`: the callback's parameter is the text (a delete's empty body read as migrate-v2 writes it).
    const d = ts.isIdentifier(n) ? declarationOf(n) : undefined;
    if (d && ts.isParameter(d) && isPromiseCallback(d.parent) && d.parent.parameters[0] === d) return isText(((d.parent.parent as ts.CallExpression).expression as ts.PropertyAccessExpression).expression);
    return holds(e, isText);
  };
  const isBody = (e: ts.Expression): boolean => {
    const n = unwrap(e);
    if (n === call && answersBody(transport)) return true;
    if (ts.isCallExpression(n) && n.expression.getText() === 'JSON.parse' && n.arguments[0] && isText(n.arguments[0])) return true;
    // `text ? JSON.parse(text) : undefined`: an empty body is no body.
    if (ts.isConditionalExpression(n)) return [n.whenTrue, n.whenFalse].some(isBody) && [n.whenTrue, n.whenFalse].every((b) => isBody(b) || isNothing(b));
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const { name, expression } = n.expression;
      const parsed = name.text === 'json' && isResponseOrBody(expression);
      if (parsed && (transport.client === 'fetch' || transport.client === 'undici')) parse ??= n;
      if (parsed) return true;
      // `res.text().then((text) => (text ? JSON.parse(text) : {}))`: the body, or nothing where there is none.
      const callback = n.arguments[0] && unwrap(n.arguments[0]);
      if (name.text === 'then' && isText(expression) && callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        const returned = returnedExpressions(callback);
        return returned.some(isBody) && returned.every((r) => isBody(r) || isNothing(r));
      }
      if (name.text === 'then' && isResponse(expression) && n.arguments[0] && /\.json\(\)/.test(n.arguments[0].getText())) {
        const response = thenParameter(call);
        const json = response && (transport.client === 'fetch' || transport.client === 'undici') ? jsonOf(n.arguments[0], response.text) : undefined;
        if (json) parse ??= json;
        return true;
      }
    }
    const bodyMember = BODY_MEMBERS[transport.client];
    if (bodyMember && ts.isPropertyAccessExpression(n) && n.name.text === bodyMember && isResponse(n.expression)) return true;
    if (bodyMember && takenOut(n, bodyMember)) return true;
    if (ts.isIdentifier(n)) {
      const d = declarationOf(n);
      // body.then((data) => ...): the callback's parameter is the body.
      if (d && ts.isParameter(d) && isPromiseCallback(d.parent) && d.parent.parameters[0] === d) {
        const then = (d.parent.parent as ts.CallExpression).expression as ts.PropertyAccessExpression;
        if (isBody(then.expression)) return true;
      }
    }
    return holds(e, isBody);
  };
  return { isResponse, isBody, parse: () => parse };
}

/**
 * Whether the function returns the call's response or its parsed body: `return res.json()`,
 * `return (await res.json()) as T`, `return data` after `const { data } = await http.get(...)`,
 * `return res.body.json()` (undici), `return got(...).json()`; undefined when it returns anything else.
 */
function whatItReturns(fn: WrapperFunction, transport: Transport, reader: AnswerReader): Pick<Wrapper, 'returns' | 'parse'> | undefined {
  const kinds = new Set<Wrapper['returns']>();
  for (const e of returnedExpressions(fn)) {
    // `return undefined as T` for a 204, `return null`: a branch with no body to migrate.
    if (isNothing(e)) continue;
    if (reader.isBody(e)) kinds.add('body');
    else if (reader.isResponse(e)) kinds.add('response');
    else return undefined;
  }
  const returns = kinds.size === 1 ? [...kinds][0]! : undefined;
  const parse = reader.parse();
  return returns && { returns, ...(parse && returns === 'body' ? { parse } : transport.via?.parse ? { parse: transport.via.parse } : {}) };
}

/** The method a transport fixes, and whether it comes from a parameter of the function around it. */
function methodOf(fn: WrapperFunction, transport: Transport, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Pick<Wrapper, 'method' | 'methodNode' | 'methodParam' | 'initParam'> | undefined {
  if (transport.methodExpression) {
    const i = parameterIndex(fn, transport.methodExpression, declarationOf);
    if (i !== undefined) return { methodParam: i };
    // `method: opts.method ?? 'GET'`: each caller's options name the method, else the fallback (or fetch's GET).
    const read = optionRead(fn, transport.methodExpression, declarationOf);
    const fallback = read?.fallback && unwrap(read.fallback);
    if (read?.field !== 'method' || (fallback && !ts.isStringLiteralLike(fallback))) return undefined;
    return { method: (fallback ? fallback.text.toUpperCase() : 'GET') as HttpMethod, initParam: read.param };
  }
  const fixed = { method: transport.method, ...(transport.methodNode ? { methodNode: transport.methodNode } : {}) };
  if (!transport.initExpression) return fixed;
  // Options handed through: each caller's names the method, else the wrapper's own (`{ method: 'POST', ...init }`).
  const i = parameterIndex(fn, transport.initExpression, declarationOf);
  return i === undefined ? undefined : { ...fixed, initParam: i };
}

/**
 * Wrappers are found in rounds: a function over fetch is one, then a function over that one
 * (`get<T>(path) { return this.call<T>('GET', path) }`), until no round finds more.
 */
export class Wrappers {
  readonly byFunction = new Map<WrapperFunction, Wrapper>();
  /** The calls inside wrappers that carry their callers' requests: not v1 calls of their own. */
  readonly transports = new Set<ts.CallExpression>();

  constructor(
    private readonly text: StaticText,
    private readonly checker: ts.TypeChecker,
    private readonly declared: readonly DeclaredWrapper[] = [],
  ) {}

  find(files: readonly ts.SourceFile[], transportOf: (call: ts.CallExpression) => Transport | undefined): void {
    this.files = files;
    for (let round = 0; round < 4; round++) {
      let found = false;
      for (const sf of files) for (const node of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) found = this.consider(node, transportOf) || found;
      if (!found) break;
    }
  }

  private files: readonly ts.SourceFile[] = [];
  private byType?: Map<ts.Symbol, WrapperFunction[]>;

  /**
   * `list: Lister` handed in, where the program's one function of type `Lister` is the arrow that
   * `lister()` (declared to answer a `Lister`) returns: calls of `list` go through that arrow.
   */
  private implementationByType(callee: ts.Expression): WrapperFunction | undefined {
    const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    const d = ts.isIdentifier(name) ? this.text.declarationOf(name) : undefined;
    const type = d && (ts.isParameter(d) || ts.isPropertyDeclaration(d) || ts.isVariableDeclaration(d) || ts.isPropertySignature(d)) ? d.type : undefined;
    const symbol = type && ts.isTypeReferenceNode(type) ? this.typeSymbol(type.typeName) : undefined;
    if (!symbol) return undefined;
    this.byType ??= this.functionsByDeclaredType();
    const found = this.byType.get(symbol) ?? [];
    return found.length === 1 ? found[0] : undefined;
  }

  /**
   * `this.client.get<T>(path)` with `client: PlatformClient`, an interface the program's one class
   * implements (`class AxiosPlatformClient implements PlatformClient`): that class's method. A second
   * implementation (a test's fake, say) leaves the call unread.
   */
  private implementationOfInterface(callee: ts.Expression): WrapperFunction | undefined {
    const found = this.implementersOf(callee);
    const name = found?.method;
    return found?.classes.length === 1 ? found.classes[0]!.members.find((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === name && m.body !== undefined) : undefined;
  }

  /** The interface a method call is typed by (`this.client.get` of `client: PlatformClient`), and the classes of the run that implement it. */
  implementersOf(callee: ts.Expression): { iface: ts.InterfaceDeclaration; method: string; classes: readonly ts.ClassLikeDeclaration[] } | undefined {
    if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return undefined;
    const signature = this.text.declarationOf(callee.name);
    if (!signature || !ts.isMethodSignature(signature) || !ts.isInterfaceDeclaration(signature.parent)) return undefined;
    this.implementers ??= this.classesByInterface();
    return { iface: signature.parent, method: callee.name.text, classes: this.implementers.get(signature.parent) ?? [] };
  }

  private implementers?: Map<ts.InterfaceDeclaration, ts.ClassLikeDeclaration[]>;

  /** The classes of the run's files by the interfaces of the program they implement. */
  private classesByInterface(): Map<ts.InterfaceDeclaration, ts.ClassLikeDeclaration[]> {
    const out = new Map<ts.InterfaceDeclaration, ts.ClassLikeDeclaration[]>();
    for (const sf of this.files) {
      for (const c of nodesOf(sf).ofKinds(ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ClassExpression) as ts.ClassLikeDeclaration[]) {
        for (const clause of c.heritageClauses ?? []) {
          if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
          for (const t of clause.types) {
            const symbol = ts.isIdentifier(t.expression) || ts.isPropertyAccessExpression(t.expression) ? this.typeSymbol(t.expression as ts.EntityName) : undefined;
            const iface = symbol?.declarations?.find(ts.isInterfaceDeclaration);
            if (iface) out.set(iface, [...(out.get(iface) ?? []), c]);
          }
        }
      }
    }
    return out;
  }

  private typeSymbol(name: ts.EntityName): ts.Symbol | undefined {
    const symbol = this.checker.getSymbolAtLocation(name);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
  }

  /** Functions of the program by the named function type they are declared as, or answered as by a factory. */
  private functionsByDeclaredType(): Map<ts.Symbol, WrapperFunction[]> {
    const out = new Map<ts.Symbol, WrapperFunction[]>();
    const add = (type: ts.TypeNode | undefined, fn: ts.Expression | undefined): void => {
      const f = fn && unwrap(fn);
      const symbol = type && ts.isTypeReferenceNode(type) ? this.typeSymbol(type.typeName) : undefined;
      if (symbol && f && (ts.isArrowFunction(f) || ts.isFunctionExpression(f))) out.set(symbol, [...(out.get(symbol) ?? []), f]);
    };
    for (const sf of this.files) {
      const declaring = [ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.MethodDeclaration];
      for (const node of nodesOf(sf).ofKinds(...declaring)) {
        if (ts.isVariableDeclaration(node)) add(node.type, node.initializer);
        if ((ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) && node.type) {
          const returned = returnedExpressions(node);
          if (returned.length === 1) add(node.type, returned[0]);
        }
      }
    }
    return out;
  }

  /** The wrapper a call goes through, with its method, URL and body read from the arguments. */
  viaWrapper(call: ts.CallExpression): Transport | undefined {
    if (this.byFunction.size === 0 && this.declared.length === 0) return undefined;
    const fn = functionOf(call.expression, (n) => this.text.declarationOf(n)) ?? this.implementationByType(call.expression) ?? this.implementationOfInterface(call.expression);
    const wrapper = (fn && this.byFunction.get(fn)) ?? (fn && isProjectSource(fn.getSourceFile()) ? undefined : this.declaredFor(call));
    if (!wrapper) return undefined;
    const urlNode = call.arguments[wrapper.pathParam];
    if (!urlNode) return undefined;
    const body = wrapper.bodyParam === undefined ? undefined : call.arguments[wrapper.bodyParam];
    const handed = wrapper.queryParams?.flatMap((i) => (call.arguments[i] ? [queryKeys(call.arguments[i], (n) => this.text.declarationOf(n))] : [])) ?? [];
    const query = [...(wrapper.query ? [wrapper.query] : []), ...handed].join('&');
    const out: Transport = { client: wrapper.client, method: wrapper.method ?? 'GET', urlNode, prefix: wrapper.prefix, via: wrapper, ...(body ? { body } : {}), ...(query ? { query } : {}) };
    if (wrapper.methodParam !== undefined) {
      const m = call.arguments[wrapper.methodParam];
      const n = m && unwrap(m);
      if (n && ts.isStringLiteralLike(n)) {
        out.method = n.text.toUpperCase() as HttpMethod;
        out.methodNode = n;
      } else if (m) out.methodExpression = m;
    }
    const init = wrapper.initParam === undefined ? undefined : call.arguments[wrapper.initParam];
    if (init) this.readInit(out, init, call, wrapper.bodyField);
    return out;
  }

  /** The method, body and query a call hands a wrapper in its request options, which the wrapper passes to its client. */
  private readInit(out: Transport, init: ts.Expression, call: ts.CallExpression, bodyField = 'body'): void {
    const { options, assigned } = optionsOf(init, call, this.text);
    const named = methodFromOptions(options, assigned, options ? undefined : init, (n) => this.text.declarationOf(n));
    // Options that name no method leave the wrapper's own.
    if (named.methodNode || named.methodExpression || named.initExpression) Object.assign(out, named);
    const body = options && (propertyOf(options, bodyField) ?? assigned.get(bodyField));
    if (body && !out.body) out.body = body;
    // ofetch's `query` (got's and ky's `searchParams`, axios's `params`) is part of the URL the server sees: `{ query: { id } }` reads one record.
    if (out.client !== 'fetch' && options && options === unwrap(init) && queryOption(options)) out.options = options;
  }

  /** A wrapper the config declares, when the call names it (and it comes from the module it names). */
  private declaredFor(call: ts.CallExpression): Wrapper | undefined {
    const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
    if (!ts.isIdentifier(callee)) return undefined;
    const w = this.declared.find((d) => d.function === callee.text && (!d.from || importedFrom(call.expression, d.from, this.checker)));
    if (!w) return undefined;
    const client = w.client ?? 'fetch';
    return {
      name: w.function,
      client,
      pathParam: w.path,
      prefix: { text: '', literals: [], references: [] },
      ...(typeof w.method === 'number' ? { methodParam: w.method } : { method: w.method ?? 'GET' }),
      ...(w.body !== undefined ? { bodyParam: w.body } : {}),
      returns: w.returns,
      throws: w.errors !== undefined || (client !== 'fetch' && client !== 'undici'),
      ownThrow: w.errors === 'opaque',
      untagged: [],
    };
  }

  private consider(call: ts.CallExpression, transportOf: (call: ts.CallExpression) => Transport | undefined): boolean {
    const declarationOf = (n: ts.Node) => this.text.declarationOf(n);
    // The wrapper reads the transport's answer, or what a retry helper it goes through answers.
    const carrier = carrierOf(call, declarationOf);
    const fn = enclosingFunction(carrier);
    if (!fn || this.byFunction.has(fn) || fn.parameters.length === 0) return false;
    const transport = transportOf(call) ?? this.viaWrapper(call);
    if (!transport) return false;
    const marks = new Map<ts.Declaration, Evaluated>(fn.parameters.map((p, i) => [p, { text: `${MARK}${i}${MARK}`, literals: [], references: [] }]));
    const url = this.text.bound(marks).of(transport.urlNode);
    // A query the wrapper adds at run time (`url(path, query)` with `searchParams.set`) may follow the path.
    const found = url && /\u0002(\d+)\u0002(\?.*)?$/.exec(url.text);
    if (!url || !found) return false;
    const pathParam = Number(found[1]);
    // Only a path that follows a base URL: a wrapper whose path parameter is read in the middle of a URL is something else.
    const before = url.text.slice(0, found.index);
    const prefixText = transport.prefix.text + before;
    // `${base}/iam/v1/groups/${parent}`, or `/groups/${id}` of an axios instance whose base URL ends in `/iam/v1`: a parameter after a collection is a resource's uid, not a path.
    const requested = prefixed(transport.client, transport.prefix.text, before);
    if (before.includes(MARK) || RESOURCES.some((r) => requested.includes(collectionBase(r, 'v1')))) return false;
    const method = methodOf(fn, transport, declarationOf);
    const reader = answerReader(fn, carrier, transport, declarationOf);
    const answer = method && (whatItReturns(fn, transport, reader) ?? recordsRead(fn, carrier, transport, reader, pathParam, declarationOf));
    if (!method || !answer) return false;
    const bodyField = transport.body && method.initParam !== undefined ? bodyFieldOf(fn, transport.body, method.initParam, declarationOf) : undefined;
    const bodyParam = transport.body && !bodyField ? parameterWithin(fn, transport.body, declarationOf) : undefined;
    // A body made of the options some other way (`JSON.stringify(opts.data ?? opts.body)`): what each call sends is not known.
    if (bodyParam !== undefined && bodyParam === method.initParam) return false;
    // The query may also come as a client option (ky and got `searchParams`, axios `params`) built from a parameter.
    const option = queryOption(transport.options);
    const optionValue = option && (ts.isPropertyAssignment(option) ? option.initializer : option.name);
    // `query: { id }`: keys the wrapper writes itself, whatever values its callers hand it.
    const writtenOption = optionValue && ts.isObjectLiteralExpression(unwrap(optionValue)) ? queryKeysOf(optionValue) : undefined;
    const ownKeys = writtenOption !== undefined && writtenOption.split('&').every((pair) => pair.includes('=')) ? writtenOption : undefined;
    const optionParam = optionValue && ownKeys === undefined ? parameterWithin(fn, optionValue, declarationOf) : undefined;
    // `${path}?id=${id}`: keys written out name the query; a parameter there is a value, not a query of its callers.
    const written = found[2] ? writtenQuery(found[2]) : undefined;
    const own = found[2] && written === undefined ? fn.parameters.map((_, i) => i).filter((i) => i !== pathParam && i !== bodyParam && i !== method.methodParam && i !== method.initParam) : optionParam !== undefined ? [optionParam] : [];
    const handed = handedQuery(fn, call, transport.via, declarationOf);
    const queryParams = [...new Set([...own, ...handed.params])];
    // Keys written in a query option (ofetch's `query: { id }`) name the query as keys written after the path do; the client merges them with the URL's, so a page can still follow the path.
    const query = [...(transport.via?.query ? [transport.via.query] : []), ...(written ? [written] : []), ...(ownKeys ? [ownKeys] : []), ...handed.written].join('&');
    const errors = ownErrors(fn, carrier, call, responseVariable(fn, carrier), declarationOf);
    this.transports.add(call);
    this.byFunction.set(fn, {
      fn,
      name: functionName(fn) ?? 'the wrapper',
      client: transport.client,
      transport: transport.via?.transport ?? call,
      pathParam,
      // Only what stands before the path: the pieces of a query the wrapper adds after it are not its callers' URL.
      prefix: { text: prefixText, literals: [...transport.prefix.literals, ...url.literals.filter((l) => before.includes(l.text))], references: [...transport.prefix.references, ...url.references], bases: [...(transport.prefix.bases ?? []), ...(url.bases ?? [])] },
      ...method,
      ...(bodyParam !== undefined ? { bodyParam } : {}),
      ...(bodyField !== undefined ? { bodyField } : {}),
      ...(queryParams.length ? { queryParams } : {}),
      ...(query ? { query } : {}),
      ...(written || transport.via?.ownQuery ? { ownQuery: written ?? transport.via!.ownQuery! } : {}),
      ...answer,
      throws: transport.via?.throws || (transport.client === 'fetch' || transport.client === 'undici' ? errors.throws : true),
      ownThrow: transport.via?.ownThrow || !errors.statusKnown,
      untagged: [...(transport.via?.untagged ?? []), ...errors.untagged],
    });
    return true;
  }
}
