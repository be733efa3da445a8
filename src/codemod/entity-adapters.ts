/**
 * Redux Toolkit's entity adapters (`createEntityAdapter<Identity>()`): they key each record by its
 * `id` unless given a `selectId`, and read nothing else of it. Their methods (`setAll`, `upsertMany`)
 * are no unseen readers of the records handed them.
 */
import { ts } from 'ts-morph';
import { unwrap } from './static-text.js';

const REDUX_TOOLKIT = /^@reduxjs\/toolkit(\/|$)/;

/** `createEntityAdapter(...)`, under any local name it is imported as from Redux Toolkit. */
export function makesEntityAdapter(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isIdentifier(callee)) return false;
  return call.getSourceFile().statements.some((s) => {
    const named = ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && REDUX_TOOLKIT.test(s.moduleSpecifier.text) ? s.importClause?.namedBindings : undefined;
    return named !== undefined && ts.isNamedImports(named) && named.elements.some((e) => e.name.text === callee.text && (e.propertyName ?? e.name).text === 'createEntityAdapter');
  });
}

/**
 * `identitiesAdapter.setAll(state, records)`: a method of a constant made by createEntityAdapter
 * whose key is known: its `selectId`, or its record type's `id`, which the renames give a `selectId`
 * where they rename it. Untyped (`createEntityAdapter()`), it reads `id` out of sight.
 */
export function ofEntityAdapter(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const adapter = ts.isPropertyAccessExpression(call.expression) && ts.isIdentifier(call.expression.expression) ? declarationOf(call.expression.expression) : undefined;
  const made = adapter && ts.isVariableDeclaration(adapter) && adapter.initializer ? unwrap(adapter.initializer) : undefined;
  if (!made || !ts.isCallExpression(made) || !makesEntityAdapter(made)) return false;
  const options = made.arguments[0] && unwrap(made.arguments[0]);
  return selectIdOf(options) !== undefined || (made.typeArguments?.length ?? 0) > 0;
}

/** The `selectId` an adapter's options object names, if any. */
export function selectIdOf(options: ts.Expression | undefined): ts.ObjectLiteralElementLike | undefined {
  return options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'selectId') : undefined;
}
