/**
 * The text of a URL expression as far as it is known before run time: string and template
 * literals, concatenation, `new URL(path, base)`, and constants and object-table members followed
 * to their declarations by symbol (so two functions that each declare `const url` never mix, and a
 * constant imported from another file is read where a tsconfig lets the checker see it). A part
 * known only at run time is a HOLE. Every literal the text is made of, and every reference followed
 * on the way, is recorded: those are what a path rewrite edits, and what a split redirects.
 */
import { ts } from 'ts-morph';
import { hasModifier } from './module-shape.js';

export const HOLE = '\u0001';
/** Stands for a parameter of a function being read as a wrapper (wrappers.ts): its path, whatever it is. */
export const PARAMETER_MARK = '\u0002';

export type PathLiteral = ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateHead | ts.TemplateMiddle | ts.TemplateTail;

/** The syntax kinds of a PathLiteral, for a pass that lists them from a file's nodes. */
export const PATH_LITERAL_KINDS = [ts.SyntaxKind.StringLiteral, ts.SyntaxKind.NoSubstitutionTemplateLiteral, ts.SyntaxKind.TemplateHead, ts.SyntaxKind.TemplateMiddle, ts.SyntaxKind.TemplateTail] as const;

/** A name followed to the declaration that gives it a value: `REPO_PATH`, `PATHS.groups`. */
export interface FollowedReference {
  node: ts.Identifier | ts.PropertyAccessExpression;
  /** A const, a member of a const table, or a class's `static readonly` member. */
  declaration: ts.VariableDeclaration | ts.PropertyAssignment | ts.PropertyDeclaration;
}

export interface Evaluated {
  text: string;
  literals: PathLiteral[];
  references: FollowedReference[];
  /** Uses of a base URL variable the config declares (`process.env.IAM_URL` holding `.../iam/v1`). */
  bases?: BaseUse[];
  /** The query is there on one branch only (`q ? \`?${q}\` : ''`): whether the URL has a `?` is known only at run time. */
  queryMaybe?: boolean;
}

/** A base URL variable declared in migrate-v2.config.json: its value ends with a v1 prefix the code cannot show. */
export interface DeclaredBase {
  name: string;
  /** The v1 prefix its value ends with (`/iam/v1`). */
  path: string;
  /** The variable holding the matching v2 base, when the team has one. */
  v2?: string;
}

export interface BaseUse {
  node: ts.Expression;
  base: DeclaredBase;
}

/** What several parts carry into an Evaluated put together from them: their bases, and a query there on one branch only. */
function carried(...parts: Evaluated[]): Pick<Evaluated, 'bases' | 'queryMaybe'> {
  const bases = parts.flatMap((p) => p.bases ?? []);
  return { ...(bases.length > 0 ? { bases } : {}), ...(parts.some((p) => p.queryMaybe) ? { queryMaybe: true } : {}) };
}

/** `IAM_URL`, `process.env.IAM_URL`, `process.env['IAM_URL']`: the name a use of a base variable reads. */
function baseName(n: ts.Expression): string | undefined {
  if (ts.isIdentifier(n)) return n.text;
  const env = ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) ? n.expression.getText() : '';
  if (env !== 'process.env' && env !== 'import.meta.env') return undefined;
  if (ts.isPropertyAccessExpression(n)) return n.name.text;
  return ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression) ? n.argumentExpression.text : undefined;
}

/**
 * `{ name, 'uidp.children_of': x }`, `name ? { name } : {}`: the query keys an object gives (of
 * either branch, each perhaps absent) as `key=HOLE&...`; a key it cannot name is a HOLE. Undefined
 * when it is no object written here.
 */
export function queryKeysOf(init: ts.Expression | undefined): string | undefined {
  const object = init && unwrap(init);
  const objects = object && ts.isConditionalExpression(object) ? [unwrap(object.whenTrue), unwrap(object.whenFalse)] : object ? [object] : [];
  if (objects.length === 0 || !objects.every(ts.isObjectLiteralExpression)) return undefined;
  const keys = objects.flatMap((o) => o.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && !ts.isSpreadAssignment(p) ? `${p.name.text}=${HOLE}` : HOLE)));
  return [...new Set(keys)].join('&');
}

