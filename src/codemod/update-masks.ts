/**
 * The `updateMask` a v1 full-replace `PUT` becomes on v2: the fields its body sets over a record
 * (`{...group, description}` -> `description`), or, for a record read earlier and written back whole,
 * the fields changed on it first (`group.description = ...`). Undefined where they cannot be known
 * (the update then keeps v1's full replace with `*`). Read by the updates transform and by the test
 * doubles that must expect what the migrated call sends.
 */
import { ts } from 'ts-morph';
import { enclosingScope, isAssignment, isEquality, jsonPayload, memberName, propertyKey, usesOf } from './syntax.js';
import type { V1Call } from './v1-calls.js';
import { unwrap } from './static-text.js';
import type { FieldRule } from '../contract/index.js';

/** The mask text a migrated update sends: the fields, or `*` when they cannot be known. */
export function maskText(mask: readonly string[] | undefined): string {
  return mask ? mask.join(',') : '*';
}

/** The name a field has in a v2 mask: its write key for a reference. */
const maskName = (field: FieldRule): string => field.reference?.writeKey?.v2 ?? field.v2 ?? field.v1!;

/** The v2 name of a mutable field the body may set, by its v1 key. */
function mutableField(call: V1Call, key: string): string | undefined {
  const field = call.resource.fields.find((f) => f.v1 === key || f.reference?.writeKey?.v1 === key);
  return field?.access === 'mutable' ? maskName(field) : undefined;
}

const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'set', 'delete', 'add', 'clear']);

/** Whether a use of the record only tests it (`!g`, `typeof g`, `g === other`, `if (g)`, `g && ...`): the value goes nowhere. */
function onlyTests(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) || ts.isTypeOfExpression(p)) return true;
  if (ts.isBinaryExpression(p)) return isEquality(p.operatorToken.kind) || (p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && p.left === id);
  return ((ts.isIfStatement(p) || ts.isWhileStatement(p)) && p.expression === id) || (ts.isConditionalExpression(p) && p.condition === id);
}

/**
 * What one use of the record changes of it: the key of a field it sets (`g.description = ...`,
 * `g.resourceLimits.clusters++`, `delete g.description`, `g.aliases.push(...)`, `Object.assign(g, {
 * name })`), nothing for a read, or `unknown` where it is handed on or changed by a key known only at
 * run time (`tidy(g)`, `const draft = g`, `g[key] = ...`).
 */
function changeBy(id: ts.Identifier): string[] | 'unknown' {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === id) {
    const key = memberName(p);
    let top: ts.Expression = p;
    while ((ts.isPropertyAccessExpression(top.parent) || ts.isElementAccessExpression(top.parent)) && top.parent.expression === top) top = top.parent;
    const holder = top.parent;
    const written =
      (ts.isBinaryExpression(holder) && holder.left === top && isAssignment(holder.operatorToken.kind)) ||
      ((ts.isPrefixUnaryExpression(holder) || ts.isPostfixUnaryExpression(holder)) && (holder.operator === ts.SyntaxKind.PlusPlusToken || holder.operator === ts.SyntaxKind.MinusMinusToken)) ||
      ts.isDeleteExpression(holder) ||
      (top !== p && ts.isPropertyAccessExpression(top) && MUTATORS.has(top.name.text) && ts.isCallExpression(holder) && holder.expression === top) ||
      (ts.isCallExpression(holder) && holder.expression.getText() === 'Object.assign' && holder.arguments[0] === top);
    if (!written) return [];
    return key === undefined ? 'unknown' : [key];
  }
  if (ts.isCallExpression(p) && p.expression.getText() === 'Object.assign' && p.arguments[0] === id) {
    const keys: string[] = [];
    for (const source of p.arguments.slice(1)) {
      if (!ts.isObjectLiteralExpression(source)) return 'unknown';
      for (const property of source.properties) {
        const key = propertyKey(property);
        if (key === undefined) return 'unknown';
        keys.push(key);
      }
    }
    return keys;
  }
  return onlyTests(id) ? [] : 'unknown';
}

/**
 * Read-modify-write: the fields changed on a record before it is written back whole, by every use
 * of it in the file (changeBy), and those a copy sets over it where it is made (`{ ...g, name }`); a
 * use after the write in its own function changes nothing it sends.
 * Undefined when the record is handed to other code first (it may change there) or nothing is seen
 * to change.
 */
function changedFields(call: V1Call, record: ts.Identifier, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string[] | undefined {
  const declaration = declarationOf(record);
  const scope = enclosingScope(call.call);
  if (!declaration || !scope) return undefined;
  const keys = new Set<string>();
  // `const renamed = { ...etl, name }`: a copy sets its own members over the record's before any later change.
  const made = ts.isVariableDeclaration(declaration) && declaration.initializer ? unwrap(declaration.initializer) : undefined;
  if (made && ts.isObjectLiteralExpression(made)) {
    const own = ownKeys(made);
    if (!own || namesOnlySome(call, made)) return undefined;
    for (const key of own) keys.add(key);
  }
  for (const id of usesOf(call.call.getSourceFile(), declaration, declarationOf)) {
    if (id.pos >= call.call.pos && (id.end <= call.call.end || enclosingScope(id) === scope)) continue;
    const change = changeBy(id);
    if (change === 'unknown') return undefined;
    for (const key of change) keys.add(key);
  }
  if (keys.size === 0) return undefined;
  const names = [...keys].flatMap((k) => mutableField(call, k) ?? []);
  return names.length > 0 ? names : undefined;
}

/**
 * A body that names some fields and spreads no record (`{ name: g.name }`): v1's PUT cleared every
 * mutable field it leaves out, so only a mask of `*` does on v2 what it did. A body that names every
 * mutable field (an identity renamed field by field) does not: its mask is those fields.
 */
function namesOnlySome(call: V1Call, payload: ts.ObjectLiteralExpression): boolean {
  if (payload.properties.some(ts.isSpreadAssignment)) return false;
  const named = new Set(payload.properties.flatMap((p) => mutableField(call, propertyKey(p) ?? '') ?? []));
  return call.resource.fields.some((f) => f.access === 'mutable' && f.v1 && !named.has(maskName(f)));
}

/** Whether an update's body is written out as a literal that names only some fields (see namesOnlySome). */
export function replacesWithSomeFields(call: V1Call): boolean {
  const payload = call.body && jsonPayload(call.body);
  return Boolean(payload && ts.isObjectLiteralExpression(payload) && namesOnlySome(call, payload));
}

/** The v2 names of the mutable fields an update's body sets; undefined when that cannot be told. */
export function updateMask(call: V1Call, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string[] | undefined {
  if (!call.body) return undefined;
  const payload = jsonPayload(call.body);
  if (ts.isIdentifier(payload)) return changedFields(call, payload, declarationOf);
  if (!ts.isObjectLiteralExpression(payload) || namesOnlySome(call, payload)) return undefined;
  const names = ownKeys(payload)?.flatMap((key) => mutableField(call, key) ?? []) ?? [];
  return names.length > 0 ? names : undefined;
}

/** The keys a literal sets itself (its spreads aside); undefined when one is computed (`[key]: value`), which could be any field. */
function ownKeys(literal: ts.ObjectLiteralExpression): string[] | undefined {
  const keys: string[] = [];
  for (const p of literal.properties) {
    if (ts.isSpreadAssignment(p)) continue;
    const key = propertyKey(p);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}
