/**
 * Finds the calls a file makes to v1: fetch and undici (`fetch`, `request`), axios (static and
 * instances, with their `baseURL`), got and ky. A URL is read statically (string and template
 * literals, concatenation, constants of the file, `new URL(path, base)`, config objects); a part
 * known only at run time is a hole. The contract says which resource and operation a path is.
 */
import { ts } from 'ts-morph';
import { collectionBase, hasV1Path, readOneQuery, RESOURCES, type HttpMethod, type ResourceContract } from '../contract/index.js';

export const HOLE = '\u0001';

export type Client = 'fetch' | 'undici' | 'axios' | 'got' | 'ky';
export type V1Operation = 'list' | 'get-by-list' | 'create' | 'update' | 'delete';

export interface V1Call {
  call: ts.CallExpression;
  client: Client;
  method: HttpMethod;
  /** The node that names the method: a `method: 'PUT'` string, or the `put` of `axios.put`. */
  methodNode?: ts.Node;
  url: string;
  urlNode: ts.Expression;
  resource: ResourceContract;
  operation: V1Operation;
  /** The request body: fetch/undici `body`, axios data, got/ky `json`. */
  body?: ts.Expression;
  /** The options object literal, when there is one. */
  options?: ts.ObjectLiteralExpression;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Constant initialisers of the file by name (the last one wins; shadowing is rare in client code). */
export function constantsOf(sf: ts.SourceFile): Map<string, ts.Expression> {
  const out = new Map<string, ts.Expression>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isVariableDeclarationList(node.parent) && node.parent.flags & ts.NodeFlags.Const) {
      out.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The expression under parentheses, type assertions, `!` and `await`. */
export function unwrap(node: ts.Expression): ts.Expression {
  let n = node;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) || ts.isSatisfiesExpression(n) || ts.isAwaitExpression(n)) n = n.expression;
  return n;
}

function propertyOf(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

export class StaticText {
  constructor(private readonly constants: Map<string, ts.Expression>) {}

  /** The text of an expression with run-time parts as HOLE; undefined when nothing of it is known. */
  of(node: ts.Expression, depth = 0): string | undefined {
    if (depth > 8) return HOLE;
    const n = unwrap(node);
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
    if (ts.isTemplateExpression(n)) {
      let out = n.head.text;
      for (const span of n.templateSpans) out += (this.of(span.expression, depth + 1) ?? HOLE) + span.literal.text;
      return out;
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return (this.of(n.left, depth + 1) ?? HOLE) + (this.of(n.right, depth + 1) ?? HOLE);
    }
    if (ts.isIdentifier(n)) {
      const init = this.constants.get(n.text);
      return init ? (this.of(init, depth + 1) ?? HOLE) : HOLE;
    }
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression)) {
      const init = this.constants.get(n.expression.text);
      const obj = init && unwrap(init);
      const value = obj && ts.isObjectLiteralExpression(obj) ? propertyOf(obj, n.name.text) : undefined;
      return value ? (this.of(value, depth + 1) ?? HOLE) : HOLE;
    }
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URL' && n.arguments?.length) {
      const path = this.of(n.arguments[0]!, depth + 1) ?? HOLE;
      if (/^[a-z]+:\/\//.test(path) || n.arguments.length < 2) return path;
      return (this.of(n.arguments[1]!, depth + 1) ?? HOLE).replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'toString') return this.of(n.expression.expression, depth + 1);
    return undefined;
  }
}

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

function methodFromOptions(options: ts.ObjectLiteralExpression | undefined): { method: HttpMethod; node?: ts.Node } {
  const m = options && propertyOf(options, 'method');
  if (m && (ts.isStringLiteral(m) || ts.isNoSubstitutionTemplateLiteral(m))) return { method: m.text.toUpperCase() as HttpMethod, node: m };
  return { method: 'GET' };
}