/** `new URLSearchParams({ name })`: the keys are known, the values are not. */
function queryOf(init: ts.Expression | undefined): Evaluated | undefined {
  const text = queryKeysOf(init);
  return text === undefined ? undefined : { text, literals: [], references: [] };
}

/** The expression under parentheses, type assertions, `!` and `await`. */
export function unwrap(node: ts.Expression): ts.Expression {
  let n = node;
  while (WRAPPING_KINDS.has(n.kind)) n = (n as WrappingExpression).expression;
  return n;
}

type WrappingExpression = ts.ParenthesizedExpression | ts.AsExpression | ts.NonNullExpression | ts.SatisfiesExpression | ts.AwaitExpression | ts.TypeAssertion;

/** The kinds `unwrap` looks through, as a set: it runs for nearly every expression the analysis reads. */
const WRAPPING_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.AsExpression,
  ts.SyntaxKind.NonNullExpression,
  ts.SyntaxKind.SatisfiesExpression,
  ts.SyntaxKind.AwaitExpression,
  ts.SyntaxKind.TypeAssertionExpression,
]);

export function isPathLiteral(node: ts.Node): node is PathLiteral {
  return (PATH_LITERAL_KINDS as readonly ts.SyntaxKind[]).includes(node.kind);
}

export function isConst(declaration: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
}

function isStaticReadonly(declaration: ts.PropertyDeclaration): boolean {
  return hasModifier(declaration, ts.SyntaxKind.StaticKeyword) && hasModifier(declaration, ts.SyntaxKind.ReadonlyKeyword);
}

function readByClassName(node: ts.Identifier | ts.PropertyAccessExpression, member: ts.PropertyDeclaration): boolean {
  const owner = member.parent;
  return ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && ts.isClassDeclaration(owner) && node.expression.text === owner.name?.text;
}

export class StaticText {
  private readonly cache = new Map<ts.Node, Evaluated | undefined>();

