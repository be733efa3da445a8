/**
 * Finds the calls a file makes to v1: fetch and undici (`fetch`, `request`), axios (static and
 * instances, with their `baseURL`), got, ky and ofetch (`ofetch`, `$fetch`, and the instances
 * `ofetch.create` makes, called as functions). A URL is read statically by StaticText (literals,
 * constants and tables followed by symbol); the contract says which resource and operation a path is.
 */
import { ts } from 'ts-morph';
import { collectionBase, hasV1Path, readOneQuery, RESOURCES, type HttpMethod, type ResourceContract } from '../contract/index.js';
import { isProjectSource } from './resource-types.js';
import { assignedTo, isNullish, memberName, propertyKey, propertyOf, usesOf } from './syntax.js';
import { functionOf, HOLE, queryKeysOf, returnedExpressions, unwrap, type Evaluated, type StaticText } from './static-text.js';
import type { Transport, Wrapper, Wrappers } from './wrappers.js';
import { nodesOf } from './file-nodes.js';
import { readImport, type Imported } from './module-shape.js';

export type Client = 'fetch' | 'undici' | 'axios' | 'got' | 'ky' | 'ofetch';
export type V1Operation = 'list' | 'get-by-list' | 'create' | 'update' | 'delete';

export interface V1Call {
  call: ts.CallExpression;
  client: Client;
  method: HttpMethod;
  /** The node that names the method: a `method: 'PUT'` string, or the `put` of `axios.put`. */
  methodNode?: ts.Node;
  url: string;
  urlNode: ts.Expression;
  /** The literals and followed names the URL is made of, the client's base URL included. */
  parts: Evaluated;
  resource: ResourceContract;
  operation: V1Operation;
  /** The request body: fetch/undici `body`, axios data, got/ky `json`. */
  body?: ts.Expression;
  /** The options object literal, when there is one. */
  options?: ts.ObjectLiteralExpression;
  /** The program's own function the call goes through (`get<T>(path)`, `this.call('PUT', ...)`). */
  via?: Wrapper;
  /** Query parameters given as an option (got and ky `searchParams`, axios `params`, undici `query`). */
  query?: ts.PropertyAssignment | ts.ShorthandPropertyAssignment;
  /** ofetch's `.raw(...)`: it answers the response, its parsed body in `_data`. */
  raw?: boolean;
}

const QUERY_OPTIONS = new Set(['searchParams', 'params', 'query']);

/** The query option of a call's options, when it has one. */
export function queryOption(options: ts.ObjectLiteralExpression | undefined): V1Call['query'] {
  return options?.properties.find((p): p is ts.PropertyAssignment | ts.ShorthandPropertyAssignment => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name) && QUERY_OPTIONS.has(p.name.text));
}

/** `?id=HOLE&name=HOLE` for a query object literal (or a choice of two), `?HOLE` for one known only at run time. */
function queryText(query: NonNullable<V1Call['query']>, url: string): string {
  const keys = ts.isPropertyAssignment(query) ? queryKeysOf(query.initializer) : undefined;
  return keys === '' ? '' : `${url.includes('?') ? '&' : '?'}${keys ?? HOLE}`;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);


/** The resource and operation a v1 URL addresses, by the contract's collection paths. */
export function classify(url: string, method: HttpMethod): { resource: ResourceContract; operation: V1Operation } | undefined {
  for (const resource of RESOURCES) {
    const base = collectionBase(resource, 'v1');
    const at = url.indexOf(base);
    if (at < 0) continue;
    const rest = url.slice(at + base.length);
    if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?') && !rest.startsWith(HOLE)) continue;
    const item = rest.startsWith('/') && rest.length > 1;
    if (!resource.modelled) return undefined;
    const readOne = readOneQuery(resource).slice(1);
    if (method === 'GET' && !item) return { resource, operation: rest.includes(`?${readOne}`) || rest.includes(`&${readOne}`) ? 'get-by-list' : 'list' };
    if (method === 'POST' && item) return { resource, operation: 'create' };
    if (method === 'PUT' && item) return { resource, operation: 'update' };
    if (method === 'DELETE' && item) return { resource, operation: 'delete' };
    return undefined;
  }
  return undefined;
}

type MethodOf = Pick<Transport, 'method' | 'methodNode' | 'methodExpression' | 'initExpression'>;

