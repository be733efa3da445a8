/**
 * Functions handed to a GraphQL library: its resolvers. The library reads what a resolver returns
 * field by field, by the names the schema gives (`type Group { id: ID! }`, `fields: { id: ... }`),
 * in code migrate-v2 does not see and a schema it does not rewrite; records a resolver returns keep
 * their v1 names, and their calls stay on v1 (Analysis.keepRecordsReturnedToGraphql).
 */
import { ts } from 'ts-morph';
import { nodesOf } from './file-nodes.js';
import { readImport, readRequire, type Imported } from './module-shape.js';
import { calleeOf, functionName } from './places.js';
import { functionOf, returnedExpressions, unwrap } from './static-text.js';
import { memberName, propertyKey, usesOf } from './syntax.js';

/** Modules whose schemas read what resolvers return by field name (servers, schema builders, graphql-js itself). */
const GRAPHQL_MODULE = /^(?:graphql|graphql-yoga|@graphql-yoga\/.+|@graphql-tools\/.+|@apollo\/server(?:\/.+)?|@apollo\/subgraph|apollo-server(?:-.+)?|mercurius|graphql-http(?:\/.+)?|@pothos\/core|nexus)$/;

/**
 * Options of a server or schema whose functions are its own hooks, not resolvers: what they answer
 * (a context, a formatted error) is no record a schema reads by field name.
 */
const SERVER_HOOK = /^(?:context|dataSources|plugins|formatError|formatResponse|errorFormatter|validationRules|logger|cache|persistedQueries|onConnect|onDisconnect|onSubscribe|onOperation|onNext|onError|onComplete|maskedErrors|cors|landingPage|graphiql|fetchAPI)$/;

/** Modules whose decorators make methods resolvers, and those decorators. */
const DECORATOR_MODULE = /^(?:type-graphql|@nestjs\/graphql)$/;
const RESOLVER_DECORATOR = /^(?:Query|Mutation|Subscription|FieldResolver|ResolveField)$/;

export interface Resolver {
  fn: ts.SignatureDeclaration;
  /** Its place in what it is handed in (`resolvers.Query.groups`). */
  path: string;
  /** The call it is handed to (`new ApolloServer()`), or the decorator that hands it (`@Query() of @nestjs/graphql`). */
  handedTo: string;
}

/** What a file takes from other modules: imported, or required (`const { graphql } = require('graphql')`). */
function importsOf(sf: ts.SourceFile): Map<string, Imported> {
  const imports = new Map<string, Imported>();
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s)) {
      if (!s.importClause?.isTypeOnly) readImport(s, imports);
    } else readRequire(s, imports);
  }
  return imports;
}

function rootName(e: ts.Expression): string | undefined {
  let n = e;
  while (ts.isPropertyAccessExpression(n)) n = n.expression;
  return ts.isIdentifier(n) ? n.text : undefined;
}

/**
 * The functions a file hands to a GraphQL library: in the arguments of its calls (`new ApolloServer({
 * typeDefs, resolvers })`, `new GraphQLObjectType({ fields })`, `graphql({ schema, rootValue })`), at
 * any depth of their objects and arrays, through the variables and imports that hold them.
 */
export function resolversOf(sf: ts.SourceFile, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Resolver[] {
  const imports = importsOf(sf);
  return [...handedResolvers(sf, imports, declarationOf), ...decoratedResolvers(sf, imports)];
}

/** Members of a class, as resolvers of a root value (`rootValue: new Root()`): its methods and arrow fields. */
function classMembers(c: ts.ClassLikeDeclaration): [string, ts.SignatureDeclaration][] {
  return c.members.flatMap((m): [string, ts.SignatureDeclaration][] => {
    const key = m.name?.getText() ?? '';
    if (ts.isMethodDeclaration(m)) return [[key, m]];
    const value = ts.isPropertyDeclaration(m) && m.initializer ? unwrap(m.initializer) : undefined;
    return value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) ? [[key, value]] : [];
  });
}

/**
 * `X.groups = () => ...` after `const X = {}`: the members a variable of the file is given later,
 * with their keys.
 */