/** axios instances of the file, by variable name, with their baseURL text. */
function axiosInstances(sf: ts.SourceFile, text: StaticText): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = unwrap(node.initializer);
      if (ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && init.expression.name.text === 'create' && ts.isIdentifier(init.expression.expression) && /^(axios|got|ky)$/.test(init.expression.expression.text)) {
        const config = init.arguments[0] && unwrap(init.arguments[0]);
        const base = config && ts.isObjectLiteralExpression(config) ? (propertyOf(config, 'baseURL') ?? propertyOf(config, 'prefixUrl') ?? propertyOf(config, 'prefix')) : undefined;
        out.set(node.name.text, base ? (text.of(base) ?? HOLE) : '');
      }
    }
    // this.http = axios.create({ baseURL }) in a class constructor
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && node.left.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const init = unwrap(node.right);
      if (ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && init.expression.name.text === 'create') {
        const config = init.arguments[0] && unwrap(init.arguments[0]);
        const base = config && ts.isObjectLiteralExpression(config) ? (propertyOf(config, 'baseURL') ?? propertyOf(config, 'prefixUrl')) : undefined;
        out.set(`this.${node.left.name.text}`, base ? (text.of(base) ?? HOLE) : '');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function calleeName(expr: ts.Expression): string {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return `${calleeName(expr.expression)}.${expr.name.text}`;
  if (expr.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return '?';
}

interface Recognised {
  client: Client;
  method: HttpMethod;
  methodNode?: ts.Node;
  urlNode: ts.Expression;
  prefix: string;
  body?: ts.Expression;
  options?: ts.ObjectLiteralExpression;
}

function asObject(node: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  const n = node && unwrap(node);
  return n && ts.isObjectLiteralExpression(n) ? n : undefined;
}

/** What kind of HTTP call this is, if any, and where its URL, method and body are. */
function recognise(call: ts.CallExpression, instances: Map<string, string>): Recognised | undefined {
  const name = calleeName(call.expression);
  const [first, second, third] = call.arguments;
  if (!first) return undefined;
  if (name === 'fetch' || name === 'undici.fetch' || name === 'request' || name === 'undici.request') {
    const options = asObject(second);
    const m = methodFromOptions(options);
    return { client: name.includes('fetch') ? 'fetch' : 'undici', method: m.method, ...(m.node ? { methodNode: m.node } : {}), urlNode: first, prefix: '', ...(options ? { options, body: propertyOf(options, 'body') } : {}) };
  }
  const parts = name.split('.');
  const verb = parts[parts.length - 1]!;
  const target = parts.slice(0, -1).join('.');
  const library = /^(axios|got|ky)$/.test(target) ? (target as Client) : undefined;
  const instanceBase = instances.get(target);
  if (METHODS.has(verb) && (library || instanceBase !== undefined)) {
    const client: Client = library ?? 'axios';
    const sendsData = client === 'axios' && (verb === 'post' || verb === 'put' || verb === 'patch');
    const options = asObject(sendsData ? third : second);
    const body = sendsData ? second : options ? (propertyOf(options, 'json') ?? propertyOf(options, 'body')) : undefined;
    const node = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : undefined;
    return { client, method: verb.toUpperCase() as HttpMethod, ...(node ? { methodNode: node } : {}), urlNode: first, prefix: instanceBase ?? '', ...(body ? { body } : {}), ...(options ? { options } : {}) };
  }
  if (name === 'axios' || name === 'got' || name === 'ky') {
    const config = asObject(first);
    if (config && name === 'axios') {
      const url = propertyOf(config, 'url');
      if (!url) return undefined;
      const m = methodFromOptions(config);
      const body = propertyOf(config, 'data');
      return { client: 'axios', method: m.method, ...(m.node ? { methodNode: m.node } : {}), urlNode: url, prefix: '', options: config, ...(body ? { body } : {}) };
    }
    const options = asObject(second);
    const m = methodFromOptions(options);
    const body = options ? (propertyOf(options, 'json') ?? propertyOf(options, 'body')) : undefined;
    return { client: name as Client, method: m.method, ...(m.node ? { methodNode: m.node } : {}), urlNode: first, prefix: '', ...(options ? { options } : {}), ...(body ? { body } : {}) };
  }
  return undefined;
}

export interface CallScan {
  calls: V1Call[];
  /** Calls through a recognised client whose URL holds a v1 path the contract does not place. */
  unplaced: ts.CallExpression[];
}

export function findV1Calls(sf: ts.SourceFile, text: StaticText): CallScan {
  const instances = axiosInstances(sf, text);
  const calls: V1Call[] = [];
  const unplaced: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const r = recognise(node, instances);
      const path = r ? text.of(r.urlNode) : undefined;
      if (r && path !== undefined) {
        const url = r.prefix + path;
        const placed = classify(url, r.method);
        if (placed) calls.push({ call: node, client: r.client, method: r.method, url, urlNode: r.urlNode, ...placed, ...(r.methodNode ? { methodNode: r.methodNode } : {}), ...(r.body ? { body: r.body } : {}), ...(r.options ? { options: r.options } : {}) });
        else if (hasV1Path(url)) unplaced.push(node);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { calls, unplaced };
}