/**
 * The method a call's options name, or where it comes from when the call site does not write it:
 * a variable or parameter (`methodExpression`), or options handed in whole or spread from ones that
 * may hold one (`initExpression`). Such a call is never read as a GET: a v1 `POST` to a collection
 * read so would be migrated as a list.
 */
export function methodFromOptions(options: ts.ObjectLiteralExpression | undefined, assigned: ReadonlyMap<string, ts.Expression> = new Map(), handed?: ts.Expression, declarationOf?: (n: ts.Node) => ts.Declaration | undefined): MethodOf {
  if (!options) return handed && mayHoldMethod(handed, declarationOf) ? { method: 'GET', initExpression: handed } : { method: 'GET' };
  const own = options.properties.findIndex((p) => propertyKey(p) === 'method');
  const spread = options.properties.findLastIndex((p) => ts.isSpreadAssignment(p) && mayHoldMethod(p.expression, declarationOf));
  const m = assigned.get('method') ?? (own >= 0 ? propertyOf(options, 'method') : undefined);
  const named: MethodOf = !m ? { method: 'GET' } : ts.isStringLiteral(m) || ts.isNoSubstitutionTemplateLiteral(m) ? { method: m.text.toUpperCase() as HttpMethod, methodNode: m } : { method: 'GET', methodExpression: m };
  // A spread after the method (or with none) may put another there: `{ method: 'POST', ...init }`.
  return spread > own && !assigned.has('method') ? { ...named, initExpression: (options.properties[spread] as ts.SpreadAssignment).expression } : named;
}

/** Whether a spread into request options may bring a method: anything but a constant object literal of the program that names none. */
function mayHoldMethod(spread: ts.Expression, declarationOf?: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const n = unwrap(spread);
  const declaration = ts.isIdentifier(n) ? declarationOf?.(n) : undefined;
  const held = ts.isObjectLiteralExpression(n) ? n : declaration && ts.isVariableDeclaration(declaration) && declaration.parent.flags & ts.NodeFlags.Const ? asObject(declaration.initializer) : undefined;
  return !held || held.properties.some((p) => ts.isSpreadAssignment(p) || propertyKey(p) === 'method' || (p.name !== undefined && !propertyKey(p)));
}

const NOTHING: Evaluated = { text: '', literals: [], references: [] };
const CLIENT_FACTORY = /^(axios|got|ky|ofetch)$/;
const LIBRARY_NAMES = new Set(['fetch', 'request', 'axios', 'got', 'ky', 'ofetch', '$fetch']);

/** The library and `{ baseURL }` of an `axios.create(...)` (got's and ky's `prefixUrl`, ky's `prefix`); null when it is no such call. */
function factoryBase(init: ts.Expression, text: StaticText): { client: Client; base?: ts.Expression } | null {
  const n = unwrap(init);
  if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || !/^(create|extend)$/.test(n.expression.name.text)) return null;
  // `http.create(...)` of `import http from 'axios'` is axios's.
  const library = ts.isIdentifier(n.expression.expression) ? ofetchByName(libraryCalleeName(n.expression.expression, text)) : '';
  if (!CLIENT_FACTORY.test(library)) return null;
  const config = n.arguments[0] && unwrap(n.arguments[0]);
  const base = config && ts.isObjectLiteralExpression(config) ? (propertyOf(config, 'baseURL') ?? propertyOf(config, 'prefixUrl') ?? propertyOf(config, 'prefix')) : undefined;
  return { client: library as Client, ...(base ? { base } : {}) };
}

/** `this.http = axios.create(...)` in the constructor of the class that declares `http`. */
function assignedInConstructor(property: ts.PropertyDeclaration): ts.Expression | undefined {
  const ctor = property.parent.members.find(ts.isConstructorDeclaration);
  for (const statement of ctor?.body?.statements ?? []) {
    if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
    const { left, right, operatorToken } = statement.expression;
    if (operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && left.name.text === (property.name as ts.Identifier).text) return right;
  }
  return undefined;
}

/**
 * The base URL of an HTTP client instance the expression names (a variable or class member made
 * by `axios.create`), found through its declaration; null when it names no instance.
 */
