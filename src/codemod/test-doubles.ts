/**
 * Finds the test doubles of a file that stand in for the platform: route stubs (nock interceptors,
 * msw handlers, undici MockAgent interceptors), mocked clients (`mockResolvedValue`,
 * `mockReturnValue`, `mockImplementation` of `fetch`, an axios method, ofetch, or a function of
 * the program) and the expectations a test writes about the requests (a v1 path or `'PUT'` given to a
 * matcher). Libraries are known by what the file imports, never by a name alone. What each double
 * answers is read by double-replies.ts; which calls it serves, and whether it migrates, by
 * double-plan.ts.
 */
import { ts } from 'ts-morph';
import { hasV1Path, type HttpMethod } from '../contract/index.js';
import { readReplies, readMockReplies, type Reply } from './double-replies.js';
import { isPathLiteral, unwrap, type PathLiteral, type StaticText } from './static-text.js';
import { nodesOf } from './file-nodes.js';
import { assignedValues, propertyOf } from './syntax.js';
import { importedModule } from './v1-calls.js';

export type RouteLibrary = 'nock' | 'msw' | 'MockAgent';

/** A stub of one route: the interceptor or handler call, what it matches and what it answers. */
export interface Route {
  kind: 'route';
  library: RouteLibrary;
  node: ts.CallExpression;
  method: HttpMethod;
  /** The name (`get` of `nock(...).get`, `http.get`) or literal (`method: 'GET'`) that says the method; none when implied. */
  methodNode?: ts.Identifier | ts.StringLiteralLike;
  path: ts.Expression;
  /** nock: the scope's base (`nock(BASE)`), which may hold a path too. */
  base?: ts.Expression;
  /** nock: `.query(...)` of this interceptor. */
  query?: ts.CallExpression;
  /** MockAgent: the options of `.intercept({ path, method })`. */
  options?: ts.ObjectLiteralExpression;
  replies: Reply[];
}

/** What a mock stands in for: global fetch, a client's method (`axios.get`), or a function of the program. */
export type MockTarget =
  | { kind: 'fetch' }
  /** `axios.get`: the name (or `spyOn`'s string) that says the method, renamed with it (`put` -> `patch`). */
  | { kind: 'client'; client: 'axios'; method: HttpMethod; methodNode: ts.Identifier | ts.StringLiteralLike }
  /** ofetch itself (`vi.mocked(ofetch)`): it answers the parsed body, whatever the method. */
  | { kind: 'library'; client: 'ofetch' }
  /** A function of the program: `node` names it, or names the object whose `member` it is (`vi.spyOn(sdk, 'call')`). */
  | { kind: 'function'; node: ts.Expression; member?: string };

export interface Mock {
  kind: 'mock';
  /** The `.mockResolvedValue(...)` (or other) call. */
  node: ts.CallExpression;
  target: MockTarget;
  replies: Reply[];
}

/** A literal a test expects of a request: a v1 path (string, template piece, regular expression) or a method. */
export interface Expectation {
  kind: 'expectation';
  node: PathLiteral | ts.RegularExpressionLiteral;
  what: 'path' | 'method';
  /** The matcher call (`.toBe(...)`) whose arguments hold the literal. */
  matcher: ts.CallExpression;
  /** What `expect(...)` was given. */
  subject?: ts.Expression;
}

export type Double = Route | Mock | Expectation;

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const MOCK_VERBS = /^mock(ResolvedValue|ReturnValue|Implementation)(Once)?$/;
const MATCHER_MODIFIERS = new Set(['not', 'resolves', 'rejects']);

/** The module the name a callee starts from is imported from. */
function moduleOf(callee: ts.Expression, text: StaticText): string | undefined {
  let root = callee;
  while (ts.isPropertyAccessExpression(root) || ts.isCallExpression(root)) root = ts.isCallExpression(root) ? root.expression : root.expression;
  return ts.isIdentifier(root) ? importedModule(root, text) : undefined;
}

