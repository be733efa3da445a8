/**
 * Functions handed to a GraphQL library: its resolvers. The library reads what a resolver returns
 * field by field, by the names the schema gives (`type Group { id: ID! }`, `fields: { id: ... }`),
 * in code migrate-v2 does not see and a schema it does not rewrite; records a resolver returns keep
 * their v1 names, and their calls stay on v1 (Analysis.keepRecordsReturnedToGraphql).
 */
import { ts } from 'ts-morph';
import { nodesOf } from './file-nodes.js';
import { readImport, type Imported } from './module-shape.js';
import { calleeOf } from './places.js';
import { returnedExpressions, unwrap } from './static-text.js';

/** Modules whose schemas read what resolvers return by field name (servers, schema builders, graphql-js itself). */
const GRAPHQL_MODULE = /^(?:graphql|graphql-yoga|@graphql-yoga\/.+|@graphql-tools\/.+|@apollo\/server(?:\/.+)?|@apollo\/subgraph|apollo-server(?:-.+)?|mercurius|graphql-http(?:\/.+)?|@pothos\/core|nexus)$/;

/**
 * The keys resolvers sit under: `resolvers` (Apollo, graphql-tools, yoga), `rootValue`, a field's
 * `resolve` or `subscribe` in `fields`. Functions under other options (`context`, `plugins`,
 * `formatError`) are the server's own and answer no records to a schema.
 */
const RESOLVER_KEY = /^(?:resolvers|rootValue|fields|resolve|subscribe)$/;

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

/** What a file takes from other modules: imported, or taken from `require(...)` (`const { graphql } = require('graphql')`). */
function importsOf(sf: ts.SourceFile): Map<string, Imported> {
  const imports = new Map<string, Imported>();
  for (const s of sf.statements) if (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly) readImport(s, imports);
  for (const d of nodesOf(sf).of<ts.VariableDeclaration>(ts.SyntaxKind.VariableDeclaration)) {
    const init = d.initializer && unwrap(d.initializer);
    const module = init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' ? init.arguments[0] : undefined;
    if (!module || !ts.isStringLiteral(module)) continue;
    if (ts.isIdentifier(d.name)) imports.set(d.name.text, { specifier: module.text, name: '*' });
    else if (ts.isObjectBindingPattern(d.name)) {
      for (const e of d.name.elements) if (ts.isIdentifier(e.name)) imports.set(e.name.text, { specifier: module.text, name: e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : e.name.text });
    }
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

function handedResolvers(sf: ts.SourceFile, imports: ReadonlyMap<string, Imported>, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Resolver[] {
  const names = new Set([...imports].filter(([, i]) => GRAPHQL_MODULE.test(i.specifier)).map(([local]) => local));
  if (names.size === 0) return [];
  const found: Resolver[] = [];
  const taken = new Set<ts.Node>();
  const visited = new Set<ts.Node>();
  for (const call of nodesOf(sf).ofKinds(ts.SyntaxKind.CallExpression, ts.SyntaxKind.NewExpression) as (ts.CallExpression | ts.NewExpression)[]) {
    const root = rootName(call.expression);
    if (!root || !names.has(root)) continue;
    const handedTo = `${ts.isNewExpression(call) ? 'new ' : ''}${calleeOf(call)}()`;
    const add = (fn: ts.SignatureDeclaration, path: readonly string[]) => {
      if (!path.some((key) => RESOLVER_KEY.test(key))) return;
      if (!taken.has(fn)) found.push({ fn, path: path.join('.'), handedTo });
      taken.add(fn);
    };
    const collect = (expr: ts.Expression, path: readonly string[]): void => {
      const e = unwrap(expr);
      if (visited.has(e)) return;
      visited.add(e);
      if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) {
        add(e, path);
        // A thunk (`fields: () => ({ ... })`) answers the map of fields, with their resolvers.
        for (const returned of returnedExpressions(e)) collect(returned, path);
      } else if (ts.isArrayLiteralExpression(e)) for (const x of e.elements) collect(ts.isSpreadElement(x) ? x.expression : x, path);
      else if (ts.isObjectLiteralExpression(e)) {
        for (const p of e.properties) {
          // The object may be another module's (`import { resolvers } from './resolvers'`).
          const key = p.name && !ts.isComputedPropertyName(p.name) ? p.name.getText().replace(/^['"]|['"]$/g, '') : '[…]';
          if (ts.isPropertyAssignment(p)) collect(p.initializer, [...path, key]);
          else if (ts.isShorthandPropertyAssignment(p)) collect(p.name, [...path, key]);
          else if (ts.isMethodDeclaration(p)) add(p, [...path, key]);
          else if (ts.isSpreadAssignment(p)) collect(p.expression, path);
        }
      } else if (ts.isIdentifier(e)) {
        const d = declarationOf(e);
        if (d && ts.isFunctionDeclaration(d)) add(d, path.length ? path : [e.text]);
        else if (d && ts.isVariableDeclaration(d) && d.initializer) collect(d.initializer, path.length ? path : [e.text]);
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