function instanceOf(target: ts.Expression, text: StaticText): { client: Client; base: Evaluated } | null {
  const name = ts.isPropertyAccessExpression(target) ? target.name : target;
  if (!ts.isIdentifier(name)) return null;
  const declaration = text.declarationOf(name);
  let init: ts.Expression | undefined;
  if (declaration && (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration))) init = declaration.initializer;
  if (!init && declaration && ts.isPropertyDeclaration(declaration)) init = assignedInConstructor(declaration);
  const made = init ? factoryBase(init, text) : null;
  if (made) return { client: made.client, base: made.base ? (text.of(made.base) ?? UNKNOWN_BASE) : NOTHING };
  // Made by a factory of the program, or handed in and known by its type (`api: KyInstance`): its base URL is the caller's.
  const typed = declaration && (ts.isParameter(declaration) || ts.isPropertyDeclaration(declaration) || ts.isVariableDeclaration(declaration)) ? clientOfType(declaration.type, text) : undefined;
  const client = (init && madeByFactory(init, text)) ?? typed;
  return client ? { client, base: UNKNOWN_BASE } : null;
}

const UNKNOWN_BASE: Evaluated = { text: HOLE, literals: [], references: [] };

/**
 * `const api = platform(url, token)` where the program's `platform()` answers `ky.create(...)`
 * (or declares that it answers a `KyInstance`): an instance whose base is the caller's.
 */
function madeByFactory(init: ts.Expression, text: StaticText): Client | undefined {
  const n = unwrap(init);
  const fn = ts.isCallExpression(n) ? functionOf(n.expression, (x) => text.declarationOf(x)) : undefined;
  if (!fn) return undefined;
  const [returned, ...more] = returnedExpressions(fn);
  if (!returned || more.length > 0) return clientOfType(fn.type, text);
  // `() => http` of `const http = ofetch.create(...)`: the instance it answers, made where it is declared.
  const held = ts.isIdentifier(unwrap(returned)) ? text.declarationOf(unwrap(returned)) : undefined;
  const made = held && ts.isVariableDeclaration(held) && held.initializer ? held.initializer : returned;
  return clientOfType(fn.type, text) ?? factoryBase(made, text)?.client;
}

/** The client whose package a type annotation's name is imported from (`KyInstance` from 'ky'), read off the import itself. */
function clientOfType(type: ts.TypeNode | undefined, text: StaticText): Client | undefined {
  if (!type || !ts.isTypeReferenceNode(type)) return undefined;
  let root: ts.EntityName = type.typeName;
  while (ts.isQualifiedName(root)) root = root.left;
  const library = libraryOfModule(importedModule(root, text) ?? '');
  return library !== undefined && CLIENT_FACTORY.test(library) ? (library as Client) : undefined;
}

/** The module an identifier is imported from, by its import declaration (no resolution needed). */
export function importedModule(name: ts.Identifier, text: StaticText): string | undefined {
  let n: ts.Node | undefined = text.importOf(name);
  while (n && !ts.isImportDeclaration(n)) n = n.parent;
  return n && ts.isStringLiteral(n.moduleSpecifier) ? n.moduleSpecifier.text : undefined;
}

/** Packages whose fetch, default or named, is the standard one: `import fetch from 'node-fetch'` is read as fetch. */
const FETCH_MODULES = /^(?:node-fetch|node-fetch-native|cross-fetch|isomorphic-fetch|isomorphic-unfetch|unfetch|whatwg-fetch|@whatwg-node\/fetch|undici)$/;

/** The packages whose calls are recognised, by the name a call of theirs is known by. */
const LIBRARY_MODULES = new Map([['undici', 'undici'], ['axios', 'axios'], ['got', 'got'], ['ky', 'ky'], ['ofetch', 'ofetch'], ['ofetch/node', 'ofetch']]);

/** ofetch exports the same function as `ofetch` and `$fetch` (Nuxt's global): both are ofetch's. */
const ofetchByName = (name: string) => (name === '$fetch' || name.startsWith('$fetch.') ? `ofetch${name.slice('$fetch'.length)}` : name);
const libraryOfModule = (specifier: string) => LIBRARY_MODULES.get(specifier) ?? (FETCH_MODULES.test(specifier) ? 'fetch' : undefined);
const aliasesByFile = new WeakMap<ts.SourceFile, Map<string, string>>();

/**
 * The names a file gives the libraries' exports, by the library's own name: `import { request as
 * send } from 'undici'` (send: request), `import http from 'axios'` (http: axios), `import * as u
 * from 'undici'` (u: undici). Read off the import declarations: no checker.
 */
