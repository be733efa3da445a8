/**
 * Redux Toolkit's entity adapters (`createEntityAdapter<Identity>()`): they key each record by its
 * `id` unless given a `selectId`, and read nothing else of it. Their methods (`setAll`, `upsertMany`)
 * are no unseen readers of the records handed them where the key is known (adapterKeyKnown).
 */
import { ts } from 'ts-morph';
import { renamedFieldNames } from '../contract/index.js';
import { readImport, type Imported } from './module-shape.js';
import { unwrap } from './static-text.js';
import { forEachNode, memberName, propertyKey } from './syntax.js';

const REDUX_TOOLKIT = /^@reduxjs\/toolkit(\/|$)/;
const RENAMED = renamedFieldNames();

/** `createEntityAdapter(...)`, `RTK.createEntityAdapter(...)`, under any local name it is imported as from Redux Toolkit. */
export function makesEntityAdapter(call: ts.CallExpression): boolean {
  const callee = call.expression;
  const local = ts.isIdentifier(callee) ? callee : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.name.text === 'createEntityAdapter' ? callee.expression : undefined;
  if (!local) return false;
  const imports = new Map<string, Imported>();
  for (const s of call.getSourceFile().statements) if (ts.isImportDeclaration(s)) readImport(s, imports);
  const imported = imports.get(local.text);
  return imported !== undefined && REDUX_TOOLKIT.test(imported.specifier) && imported.name === (local === callee ? 'createEntityAdapter' : '*');
}

/**
 * `identitiesAdapter.setAll(state, records)`: a method of a constant made by createEntityAdapter
 * whose key is known.
 */
export function ofEntityAdapter(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const adapter = ts.isPropertyAccessExpression(call.expression) && ts.isIdentifier(call.expression.expression) ? declarationOf(call.expression.expression) : undefined;
  const made = adapter && ts.isVariableDeclaration(adapter) && adapter.initializer ? unwrap(adapter.initializer) : undefined;
  return made !== undefined && ts.isCallExpression(made) && makesEntityAdapter(made) && adapterKeyKnown(made);
}

/**
 * An adapter's key is known where a record type is written on it and its options are written in
 * place (or absent): the renames follow that type's `id`, into a `selectId` written there or one
 * they add (field-renames). Untyped, only a `selectId` that reads no name v2 changes is known;
 * without one the adapter reads `id` out of sight.
 */
function adapterKeyKnown(made: ts.CallExpression): boolean {
  const options = made.arguments[0] && unwrap(made.arguments[0]);
  if (options && !ts.isObjectLiteralExpression(options)) return false;
  if ((made.typeArguments?.length ?? 0) > 0) return true;
  const selectId = selectIdOf(options);
  let renamed = false;
  if (selectId) forEachNode(selectId, (n) => (renamed ||= RENAMED.has(memberName(n) ?? '')));
  return selectId !== undefined && !renamed;
}

/** The `selectId` an adapter's options object names, if any. */
export function selectIdOf(options: ts.Expression | undefined): ts.ObjectLiteralElementLike | undefined {
  return options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => propertyKey(p) === 'selectId') : undefined;
}