  /**
   * `bindings`: what some parameters stand for: a marker text, when a wrapper's URL is read to find
   * where its path parameter stands; the argument's text, when a URL builder's result is read.
   */
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly bindings: ReadonlyMap<ts.Declaration, Evaluated> = new Map(),
    readonly bases: readonly DeclaredBase[] = [],
    /** What each name was found to refer to, asked once and shared by every reader of the program. */
    private readonly declarations = new Map<ts.Node, ts.Declaration | null>(),
  ) {}

  /** The same reader, with some parameters standing for given texts. */
  bound(bindings: ReadonlyMap<ts.Declaration, Evaluated>): StaticText {
    return new StaticText(this.checker, bindings, this.bases, this.declarations);
  }

  /** A use of a declared base variable: its value's v1 prefix, known only by the config. */
  private baseUse(n: ts.Expression): Evaluated | undefined {
    if (this.bases.length === 0) return undefined;
    const name = baseName(n);
    const base = name && this.bases.find((b) => b.name === name);
    return base ? { text: `${HOLE}${base.path}`, literals: [], references: [], bases: [{ node: n, base }] } : undefined;
  }

  /** The declaration a name refers to, through imports. */
  declarationOf(node: ts.Node): ts.Declaration | undefined {
    let found = this.declarations.get(node);
    if (found === undefined) {
      let symbol = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node ? this.checker.getShorthandAssignmentValueSymbol(node.parent) : this.checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      found = symbol?.valueDeclaration ?? symbol?.declarations?.[0] ?? null;
      this.declarations.set(node, found);
    }
    return found ?? undefined;
  }

  /** The import that brings a name into its file (the specifier or clause), without following it to the module. */
  importOf(node: ts.Node): ts.Declaration | undefined {
    const symbol = this.checker.getSymbolAtLocation(node);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? symbol.declarations?.[0] : undefined;
  }

  /** The value a followed name stands for, when it is fixed: a const initialiser or a table member. */
  private valueOf(node: ts.Identifier | ts.PropertyAccessExpression): FollowedReference & { value: ts.Expression } | undefined {
    const declaration = this.declarationOf(ts.isIdentifier(node) ? node : node.name);
    if (!declaration) return undefined;
    if (ts.isVariableDeclaration(declaration) && declaration.initializer && isConst(declaration)) return { node, declaration, value: declaration.initializer };
    if (ts.isPropertyAssignment(declaration) && ts.isObjectLiteralExpression(declaration.parent)) {
      // A member of a table is fixed only when the table is a const.
      const table = declaration.parent.parent;
      const owner = ts.isAsExpression(table) || ts.isSatisfiesExpression(table) ? table.parent : table;
      if (ts.isVariableDeclaration(owner) && isConst(owner)) return { node, declaration, value: declaration.initializer };
      // `Platform.PATHS.groups` of `static readonly PATHS = { groups: '/iam/v1/groups' }`, read by the class's name.
      const read = ts.isPropertyAccessExpression(node) ? unwrap(node.expression) : undefined;
      if (ts.isPropertyDeclaration(owner) && isStaticReadonly(owner) && read && ts.isPropertyAccessExpression(read) && readByClassName(read, owner)) return { node, declaration, value: declaration.initializer };
    }
    // `Groups.PATH` of `private static readonly PATH = '/iam/v1/groups'`; never `this.PATH`, which a subclass may override.
    if (ts.isPropertyDeclaration(declaration) && declaration.initializer && isStaticReadonly(declaration) && readByClassName(node, declaration)) return { node, declaration, value: declaration.initializer };
    return undefined;
  }

  /** The known text of an expression with run-time parts as HOLE; undefined when none of it is known. */
  of(node: ts.Expression): Evaluated | undefined {
    return this.evaluate(node, 0);
  }

  /**
   * The query a `new URL(...)` held in a variable gets in place: `url.searchParams.set('name', x)`
   * reads as `name=HOLE`, a key known only at run time (or `url.search = ...`) as HOLE.
   */
  private queryAddedTo(declaration: ts.VariableDeclaration): string {
    const init = declaration.initializer && unwrap(declaration.initializer);
    if (!init || !ts.isNewExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'URL' || !ts.isIdentifier(declaration.name)) return '';
    const name = declaration.name.text;
    let scope: ts.Node = declaration;
    while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
    const keys: string[] = [];
    const isUrl = (e: ts.Expression): boolean => ts.isIdentifier(e) && e.text === name && this.declarationOf(e) === declaration;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /^(set|append)$/.test(node.expression.name.text)) {
        const params = node.expression.expression;
        if (ts.isPropertyAccessExpression(params) && params.name.text === 'searchParams' && isUrl(params.expression)) {
          const key = node.arguments[0];
          keys.push(key && ts.isStringLiteralLike(key) ? `${key.text}=${HOLE}` : HOLE);
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && node.left.name.text === 'search' && isUrl(node.left.expression)) keys.push(HOLE);
      ts.forEachChild(node, visit);
    };
    visit(scope);
    return keys.join('&');
  }

  /** Just the text. */
  textOf(node: ts.Expression): string | undefined {
    return this.of(node)?.text;
  }

  private evaluate(node: ts.Expression, depth: number): Evaluated | undefined {
    if (depth > 12) return undefined;
    const n = unwrap(node);
    if (this.cache.has(n)) return this.cache.get(n);
    this.cache.set(n, undefined); // a cycle of constants reads as unknown
    const result = this.compute(n, depth);
    this.cache.set(n, result);
    return result;
  }

  private compute(n: ts.Expression, depth: number): Evaluated | undefined {
    const part = (e: ts.Expression): Evaluated => this.evaluate(e, depth + 1) ?? { text: HOLE, literals: [], references: [] };
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return { text: n.text, literals: [n], references: [] };
    const base = this.baseUse(n);
    if (base) return base;
    if (ts.isTemplateExpression(n)) {
      const out: Evaluated = { text: n.head.text, literals: [n.head], references: [] };
      const inners: Evaluated[] = [];
      for (const span of n.templateSpans) {
        const inner = part(span.expression);
        inners.push(inner);
        out.text += inner.text + span.literal.text;
        out.literals.push(...inner.literals, span.literal);
        out.references.push(...inner.references);
      }
      return { ...out, ...carried(...inners) };
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = part(n.left);
      const right = part(n.right);
      return { text: left.text + right.text, literals: [...left.literals, ...right.literals], references: [...left.references, ...right.references], ...carried(left, right) };
    }
    if (ts.isIdentifier(n) && this.bindings.size > 0) {
      const declaration = this.declarationOf(n);
      const bound = declaration && this.bindings.get(declaration);
      if (bound) return bound;
    }
    if (ts.isIdentifier(n) || (ts.isPropertyAccessExpression(n) && !ts.isPrivateIdentifier(n.name))) {
      const followed = this.valueOf(n as ts.Identifier | ts.PropertyAccessExpression);
      if (!followed) return undefined;
      const inner = this.evaluate(followed.value, depth + 1);
      if (!inner) return undefined;
      const query = ts.isVariableDeclaration(followed.declaration) ? this.queryAddedTo(followed.declaration) : '';
      const text = query ? `${inner.text}${inner.text.includes('?') ? '&' : '?'}${query}` : inner.text;
      return { ...inner, text, references: [{ node: followed.node, declaration: followed.declaration }, ...inner.references] };
    }
    if (ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression)) {
      // PATHS['groups'] reads like PATHS.groups
      const object = unwrap(n.expression);
      if (!ts.isIdentifier(object)) return undefined;
      const declaration = this.declarationOf(object);
      const table = declaration && ts.isVariableDeclaration(declaration) && declaration.initializer ? unwrap(declaration.initializer) : undefined;
      const member = table && ts.isObjectLiteralExpression(table) ? table.properties.find((p) => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === (n.argumentExpression as ts.StringLiteral).text) : undefined;
      return member && ts.isPropertyAssignment(member) ? this.evaluate(member.initializer, depth + 1) : undefined;
    }
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URL' && n.arguments?.length) {
      const path = part(n.arguments[0]!);
      if (/^[a-z]+:\/\//.test(path.text) || n.arguments.length < 2) return path;
      const base = part(n.arguments[1]!);
      return {
        text: base.text.replace(/\/$/, '') + (path.text.startsWith('/') ? path.text : `/${path.text}`),
        literals: [...base.literals, ...path.literals],
        references: [...base.references, ...path.references],
        ...carried(base, path),
      };
    }
    if (ts.isCallExpression(n)) {
      const built = this.builtUrl(n, depth);
      if (built) return built;
    }
    if (ts.isConditionalExpression(n)) return this.eitherUrl(part(n.whenTrue), part(n.whenFalse));
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URLSearchParams') return queryOf(n.arguments?.[0]);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (n.expression.name.text === 'toString' || n.expression.name.text === 'href') && n.arguments.length === 0) {
      return this.evaluate(n.expression.expression, depth + 1);
    }
    return undefined;
  }

  /**
   * `query ? \`${path}?${query}\` : path`: one URL with or without a query known only at run time
   * reads as the URL with that query. Branches that differ otherwise are unknown.
   */
  private eitherUrl(a: Evaluated, b: Evaluated): Evaluated | undefined {
    const [short, long] = a.text.length <= b.text.length ? [a, b] : [b, a];
    if (long.text !== short.text && !long.text.startsWith(`${short.text}?`)) return undefined;
    const either = long.text !== short.text ? { queryMaybe: true } : {};
    return { text: long.text, literals: [...a.literals, ...b.literals], references: [...a.references, ...b.references], ...carried(a, b), ...either };
  }

  /**
   * `url(PATHS.groups, { id })`: the text a URL builder of the program returns, its parameters
   * bound to the arguments' texts. Query parameters it adds at run time from an object argument
   * (`searchParams.set`) are read as `?key=HOLE`, so that a read by `?id=` is still one.
   */
  private builtUrl(call: ts.CallExpression, depth: number): Evaluated | undefined {
    const fn = functionOf(call.expression, (node) => this.declarationOf(node));
    const returned = fn && soleReturn(fn);
    if (!fn || !returned) return undefined;
    const bindings = new Map(this.bindings);
    fn.parameters.forEach((p, i) => {
      const arg = call.arguments[i];
      if (arg && ts.isIdentifier(p.name)) bindings.set(p, this.evaluate(arg, depth + 1) ?? { text: HOLE, literals: [], references: [] });
    });
    const result = this.bound(bindings).evaluate(returned, depth + 1);
    if (!result || !(result.text.includes('/') || result.text.includes(PARAMETER_MARK))) return undefined;
    const query = call.arguments.slice(1).map((a) => unwrap(a)).find((a) => !ts.isStringLiteralLike(a));
    // A query already in the returned text was put there by the builder's own template.
    if (!query || result.text.includes('?')) return result;
    return { ...result, text: `${result.text}${result.text.includes('?') ? '&' : '?'}${queryKeysOf(query) ?? HOLE}` };
  }
}