function libraryAliases(sf: ts.SourceFile): Map<string, string> {
  let aliases = aliasesByFile.get(sf);
  if (aliases) return aliases;
  const imports = new Map<string, Imported>();
  for (const s of sf.statements) if (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly) readImport(s, imports);
  aliases = new Map();
  for (const [local, { specifier, name }] of imports) {
    const library = libraryOfModule(specifier);
    const own = name === 'default' || name === '*' ? library : name;
    if (library && own !== local) aliases.set(local, own!);
  }
  aliasesByFile.set(sf, aliases);
  return aliases;
}

/**
 * A callee's name, its root by the library's own name where the file imports it under another
 * (`send(...)` of `import { request as send } from 'undici'` is `request`). The checker confirms the
 * name is the import, not a parameter or local of the same name: asked only of those names.
 */
function libraryCalleeName(expr: ts.Expression, text: StaticText): string {
  let root = expr;
  while (ts.isPropertyAccessExpression(root)) root = root.expression;
  const name = calleeName(expr);
  if (!ts.isIdentifier(root)) return name;
  const library = libraryAliases(root.getSourceFile()).get(root.text);
  return library && text.importOf(root) ? library + name.slice(root.text.length) : name;
}

/** A function handed in as the global fetch (`private readonly fetchFn: typeof fetch`): its calls are fetch's. */
function typedAsFetch(callee: ts.Expression, text: StaticText): boolean {
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  if (!name || name.text === 'fetch') return false;
  const declaration = text.declarationOf(name);
  // `createClient({ fetchImpl = fetch })`, `(url, fetcher = globalThis.fetch) =>`: fetch unless a caller hands another of its kind.
  if (declaration && (ts.isParameter(declaration) || ts.isBindingElement(declaration)) && declaration.initializer && isStandardFetch(declaration.initializer)) return true;
  const type = declaration && (ts.isParameter(declaration) || ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration) || ts.isVariableDeclaration(declaration)) ? declaration.type : undefined;
  return type !== undefined && ts.isTypeQueryNode(type) && /^(?:globalThis\.)?fetch$/.test(type.exprName.getText());
}

/** A value that is the standard fetch: the global (`globalThis.fetch`, bound or not), or a require of one of FETCH_MODULES. */
function isStandardFetch(value: ts.Expression): boolean {
  const n = unwrap(value);
  const required = ts.isPropertyAccessExpression(n) && n.name.text === 'default' ? unwrap(n.expression) : n;
  if (ts.isCallExpression(required) && ts.isIdentifier(required.expression) && required.expression.text === 'require') {
    const [specifier] = required.arguments;
    return specifier !== undefined && ts.isStringLiteral(specifier) && FETCH_MODULES.test(specifier.text);
  }
  return /^(?:(?:globalThis|global|window|self)\.)?fetch(?:\.bind\((?:globalThis|global|window|self)?\))?$/.test(n.getText().replace(/\s+/g, ''));
}

/**
 * `import { wretch as fetch } from 'wretch'`, `const fetch = makeClient()`: the name `fetch` bound in
 * its file to another client, whose calls answer otherwise. They are not read as fetch's: their v1
 * paths are noted as no recognised call's (ofetch's bound so are read as ofetch's).
 */
function fetchBoundElsewhere(callee: ts.Expression, text: StaticText): boolean {
  if (!ts.isIdentifier(callee) || callee.text !== 'fetch') return false;
  const imported = text.importOf(callee);
  const declared = imported ?? text.declarationOf(callee);
  if (declared && ts.isVariableDeclaration(declared)) return declared.initializer !== undefined && !isStandardFetch(declared.initializer);
  if (!imported) return false;
  const module = importedModule(callee, text);
  return module === undefined || !FETCH_MODULES.test(module);
}