function membersAssigned(d: ts.VariableDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined): [string, ts.Expression][] {
  const sf = d.getSourceFile();
  return usesOf(sf, d, declarationOf).flatMap((id): [string, ts.Expression][] => {
    const member = id.parent;
    const assignment = member.parent;
    if (!(ts.isPropertyAccessExpression(member) || ts.isElementAccessExpression(member)) || member.expression !== id) return [];
    if (!ts.isBinaryExpression(assignment) || assignment.left !== member || assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return [];
    return [[memberName(member) ?? '[…]', assignment.right]];
  });
}

/**
 * Whether a call hands something to a GraphQL library: it calls one of its exports
 * (`new ApolloServer(...)`), or hands one on (`app.register(mercurius, { schema, resolvers })`).
 */
function takesResolvers(call: ts.CallExpression | ts.NewExpression, names: ReadonlySet<string>): boolean {
  const root = rootName(call.expression);
  return (root !== undefined && names.has(root)) || (call.arguments ?? []).some((a) => ts.isIdentifier(a) && names.has(a.text));
}

function handedResolvers(sf: ts.SourceFile, imports: ReadonlyMap<string, Imported>, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Resolver[] {
  const names = new Set([...imports].filter(([, i]) => GRAPHQL_MODULE.test(i.specifier)).map(([local]) => local));
  if (names.size === 0) return [];
  const found: Resolver[] = [];
  const taken = new Set<ts.Node>();
  const visited = new Set<ts.Node>();
  for (const call of nodesOf(sf).ofKinds(ts.SyntaxKind.CallExpression, ts.SyntaxKind.NewExpression) as (ts.CallExpression | ts.NewExpression)[]) {
    if (!takesResolvers(call, names)) continue;
    const handedTo = `${ts.isNewExpression(call) ? 'new ' : ''}${calleeOf(call)}()`;
    const add = (fn: ts.SignatureDeclaration, path: readonly string[]) => {
      if (path.some((key) => SERVER_HOOK.test(key)) || taken.has(fn)) return;
      found.push({ fn, path: path.join('.') || functionName(fn) || 'a function', handedTo });
      taken.add(fn);
    };
    // Maps of resolvers are made in many ways: literals, variables, imports, default exports, spreads,
    // calls that merge or build them (`merge({}, a, b)`, `makeResolvers(api)`), classes of root values.
    const collect = (expr: ts.Expression, path: readonly string[]): void => {
      const e = unwrap(expr);
      if (visited.has(e) || path.some((key) => SERVER_HOOK.test(key))) return;
      visited.add(e);
      if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) {
        add(e, path);
        // A thunk (`fields: () => ({ ... })`) answers the map of fields, with their resolvers; what a resolver answers is not followed.
        for (const returned of returnedExpressions(e)) if (ts.isObjectLiteralExpression(unwrap(returned))) collect(returned, path);
      } else if (ts.isArrayLiteralExpression(e)) for (const x of e.elements) collect(ts.isSpreadElement(x) ? x.expression : x, path);
      else if (ts.isObjectLiteralExpression(e)) {
        for (const p of e.properties) {
          const key = propertyKey(p) ?? '[…]';
          if (ts.isPropertyAssignment(p)) collect(p.initializer, [...path, key]);
          else if (ts.isShorthandPropertyAssignment(p)) collect(p.name, [...path, key]);
          else if (ts.isMethodDeclaration(p)) add(p, [...path, key]);
          else if (ts.isSpreadAssignment(p)) collect(p.expression, path);
        }
      } else if (ts.isCallExpression(e)) {
        for (const arg of e.arguments) collect(arg, path);
        const fn = functionOf(e.expression, declarationOf);
        if (fn) for (const returned of returnedExpressions(fn)) collect(returned, path);
      } else if (ts.isNewExpression(e)) {
        const c = ts.isIdentifier(e.expression) ? declarationOf(e.expression) : undefined;
        if (c && ts.isClassLike(c)) for (const [key, fn] of classMembers(c)) add(fn, [...path, key]);
      } else if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
        // `...groupResolvers.Query` under `Query`: the whole map it is read from, siblings included, its keys in their place.
        const name = memberName(e);
        collect(e.expression, name !== undefined && path.at(-1) === name ? path.slice(0, -1) : path);
      } else if (ts.isIdentifier(e)) {
        const d = declarationOf(e);
        const at = path.length ? path : [e.text];
        if (d && ts.isFunctionDeclaration(d)) add(d, at);
        else if (d && ts.isExportAssignment(d)) collect(d.expression, at);
        else if (d && ts.isVariableDeclaration(d)) {
          if (d.initializer) collect(d.initializer, at);
          for (const [key, value] of membersAssigned(d, declarationOf)) collect(value, [...at, key]);
        }
      }
    };
    for (const arg of call.arguments ?? []) collect(arg, []);
  }
  return found;
}

/**
 * Methods a decorator makes resolvers of (type-graphql, NestJS): `@Query(() => [Group]) groups()`,
 * `@ResolveField() parent()`, in any class of the file; the schema is then made from the classes.
 */
function decoratedResolvers(sf: ts.SourceFile, imports: ReadonlyMap<string, Imported>): Resolver[] {
  const decorators = new Map([...imports].filter(([, i]) => DECORATOR_MODULE.test(i.specifier)));
  if (decorators.size === 0) return [];
  const resolverDecorator = (d: ts.Decorator): string | undefined => {
    const callee = ts.isCallExpression(d.expression) ? d.expression.expression : d.expression;
    const root = rootName(callee);
    const imported = root === undefined ? undefined : decorators.get(root);
    const name = imported && (imported.name === '*' || imported.name === 'default') && ts.isPropertyAccessExpression(callee) ? callee.name.text : imported?.name;
    return imported && name && RESOLVER_DECORATOR.test(name) ? `@${name}() of ${imported.specifier}` : undefined;
  };
  const found: Resolver[] = [];
  for (const method of nodesOf(sf).of<ts.MethodDeclaration>(ts.SyntaxKind.MethodDeclaration)) {
    const handedTo = (ts.canHaveDecorators(method) ? ts.getDecorators(method) ?? [] : []).map(resolverDecorator).find((d) => d !== undefined);
    const owner = method.parent;
    if (handedTo && ts.isClassLike(owner)) found.push({ fn: method, path: `${owner.name?.text ?? 'a class'}.${method.name.getText(sf)}`, handedTo });
  }
  return found;
}