/** The text a v1 path of a regular expression's source stands for (`\/iam\/v1\/groups` reads `/iam/v1/groups`). */
export function regexText(node: ts.RegularExpressionLiteral): string {
  const source = node.text.slice(1, node.text.lastIndexOf('/'));
  return source.replace(/\\(.)/g, '$1');
}

/** Whether a literal of a test holds a v1 path. */
export function holdsV1Path(node: ts.Node): node is PathLiteral | ts.RegularExpressionLiteral {
  if (isPathLiteral(node)) return hasV1Path(node.text);
  return ts.isRegularExpressionLiteral(node) && hasV1Path(regexText(node));
}

class Finder {
  readonly doubles: Double[] = [];
  private readonly nockScopes = new Map<ts.Node, ts.Expression | null>();
  /** Names bound to `vi.fn(...)` that `vi.stubGlobal('fetch', name)` makes the global fetch. */
  private readonly fetchStand = new Set<ts.Declaration>();

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly text: StaticText,
  ) {}

  find(): Double[] {
    this.findStubbedGlobals();
    for (const call of nodesOf(this.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) this.consider(call);
    return this.doubles;
  }

  private consider(call: ts.CallExpression): void {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee)) return;
    const name = callee.name.text;
    if (ROUTE_METHODS.has(name)) {
      const base = this.nockBase(callee.expression);
      if (base !== undefined && call.arguments[0]) return this.route('nock', call, name, call.arguments[0], base ?? undefined);
      if (this.isMsw(callee.expression) && call.arguments[0]) return this.route('msw', call, name, call.arguments[0]);
    }
    if (name === 'intercept' && this.importsFrom('undici', 'MockAgent')) {
      const options = call.arguments[0] && unwrap(call.arguments[0]);
      if (options && ts.isObjectLiteralExpression(options)) this.intercept(call, options);
      return;
    }
    if (MOCK_VERBS.test(name)) {
      const target = this.mockTarget(callee.expression);
      if (target) this.doubles.push({ kind: 'mock', node: call, target, replies: readMockReplies(call, target, this.text) });
      return;
    }
    if (this.isExpect(callee.expression) && !MATCHER_MODIFIERS.has(name)) this.expectations(call);
  }

  private route(library: RouteLibrary, call: ts.CallExpression, method: string, path: ts.Expression, base?: ts.Expression): void {
    const callee = call.expression as ts.PropertyAccessExpression;
    const query = library === 'nock' ? modifier(call, 'query') : undefined;
    this.doubles.push({ kind: 'route', library, node: call, method: method.toUpperCase() as HttpMethod, methodNode: callee.name as ts.Identifier, path, ...(base ? { base } : {}), ...(query ? { query } : {}), replies: readReplies(library, call) });
  }

  private intercept(call: ts.CallExpression, options: ts.ObjectLiteralExpression): void {
    const path = propertyOf(options, 'path');
    if (!path) return;
    const method = propertyOf(options, 'method');
    const literal = method && ts.isStringLiteralLike(method) ? method : undefined;
    if (method && !literal) return;
    this.doubles.push({ kind: 'route', library: 'MockAgent', node: call, method: (literal?.text.toUpperCase() ?? 'GET') as HttpMethod, ...(literal ? { methodNode: literal } : {}), path, options, replies: readReplies('MockAgent', call) });
  }

  /** The base given to `nock(...)` when the expression is a nock scope (through its chain or a name holding it); null for none given; undefined when it is no scope. */
  private nockBase(e: ts.Expression): ts.Expression | null | undefined {
    const n = unwrap(e);
    if (this.nockScopes.has(n)) return this.nockScopes.get(n)!;
    this.nockScopes.set(n, undefined as never);
    let base: ts.Expression | null | undefined;
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && importedModule(n.expression, this.text) === 'nock') base = n.arguments[0] ?? null;
    else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) base = this.nockBase(n.expression.expression);
    else if (ts.isIdentifier(n)) {
      const d = this.text.declarationOf(n);
      base = d && ts.isVariableDeclaration(d) && d.initializer ? this.nockBase(d.initializer) : undefined;
    }
    this.nockScopes.set(n, base as never);
    return base;
  }

  private isMsw(e: ts.Expression): boolean {
    const n = unwrap(e);
    return ts.isIdentifier(n) && (n.text === 'http' || n.text === 'rest') && importedModule(n, this.text) === 'msw';
  }

  private importsFrom(module: string, name: string): boolean {
    return this.sf.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === module && s.importClause?.namedBindings && ts.isNamedImports(s.importClause.namedBindings) && s.importClause.namedBindings.elements.some((e) => (e.propertyName ?? e.name).text === name));
  }

  /** `vi.mocked(axios.get)`, `vi.spyOn(globalThis, 'fetch')`, a name holding either, a `vi.fn()` made the global fetch, an earlier `.mockX(...)` of the chain. */
  private mockTarget(e: ts.Expression): MockTarget | undefined {
    const n = unwrap(e);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const verb = n.expression.name.text;
      const owner = n.expression.expression;
      if (MOCK_VERBS.test(verb)) return this.mockTarget(owner);
      if (!this.isTestRunner(owner)) return undefined;
      if (verb === 'mocked' && n.arguments[0]) return this.targetOf(n.arguments[0]);
      if (verb === 'spyOn' && n.arguments[0] && n.arguments[1] && ts.isStringLiteralLike(n.arguments[1])) {
        const object = unwrap(n.arguments[0]);
        const member = n.arguments[1];
        if (ts.isIdentifier(object) && /^(globalThis|global|window|self)$/.test(object.text) && member.text === 'fetch') return { kind: 'fetch' };
        if (ts.isIdentifier(object) && importedModule(object, this.text) === 'axios' && ROUTE_METHODS.has(member.text)) return { kind: 'client', client: 'axios', method: member.text.toUpperCase() as HttpMethod, methodNode: member };
        return { kind: 'function', node: object, member: member.text };
      }
      return undefined;
    }
    if (ts.isIdentifier(n)) {
      const d = this.text.declarationOf(n);
      if (d && this.fetchStand.has(d)) return { kind: 'fetch' };
      return d && ts.isVariableDeclaration(d) && d.initializer ? this.mockTarget(d.initializer) : undefined;
    }
    return undefined;
  }

  /** What `vi.mocked(x)` names: an axios method, the global fetch, ofetch, or a function of the program. */
  private targetOf(e: ts.Expression): MockTarget {
    const n = unwrap(e);
    if (ts.isIdentifier(n) && n.text === 'fetch' && !importedModule(n, this.text)) return { kind: 'fetch' };
    if (ts.isIdentifier(n) && /^ofetch(\/node)?$/.test(importedModule(n, this.text) ?? '')) return { kind: 'library', client: 'ofetch' };
    if (ts.isPropertyAccessExpression(n) && ROUTE_METHODS.has(n.name.text) && ts.isIdentifier(n.expression) && importedModule(n.expression, this.text) === 'axios') {
      return { kind: 'client', client: 'axios', method: n.name.text.toUpperCase() as HttpMethod, methodNode: n.name as ts.Identifier };
    }
    return { kind: 'function', node: n };
  }

  private isTestRunner(e: ts.Expression): boolean {
    const n = unwrap(e);
    if (!ts.isIdentifier(n)) return false;
    if (n.text === 'jest') return true;
    return n.text === 'vi' && importedModule(n, this.text) === 'vitest';
  }

  /** `const fetchMock = vi.fn(...); vi.stubGlobal('fetch', fetchMock)`: the name stands for fetch. */
  private findStubbedGlobals(): void {
    for (const node of nodesOf(this.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
      if (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'stubGlobal' && this.isTestRunner(node.expression.expression)) {
        const [name, value] = node.arguments;
        const held = value && unwrap(value);
        const d = held && ts.isIdentifier(held) ? this.text.declarationOf(held) : undefined;
        if (name && ts.isStringLiteralLike(name) && name.text === 'fetch' && d) this.fetchStand.add(d);
        if (name && ts.isStringLiteralLike(name) && name.text === 'fetch' && held && ts.isCallExpression(held)) {
          const stand = fnCall(held);
          if (stand) this.doubles.push({ kind: 'mock', node: stand, target: { kind: 'fetch' }, replies: readMockReplies(stand, { kind: 'fetch' }, this.text) });
        }
      }
    }
    // `vi.fn(impl)` held by a name that stands for fetch (given when declared, or later): its implementation is a mock of fetch.
    for (const d of this.fetchStand) {
      for (const value of ts.isVariableDeclaration(d) ? assignedValues(d) : []) {
        const init = unwrap(value);
        const stand = ts.isCallExpression(init) ? fnCall(init) : undefined;
        if (stand) this.doubles.push({ kind: 'mock', node: stand, target: { kind: 'fetch' }, replies: readMockReplies(stand, { kind: 'fetch' }, this.text) });
      }
    }
  }

  private isExpect(e: ts.Expression): boolean {
    let n = e;
    while (ts.isPropertyAccessExpression(n) && MATCHER_MODIFIERS.has(n.name.text)) n = n.expression;
    return ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'expect';
  }

  private expectations(matcher: ts.CallExpression): void {
    let n = (matcher.expression as ts.PropertyAccessExpression).expression;
    while (ts.isPropertyAccessExpression(n)) n = n.expression;
    const subject = ts.isCallExpression(n) ? n.arguments[0] : undefined;
    const visit = (node: ts.Node): void => {
      if (holdsV1Path(node)) this.doubles.push({ kind: 'expectation', node, what: 'path', matcher, ...(subject ? { subject } : {}) });
      else if (ts.isStringLiteral(node) && node.text === 'PUT') this.doubles.push({ kind: 'expectation', node, what: 'method', matcher, ...(subject ? { subject } : {}) });
      ts.forEachChild(node, visit);
    };
    for (const arg of matcher.arguments) visit(arg);
  }
}

