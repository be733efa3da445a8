/**
 * A v1 read of one record listed with `?id=` and found an empty list when the record was missing;
 * v2 Get answers 404. How the migrated read tells a missing record decides whether it can migrate.
 */
import { ts } from 'ts-morph';
import { GRPC_CODES, missingRecordChange } from '../contract/index.js';
import type { DataFlow } from './data-flow.js';
import { parsedInChain, type V1Call } from './v1-calls.js';

/**
 * How the migrated read tells that the record is missing: by the status of the response it keeps
 * in a variable (fetch, undici, a wrapper answering the response), or, for a client that throws on
 * 404 (axios, got, ky, a wrapper over them), by a value the missing-record helper gives in its place.
 */
/** `res.status` (or `res.statusCode`) when a condition reads the response's `ok`, `status` or `statusCode`. */
export function statusReadIn(condition: ts.Node, response: string): string | undefined {
  let found: string | undefined;
  const look = (e: ts.Node): void => {
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === response && /^(ok|status|statusCode)$/.test(e.name.text)) found ??= `${response}.${e.name.text === 'statusCode' ? 'statusCode' : 'status'}`;
    else ts.forEachChild(e, look);
  };
  look(condition);
  return found;
}

export type Missing =
  | { by: 'status'; status: string; response: ts.Identifier }
  | { by: 'helper'; target: ts.Expression; missing?: string }
  | { by: 'none'; why: string };

export function missingBy(call: V1Call, flow: DataFlow): Missing {
  const one = call.resource.singular;
  const stays = (why: string) => ({ by: 'none' as const, why: `this read of one ${one} stays on v1: ${missingRecordChange(call.resource)}, and ${why}; migrate it by hand` });
  if (call.via?.ownThrow) return stays(`${call.via.name}() throws errors that do not carry the status (in status or statusCode), so that 404 cannot be told apart here`);
  const returnsResponse = !call.via || call.via.returns === 'response';
  if ((call.client === 'fetch' || call.client === 'undici') && returnsResponse) {
    const response = flow.responseVariable(call);
    if (!response) return stays('the response is not kept in a variable whose status could be tested');
    return { by: 'status', response, status: `${response.text}.${call.client === 'undici' ? 'statusCode' : 'status'}` };
  }
  if ((call.client === 'fetch' || call.client === 'undici') && !call.via?.throws) return stays('the wrapper hands the 404\'s error body back as if it were the record');
  if (call.client === 'fetch' || call.client === 'undici') return { by: 'helper', target: call.call };
  const chained = parsedInChain(call);
  if (call.via?.returns === 'body' || chained) return { by: 'helper', target: chained ?? call.call };
  if (call.client === 'axios') return { by: 'helper', target: call.call, missing: `{ status: ${GRPC_CODES.NOT_FOUND.http}, data: undefined }` };
  return stays(`${call.client} throws it, and this call's response is read in a way migrate-v2 does not follow`);
}

/**
 * A test of whether the list came back empty, around `E.items`: `E.items.length === 0`,
 * `!E.items.length`, `E.items.length > 0`, `E.items.length ? ... : ...`, ... `missing` is true when
 * the test holds for no record.
 */
export function emptinessCheck(items: ts.PropertyAccessExpression): { node: ts.Expression; missing: boolean } | undefined {
  const length = items.parent;
  if (!ts.isPropertyAccessExpression(length) || length.name.text !== 'length') return undefined;
  const up = length.parent;
  if (ts.isPrefixUnaryExpression(up) && up.operator === ts.SyntaxKind.ExclamationToken) return { node: up, missing: true };
  // `E.items.length ? E.items[0] : null`, `if (E.items.length)`, `E.items.length && ...`: the length as a truth.
  if ((ts.isConditionalExpression(up) && up.condition === length) || (ts.isIfStatement(up) && up.expression === length) || (ts.isBinaryExpression(up) && up.left === length && up.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken)) return { node: length, missing: false };
  if (ts.isBinaryExpression(up) && up.left === length && ts.isNumericLiteral(up.right)) {
    const n = Number(up.right.text);
    const op = up.operatorToken.kind;
    if ((op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken) && n === 0) return { node: up, missing: true };
    if (op === ts.SyntaxKind.LessThanToken && n === 1) return { node: up, missing: true };
    if ((op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.GreaterThanToken) && n === 0) return { node: up, missing: false };
  }
  return undefined;
}

/** `const [first] = E.items`: the pattern and the one name it binds. */
export function firstElementBinding(items: ts.PropertyAccessExpression): { pattern: ts.ArrayBindingPattern; name: ts.Identifier } | undefined {
  const declaration = items.parent;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== items || !ts.isArrayBindingPattern(declaration.name)) return undefined;
  const [only, ...rest] = declaration.name.elements;
  if (!only || rest.length > 0 || !ts.isBindingElement(only) || only.dotDotDotToken || only.initializer || !ts.isIdentifier(only.name)) return undefined;
  return { pattern: declaration.name, name: only.name };
}

/** Whether the code after a read of one record reads its list in a way v2's record can stand for: a not-found test or the first record. */
export function readsAsOne(items: ts.PropertyAccessExpression): boolean {
  const parent = items.parent;
  if (emptinessCheck(items) || firstElementBinding(items)) return true;
  return ts.isElementAccessExpression(parent) && parent.expression === items && parent.argumentExpression.getText() === '0';
}
