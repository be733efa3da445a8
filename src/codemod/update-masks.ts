/**
 * The `updateMask` a v1 full-replace `PUT` becomes on v2: the fields its body sets over a record
 * (`{...group, description}` -> `description`), or, for a record read earlier and written back whole,
 * the fields changed on it first (`group.description = ...`). Undefined where they cannot be known
 * (the update then keeps v1's full replace with `*`). Read by the updates transform and by the test
 * doubles that must expect what the migrated call sends.
 */
import { ts } from 'ts-morph';
import { enclosingScope, isAssignment, jsonPayload, propertyKey } from './syntax.js';
import type { V1Call } from './v1-calls.js';
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

/**
 * Read-modify-write: the fields changed on a record before it is written back whole
 * (`group.description = ...`, `group.resourceLimits.clusters = 5`, `repo.aliases.push(...)`,
 * `Object.assign(group, { name })`), in the function that writes it. Undefined when the record is
 * handed to other code first (it may change there) or nothing is seen to change.
 */
function changedFields(call: V1Call, record: ts.Identifier, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string[] | undefined {
  const declaration = declarationOf(record);
  const scope = enclosingScope(call.call);
  if (!declaration || !scope) return undefined;
  const keys = new Set<string>();
  let unknown = false;
  const rootKey = (e: ts.Expression): string | undefined => {
    let n = e;
    while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
      const inner = n.expression;
      if (ts.isIdentifier(inner) && declarationOf(inner) === declaration) return ts.isPropertyAccessExpression(n) ? n.name.text : ts.isStringLiteral(n.argumentExpression) ? n.argumentExpression.text : undefined;
      n = inner;
    }
    return undefined;
  };
  const visit = (node: ts.Node): void => {
    if (node.pos >= call.call.pos) return;
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
      const key = rootKey(node.left);
      if (key) keys.add(key);
    } else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && ts.isPropertyAccessExpression(node.operand)) {
      const key = rootKey(node.operand);
      if (key) keys.add(key);
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const key = MUTATORS.has(node.expression.name.text) ? rootKey(node.expression.expression) : undefined;
      if (key) keys.add(key);
      if (node.expression.getText() === 'Object.assign' && node.arguments[0] && ts.isIdentifier(node.arguments[0]) && declarationOf(node.arguments[0]) === declaration) {
        for (const source of node.arguments.slice(1)) {
          if (ts.isObjectLiteralExpression(source)) for (const p of source.properties) keys.add(propertyKey(p) ?? '\u0000');
          else unknown = true;
        }
      } else if (!key && node.arguments.some((a) => ts.isIdentifier(a) && declarationOf(a) === declaration) && node !== call.call) unknown = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  if (unknown || keys.size === 0 || keys.has('\u0000')) return undefined;
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
  const names: string[] = [];
  for (const p of payload.properties) {
    const key = propertyKey(p);
    const name = key && mutableField(call, key);
    if (name) names.push(name);
  }
  return names.length > 0 ? names : undefined;
}