/** `vi.fn(impl)`: the call itself stands for `mockImplementation(impl)`. */
function fnCall(call: ts.CallExpression): ts.CallExpression | undefined {
  return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'fn' && call.arguments[0] ? call : undefined;
}


/** `.query(...)` (or another modifier) chained on an interceptor before its reply. */
export function modifier(interceptor: ts.CallExpression, name: string): ts.CallExpression | undefined {
  for (let n: ts.Node = interceptor; ts.isPropertyAccessExpression(n.parent) && ts.isCallExpression(n.parent.parent); n = n.parent.parent) {
    const verb = n.parent.name.text;
    if (verb === name) return n.parent.parent;
    if (verb.startsWith('reply')) return undefined;
  }
  return undefined;
}

export function findDoubles(sf: ts.SourceFile, text: StaticText): Double[] {
  return new Finder(sf, text).find();
}

/** The callback of `it(...)` or `test(...)` a node stands in: the test the double is set up for. */
export function testBlockOf(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isCallExpression(n.parent) && isTestCall(n.parent)) return n;
  }
  return undefined;
}

/** Every test callback of a file. */
export function testBlocksIn(sf: ts.SourceFile): ts.Node[] {
  return nodesOf(sf)
    .ofKinds(ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression)
    .filter((node) => ts.isCallExpression(node.parent) && isTestCall(node.parent));
}

/** `it(...)`, `test.each(...)(...)`: a call that declares a test. */
export function isTestCall(call: ts.CallExpression): boolean {
  let callee: ts.Expression = call.expression;
  while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) && (callee.text === 'it' || callee.text === 'test');
}