function calleeName(expr: ts.Expression): string {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return `${calleeName(expr.expression)}.${expr.name.text}`;
  if (expr.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return '?';
}


/** A client's base URL and a path, as it joins them: got and ky with one slash between; axios's baseURL is a plain prefix. */
export function prefixed(client: Client, prefix: string, path: string): string {
  const joint = (client === 'got' || client === 'ky' || client === 'ofetch') && prefix && !prefix.endsWith('/') && !path.startsWith('/') ? '/' : '';
  return prefix + joint + path;
}

function asObject(node: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  const n = node && unwrap(node);
  return n && ts.isObjectLiteralExpression(n) ? n : undefined;
}

/**
 * The options of a call: an object literal there, or one a variable of the same function holds
 * (`const init = { method, headers }; if (body) init.body = JSON.stringify(body); fetch(url, init)`),
 * with the properties assigned to it before the call.
 */
export function optionsOf(node: ts.Expression | undefined, call: ts.CallExpression, text: StaticText): { options?: ts.ObjectLiteralExpression; assigned: Map<string, ts.Expression> } {
  const assigned = new Map<string, ts.Expression>();
  const literal = asObject(node);
  if (literal || !node || !ts.isIdentifier(unwrap(node))) return { ...(literal ? { options: literal } : {}), assigned };
  const declaration = text.declarationOf(unwrap(node));
  const held = declaration && ts.isVariableDeclaration(declaration) ? asObject(declaration.initializer) : undefined;
  const scope = declaration && enclosingBlock(declaration);
  if (!held || !scope || enclosingBlock(call) !== scope) return { assigned };
  const name = (declaration as ts.VariableDeclaration).name.getText();
  const visit = (n: ts.Node): void => {
    if (n.pos > call.pos) return;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = n.left;
      const key = memberName(left);
      if (key && left.getChildAt(0).getText() === name) assigned.set(key, n.right);
    }
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return { options: held, assigned };
}

/**
 * Whether the variable holding a call's options (`const init = { method: 'PUT', headers }`) is read
 * by that call alone, besides members set on it (`init.body = ...`): its method may then be edited
 * where it is written, as if the call wrote it.
 */
function onlyThisCallReads(argument: ts.Expression, call: ts.CallExpression, text: StaticText): boolean {
  const name = unwrap(argument);
  const declaration = ts.isIdentifier(name) ? text.declarationOf(name) : undefined;
  if (!declaration || !ts.isVariableDeclaration(declaration)) return false;
  const set = (id: ts.Identifier) => ts.isPropertyAccessExpression(id.parent) && id.parent.expression === id && ts.isBinaryExpression(id.parent.parent) && id.parent.parent.left === id.parent && id.parent.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  const reads = usesOf(call.getSourceFile(), declaration, (n) => text.declarationOf(n)).filter((id) => !set(id));
  return reads.length === 1 && reads[0] === name;
}

function enclosingBlock(node: ts.Node): ts.Node | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n) || ts.isSourceFile(n)) return n;
  return undefined;
}

/**
 * An instance of ofetch the callee names (`api` of `const api = ofetch.create(...)`, `this.http`
 * typed `$Fetch`) or gives (`useApi()` of a function of the program that answers one).
 */
function instanceOfOfetch(callee: ts.Expression, text: StaticText): { client: Client; base: Evaluated } | null {
  if (ts.isCallExpression(callee)) return madeByFactory(callee, text) === 'ofetch' ? { client: 'ofetch', base: UNKNOWN_BASE } : null;
  // Asked of every call: a member of anything but `this` (`order.items.map`) would make the checker type its receiver, for no instance.
  if (!ts.isIdentifier(callee) && !(ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword)) return null;
  const instance = instanceOf(callee, text);
  return instance?.client === 'ofetch' ? instance : null;
}

/** `ofetch.raw(...)`, `$fetch.raw(...)`, `api.raw(...)` of an instance: the base of the ofetch it goes through. */
function rawOfetch(callee: ts.Expression, text: StaticText): { base: Evaluated } | null {
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'raw') return null;
  if (ofetchByName(libraryCalleeName(callee, text)) === 'ofetch.raw') return { base: NOTHING };
  return instanceOfOfetch(callee.expression, text);
}

/**
 * A call whose URL comes first and whose options, second, name the method and body (`fetch`,
 * undici's `fetch` and `request`, ofetch): its options may be kept in a variable of the same function.
 */
function fetchLike(call: ts.CallExpression, client: Client, prefix: Evaluated, text: StaticText): Transport {
  const [first, second] = call.arguments;
  const { options, assigned } = optionsOf(second, call, text);
  const body = (options && propertyOf(options, 'body')) ?? assigned.get('body');
  // Options kept in a variable are read, not edited, unless this call is all that reads them: the literal is the call's own.
  const own = options && (options === asObject(second) || onlyThisCallReads(second!, call, text)) ? options : undefined;
  const { methodNode, ...method } = methodFromOptions(options, assigned, options ? undefined : second, (n) => text.declarationOf(n));
  return { client, ...method, ...(own && methodNode ? { methodNode } : {}), urlNode: first!, prefix, ...(own ? { options: own } : {}), ...(body ? { body } : {}) };
}