export type FunctionWithBody = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

/** The function a callee names in the program: a function declaration, a method, or a const holding one. */
export function functionOf(callee: ts.Expression, declarationOf: (node: ts.Node) => ts.Declaration | undefined): FunctionWithBody | undefined {
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  if (!ts.isIdentifier(name)) return undefined;
  const declaration = declarationOf(name);
  if (!declaration) return undefined;
  if ((ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) && declaration.body) return declaration;
  const init = ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration) || ts.isPropertyAssignment(declaration) ? declaration.initializer : exportedValue(declaration);
  const fn = init && unwrap(init);
  if (fn && ts.isCallExpression(fn)) return madeBy(fn, declarationOf, 0);
  return fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn : undefined;
}

/**
 * `exports.getJson = async function (path) {...}`, `module.exports = function (path) {...}`: in
 * JavaScript the checker declares a CommonJS export by the target of its assignment (a named one) or
 * by the assignment itself (the module's whole export); the value is what is assigned.
 */
export function exportedValue(declaration: ts.Declaration): ts.Expression | undefined {
  const assignment: ts.Node = ts.isBinaryExpression(declaration) ? declaration : declaration.parent;
  const target = (ts.isPropertyAccessExpression(declaration) || ts.isElementAccessExpression(declaration)) ? declaration : ts.isBinaryExpression(declaration) ? declaration.left : undefined;
  return target && ts.isBinaryExpression(assignment) && assignment.left === target && assignment.operatorToken.kind === ts.SyntaxKind.EqualsToken ? assignment.right : undefined;
}