/** What kind of HTTP call this is, if any, and where its URL, method and body are. */
export function recognise(call: ts.CallExpression, text: StaticText): Transport | undefined {
  const [first, second, third] = call.arguments;
  if (!first) return undefined;
  const raw = rawOfetch(call.expression, text);
  if (raw) return { ...fetchLike(call, 'ofetch', raw.base, text), raw: true };
  const name = typedAsFetch(call.expression, text) ? 'fetch' : ofetchByName(libraryCalleeName(call.expression, text));
  const bound = name === 'fetch' && fetchBoundElsewhere(call.expression, text);
  // `api(url)` of `const api = ofetch.create({ baseURL })`: an instance of ofetch is called as ofetch is.
  const ofetchInstance = name === 'ofetch' || (LIBRARY_NAMES.has(name) && !bound) ? null : instanceOfOfetch(call.expression, text);
  if (ofetchInstance) return fetchLike(call, 'ofetch', ofetchInstance.base, text);
  if (bound) return undefined;
  // The program's own `request()` or `fetch()` is not the library's: it may be a wrapper. Asked only of those names: the checker is the cost.
  if (LIBRARY_NAMES.has(name)) {
    const own = functionOf(call.expression, (n) => text.declarationOf(n));
    if (own && isProjectSource(own.getSourceFile())) return undefined;
  }
  if (name === 'fetch' || name === 'undici.fetch' || name === 'request' || name === 'undici.request') return fetchLike(call, name.includes('fetch') ? 'fetch' : 'undici', NOTHING, text);
  if (name === 'ofetch') return fetchLike(call, 'ofetch', NOTHING, text);
  const parts = name.split('.');
  const verb = parts[parts.length - 1]!;
  const target = parts.slice(0, -1).join('.');
  const library = CLIENT_FACTORY.test(target) ? (target as Client) : undefined;
  const callee = call.expression;
  const instance = !library && (METHODS.has(verb) || verb === 'request') && ts.isPropertyAccessExpression(callee) ? instanceOf(callee.expression, text) : null;
  // `axios.request({ url, method, data })`, `api.request(...)` of an axios instance: the config form.
  if (verb === 'request' && (library ?? instance?.client) === 'axios') return axiosConfigCall(first, instance?.base ?? NOTHING, text);
  if (METHODS.has(verb) && (library || instance)) {
    const client: Client = library ?? instance!.client;
    const sendsData = client === 'axios' && (verb === 'post' || verb === 'put' || verb === 'patch');
    const options = asObject(sendsData ? third : second);
    const body = sendsData ? second : options ? (propertyOf(options, 'json') ?? propertyOf(options, 'body')) : undefined;
    const node = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : undefined;
    return { client, method: verb.toUpperCase() as HttpMethod, ...(node ? { methodNode: node } : {}), urlNode: first, prefix: instance?.base ?? NOTHING, ...(body ? { body } : {}), ...(options ? { options } : {}) };
  }
  if (name === 'axios' || name === 'got' || name === 'ky') {
    if (name === 'axios' && asObject(first)) return axiosConfigCall(first, NOTHING, text);
    const options = asObject(second);
    const body = options ? (propertyOf(options, 'json') ?? propertyOf(options, 'body')) : undefined;
    return { client: name as Client, ...methodFromOptions(options, undefined, options ? undefined : second, (n) => text.declarationOf(n)), urlNode: first, prefix: NOTHING, ...(options ? { options } : {}), ...(body ? { body } : {}) };
  }
  return undefined;
}

/** `axios({ url, method, data })` and `request(config)` of axios or an instance: the URL, method and body are the config's. */
function axiosConfigCall(first: ts.Expression, prefix: Evaluated, text: StaticText): Transport | undefined {
  const config = asObject(first);
  const url = config && propertyOf(config, 'url');
  if (!url) return undefined;
  const body = propertyOf(config, 'data');
  return { client: 'axios', ...methodFromOptions(config, undefined, undefined, (n) => text.declarationOf(n)), urlNode: url, prefix, options: config, ...(body ? { body } : {}) };
}

/** `got(url).json()`, `ky.get(url).json()`: the call that parses the call's answer in the same chain. */
export function parsedInChain(call: Pick<V1Call, 'call'>): ts.CallExpression | undefined {
  const parent = call.call.parent;
  return ts.isPropertyAccessExpression(parent) && parent.name.text === 'json' && ts.isCallExpression(parent.parent) ? parent.parent : undefined;
}

export interface CallScan {
  calls: V1Call[];
  /** Calls through a recognised client whose URL holds a v1 path the contract does not place. */
  unplaced: ts.CallExpression[];
  /** Why an unplaced call is not placed, where the path is not the reason: its method is not known. */
  unplacedWhy: Map<ts.CallExpression, string>;
}

/** `let url; if (...) url = `${BASE}/iam/v1/groups/${id}`; else url = ...; fetch(url, opts)`: a variable given a v1 path somewhere. */
function givenV1Paths(urlNode: ts.Expression, text: StaticText): boolean {
  const name = unwrap(urlNode);
  const declaration = ts.isIdentifier(name) ? text.declarationOf(name) : undefined;
  if (!declaration || !ts.isVariableDeclaration(declaration)) return false;
  const given = usesOf(urlNode.getSourceFile(), declaration, (n) => text.declarationOf(n)).flatMap((id) => (assignedTo(id) ? [(id.parent as ts.BinaryExpression).right] : []));
  return [...(declaration.initializer ? [declaration.initializer] : []), ...given].some((v) => hasV1Path(text.of(v)?.text ?? ''));
}

/**
 * `api.interceptors.response.use((res) => res.data)`: an axios interceptor that answers something
 * other than the response it is handed, set on the instance (or the default axios) an axios call
 * goes through, in the file that makes the instance; written as it is. Its calls answer what
 * migrate-v2 cannot read, so they stay on v1.
 */
function reshapingInterceptor(call: ts.CallExpression, text: StaticText): string | undefined {
  const callee = call.expression;
  const target = ts.isPropertyAccessExpression(callee) ? callee.expression : callee;
  const name = ts.isPropertyAccessExpression(target) ? target.name : target;
  if (!ts.isIdentifier(name)) return undefined;
  const home = text.declarationOf(name)?.getSourceFile() ?? call.getSourceFile();
  for (const use of nodesOf(home).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
    const user = use.expression;
    if (!ts.isPropertyAccessExpression(user) || user.name.text !== 'use' || !/(^|\.)interceptors\.response$/.test(user.expression.getText(home))) continue;
    const owner = (user.expression as ts.PropertyAccessExpression).expression as ts.PropertyAccessExpression;
    const ownerName = ts.isPropertyAccessExpression(owner.expression) ? owner.expression.name.getText(home) : owner.expression.getText(home);
    if (ownerName !== name.text) continue;
    const handler = use.arguments[0] && unwrap(use.arguments[0]);
    if (!handler || isNullish(handler) || answersWhatItIsHanded(handler)) continue;
    return `the client of this v1 call has a response interceptor that answers something other than the response (\`${use.getText(home).length <= 60 ? use.getText(home) : 'interceptors.response.use(...)'}\`): migrate-v2 cannot tell what the call gives its caller, so it stays on v1; migrate it by hand`;
  }
  return undefined;
}

/**
 * Where a file hands ofetch's callers something other than the parsed JSON body: a hook's
 * `response._data = ...`, a `parseResponse` option, a `responseType` other than json. Read off the
 * syntax, so that a comment (a note of migrate-v2's own among them) never counts. Asked for every
 * ofetch call of a file, and of the file making its instance: read once per file.
 */
function ofetchReshapingIn(sf: ts.SourceFile): string | undefined {
  let found = reshapingByFile.get(sf);
  if (found === undefined) reshapingByFile.set(sf, (found = findOfetchReshaping(sf) ?? null));
  return found ?? undefined;
}

const reshapingByFile = new WeakMap<ts.SourceFile, string | null>();

function findOfetchReshaping(sf: ts.SourceFile): string | undefined {
  const nodes = nodesOf(sf);
  for (const n of nodes.of<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
    if (n.operatorToken.kind === ts.SyntaxKind.EqualsToken && memberName(n.left) === '_data') return `${n.left.getText(sf)} = ...`;
  }
  for (const n of nodes.ofKinds(ts.SyntaxKind.PropertyAssignment, ts.SyntaxKind.ShorthandPropertyAssignment, ts.SyntaxKind.MethodDeclaration) as (ts.ObjectLiteralElementLike | ts.MethodDeclaration)[]) {
    const key = propertyKey(n);
    if (key === 'parseResponse') return 'parseResponse';
    const value = key === 'responseType' && ts.isPropertyAssignment(n) ? unwrap(n.initializer) : undefined;
    if (value && ts.isStringLiteralLike(value) && value.text !== 'json') return `responseType: '${value.text}'`;
  }
  return undefined;
}