/** `check(res)` that tests a response and returns it: a function that gives back its first parameter whenever it returns. */
export function givesBackItsArgument(fn: ts.SignatureDeclaration, declarationOf: (node: ts.Node) => ts.Declaration | undefined): boolean {
  const parameter = fn.parameters[0]?.name;
  if (!parameter || !ts.isIdentifier(parameter)) return false;
  const returned = returnedExpressions(fn);
  return returned.length > 0 && returned.every((e) => {
    const r = unwrap(e);
    return ts.isIdentifier(r) && declarationOf(r) === parameter.parent;
  });
}

/** `const api = transportFromEnv()`: the function a factory of the program returns (through factories it calls). */
function madeBy(call: ts.CallExpression, declarationOf: (node: ts.Node) => ts.Declaration | undefined, depth: number): FunctionWithBody | undefined {
  const factory = depth < 3 ? functionOf(call.expression, declarationOf) : undefined;
  const made = factory && soleReturn(factory);
  const n = made && unwrap(made);
  if (!n) return undefined;
  if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) return n;
  return ts.isCallExpression(n) ? madeBy(n, declarationOf, depth + 1) : undefined;
}

/** The expressions a function returns (not those of functions inside it), or an arrow's body. */
export function returnedExpressions(fn: ts.SignatureDeclaration): readonly ts.Expression[] {
  // Asked at every call of a function of the program, of a body walked once: trees do not change while they are read.
  let out = returnsOf.get(fn);
  if (out) return out;
  const body = 'body' in fn ? (fn.body as ts.ConciseBody | undefined) : undefined;
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node)) {
      if (node.expression) found.push(node.expression);
    } else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  if (body && ts.isBlock(body)) visit(body);
  else if (body) found.push(body);
  returnsOf.set(fn, (out = found));
  return out;
}

const returnsOf = new WeakMap<ts.SignatureDeclaration, readonly ts.Expression[]>();

/** The one expression a function returns: an arrow's body, or its only return statement. */
function soleReturn(fn: FunctionWithBody): ts.Expression | undefined {
  const returns = returnedExpressions(fn);
  return returns.length === 1 ? returns[0] : undefined;
}