/**
 * `ofetch.create({ onResponse({ response }) { response._data = body.items } })`, `parseResponse`,
 * a `responseType` other than json: written in the call's file or in the one that makes its
 * instance. Its calls answer what migrate-v2 cannot read, so they stay on v1.
 */
function reshapingOfetch(call: ts.CallExpression, text: StaticText): string | undefined {
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  const home = ts.isIdentifier(name) ? text.declarationOf(name)?.getSourceFile() : undefined;
  for (const sf of [call.getSourceFile(), ...(home && isProjectSource(home) ? [home] : [])]) {
    const found = ofetchReshapingIn(sf);
    if (found) return `the ofetch client of this v1 call changes what its answers give (\`${found}\` in ${sf === call.getSourceFile() ? 'this file' : 'the file that makes it'}): migrate-v2 cannot tell what the call gives its caller, so it stays on v1; migrate it by hand`;
  }
  return undefined;
}

/** `(res) => res`, `(res) => { log(res); return res; }`: a handler that answers the response it is handed. */
function answersWhatItIsHanded(handler: ts.Expression): boolean {
  if (!ts.isArrowFunction(handler) && !ts.isFunctionExpression(handler)) return false;
  const param = handler.parameters[0]?.name;
  const returned = returnedExpressions(handler);
  return param !== undefined && ts.isIdentifier(param) && returned.length > 0 && returned.every((r) => ts.isIdentifier(unwrap(r)) && (unwrap(r) as ts.Identifier).text === param.text);
}

/** Why a call whose method the call site does not write stays on v1. */
function methodUnknown(r: Transport): string | undefined {
  const from = r.methodExpression ?? r.initExpression;
  if (!from) return undefined;
  const named = from.getText().length <= 40 ? `\`${from.getText()}\`` : 'an expression';
  const how = r.methodExpression ? `is chosen at run time (${named})` : `comes with the options in ${named}, which are not written here`;
  return `the method of this v1 call ${how}: migrate-v2 cannot tell which request it is (a list, a create, an update...), so it stays on v1; migrate it by hand`;
}

export function findV1Calls(sf: ts.SourceFile, text: StaticText, wrappers: Wrappers): CallScan {
  const calls: V1Call[] = [];
  const unplaced: ts.CallExpression[] = [];
  const unplacedWhy = new Map<ts.CallExpression, string>();
  for (const node of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
    if (!wrappers.transports.has(node)) {
      const r = recognise(node, text) ?? wrappers.viaWrapper(node);
      const path = r ? text.of(r.urlNode) : undefined;
      if (r && path === undefined && givenV1Paths(r.urlNode, text)) {
        unplaced.push(node);
        unplacedWhy.set(node, `the URL of this v1 call is chosen at run time (\`${unwrap(r.urlNode).getText()}\` is given one path or another): migrate-v2 cannot tell which request it is, so it stays on v1; migrate it by hand`);
      }
      if (r && path !== undefined) {
        const query = queryOption(r.options);
        const url = prefixed(r.client, r.prefix.text, path.text);
        // The query option is part of the URL the server sees: a read of one record may be written `searchParams: { id }`.
        const handed = r.query ? `${url.includes('?') ? '&' : '?'}${r.query}` : '';
        const parts: Evaluated = { text: (query ? url + queryText(query, url) : url) + handed, literals: [...r.prefix.literals, ...path.literals], references: [...r.prefix.references, ...path.references], bases: [...(r.prefix.bases ?? []), ...(path.bases ?? [])] };
        const transport = r.via?.transport ?? node;
        const unknown = methodUnknown(r) ?? (r.client === 'axios' ? reshapingInterceptor(transport, text) : r.client === 'ofetch' ? reshapingOfetch(transport, text) : undefined);
        const placed = unknown ? undefined : classify(parts.text, r.method);
        if (placed) calls.push({ call: node, client: r.client, method: r.method, url: parts.text, urlNode: r.urlNode, parts, ...placed, ...(r.methodNode ? { methodNode: r.methodNode } : {}), ...(r.body ? { body: r.body } : {}), ...(r.options ? { options: r.options } : {}), ...(r.via ? { via: r.via } : {}), ...(query ? { query } : {}), ...(r.raw ? { raw: true } : {}) });
        else if (hasV1Path(parts.text)) {
          unplaced.push(node);
          if (unknown) unplacedWhy.set(node, unknown);
        }
      }
    }
  }
  return { calls, unplaced, unplacedWhy };
}
