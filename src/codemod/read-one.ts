/**
 * A v1 read of one record listed with `?id=` and found an empty list when the record was missing;
 * v2 Get answers 404. How the migrated read tells a missing record decides whether it can migrate.
 */
import { ts } from 'ts-morph';
import { GRPC_CODES, missingRecordChange } from '../contract/index.js';
import type { DataFlow } from './data-flow.js';
import { functionOf } from './static-text.js';
import { forEachNode, thenParameter } from './syntax.js';
import { parsedInChain, type V1Call } from './v1-calls.js';
import { answersBody } from './answers.js';

/**
 * How the migrated read tells that the record is missing: by the status of the response it keeps
 * in a variable (fetch, undici, a wrapper answering the response), or, for a client that throws on
 * 404 (axios, got, ky, ofetch, a wrapper over them), by a value the missing-record helper gives in its place.
 */
/**
 * `res.status` (or `res.statusCode`) when a condition reads the response's `ok`, `status` or
 * `statusCode`; with `bare`, `response` names the status itself, taken out of the response
 * (`const { statusCode, body } = await request(url)`), and a read of that name is the status.
 */
export function statusReadIn(condition: ts.Node, response: string, bare = false): string | undefined {
  let found: string | undefined;
  const look = (e: ts.Node): void => {
    if (bare && ts.isIdentifier(e) && e.text === response && !(ts.isPropertyAccessExpression(e.parent) && e.parent.name === e)) found ??= response;
    else if (!bare && ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === response && /^(ok|status|statusCode)$/.test(e.name.text)) found ??= `${response}.${e.name.text === 'statusCode' ? 'statusCode' : 'status'}`;
    else ts.forEachChild(e, look);
  };
  look(condition);
  return found;
}

/** `statusCode` of `const { statusCode, body } = await request(url)` (undici), `status` of a fetch response taken apart so. */
function destructuredStatus(call: V1Call): ts.Identifier | undefined {
  let n: ts.Node = call.call.parent;
  while (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n)) n = n.parent;
  if (!ts.isVariableDeclaration(n) || !ts.isObjectBindingPattern(n.name)) return undefined;
  const key = call.client === 'undici' ? 'statusCode' : 'status';
  const element = n.name.elements.find((e) => !e.dotDotDotToken && (e.propertyName ?? e.name).getText() === key && ts.isIdentifier(e.name));
  return element?.name as ts.Identifier | undefined;
}

export type Missing =
  | { by: 'status'; status: string; response: ts.Identifier; bare?: boolean }
  | { by: 'helper'; target: ts.Expression; missing?: string; response?: ts.Identifier }
  | { by: 'none'; why: string };

/** axios's `validateStatus`, got's and ky's `throwHttpErrors: false`, ofetch's `ignoreResponseError: true`: a client that hands back error answers instead of throwing them. */
const LENIENT_CLIENT = /\bvalidateStatus\b|\bthrowHttpErrors\s*:\s*false\b|\bignoreResponseError\s*:\s*true\b/;

export function missingBy(call: V1Call, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined): Missing {
  const one = call.resource.singular;
  const stays = (why: string) => ({ by: 'none' as const, why: `this read of one ${one} stays on v1: ${missingRecordChange(call.resource)}, and ${why}; migrate it by hand` });
  if (call.via?.ownThrow) return stays(`${call.via.name}() throws errors that do not carry the status (in status or statusCode), so that 404 cannot be told apart here`);
  const returnsResponse = !call.via || call.via.returns === 'response';
  const check = (call.client === 'fetch' || call.client === 'undici') && returnsResponse ? throwingCheckOnTheWay(call.call, declarationOf) : undefined;
  if (check) return stays(`its response goes through ${check}(), which throws on an error status: that 404 would throw there before the program's own test of a missing ${one}`);
  if ((call.client === 'fetch' || call.client === 'undici') && returnsResponse) {
    const response = flow.responseVariable(call);
    const status = response ? undefined : destructuredStatus(call);
    const handler = response || status ? undefined : thenParameter(call.call);
    if (handler) return stays(`its response is read in a .then() callback (${handler.text}), where migrate-v2 does not rewrite the status test`);
    if (!response && !status) return stays('the response is not kept in a variable whose status could be tested');
    const own = ownNotFoundTest(call, (response ?? status)!, Boolean(status));
    if (own) return stays(`the program tests a 404 itself here (\`${own}\`), which v1 answered for something else: the two cannot be told apart`);
    if (status) return { by: 'status', response: status, status: status.text, bare: true };
    return { by: 'status', response: response!, status: `${response!.text}.${call.client === 'undici' ? 'statusCode' : 'status'}` };
  }
  if ((call.client === 'fetch' || call.client === 'undici') && !call.via?.throws) return stays('the wrapper hands the 404\'s error body back as if it were the record');
  if (call.client === 'fetch' || call.client === 'undici') return { by: 'helper', target: call.call };
  const lenient = LENIENT_CLIENT.exec(call.call.getSourceFile().text)?.[0];
  if (lenient) return stays(`this file sets its ${call.client} client not to throw on errors (\`${lenient.replace(/\s+/g, ' ')}\`), so that 404 comes back as an answer holding the error's body`);
  const chained = parsedInChain(call);
  if (answersBody(call) || chained) return { by: 'helper', target: chained ?? call.call };
  if (call.client === 'axios') {
    const response = flow.responseVariable(call);
    const own = response && ownNotFoundTest(call, response);
    if (own) return stays(`the program tests a 404 itself here (\`${own}\`), which v1 answered for something else: the two cannot be told apart`);
    return { by: 'helper', target: call.call, missing: `{ status: ${GRPC_CODES.NOT_FOUND.http}, data: undefined }`, ...(response ? { response } : {}) };
  }
  return stays(`${call.client} throws it, and this call's response is read in a way migrate-v2 does not follow`);
}

/**
 * `fetch(url).then(check)`, `check(await fetch(url))`: the name of a function of the program that
 * the response passes through on its way to the program and that throws on an error status.
 */
function throwingCheckOnTheWay(call: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string | undefined {
  for (let n: ts.Node = call; ; ) {
    const p = n.parent;
    if (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isNonNullExpression(p)) {
      n = p;
      continue;
    }
    const step = ts.isPropertyAccessExpression(p) && p.expression === n && p.name.text === 'then' && ts.isCallExpression(p.parent) ? p.parent : undefined;
    const handed = ts.isCallExpression(p) && p.arguments[0] === n ? p : undefined;
    const callee = step?.arguments[0] ?? handed?.expression;
    if (!callee || !(ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee))) return undefined;
    const fn = functionOf(callee, declarationOf);
    if (fn && throwsOnErrorStatus(fn)) return callee.getText();
    n = (step ?? handed)!;
  }
}

/** `if (!res.ok) throw ...` (or a test of `res.status`) on a function's first parameter. */
function throwsOnErrorStatus(fn: ts.SignatureDeclaration): boolean {
  const parameter = fn.parameters[0]?.name;
  const body = 'body' in fn ? (fn.body as ts.Node | undefined) : undefined;
  if (!parameter || !ts.isIdentifier(parameter) || !body) return false;
  let found = false;
  const throwsIn = (n: ts.Node): boolean => ts.isThrowStatement(n) || (!ts.isFunctionLike(n) && (ts.forEachChild(n, throwsIn) ?? false));
  forEachNode(body, (node) => {
    if (!found && ts.isIfStatement(node) && statusReadIn(node.expression, parameter.text) && throwsIn(node.thenStatement)) found = true;
  });
  return found;
}

/**
 * `if (res.status === 404) throw new Error('IAM API not available')` after a read by list: v1 never
 * answered a missing record with 404, so the program's own 404 meant something else (a route not
 * served); once v2 answers a missing record so, the two are one status.
 */
function ownNotFoundTest(call: V1Call, response: ts.Identifier, bare = false): string | undefined {
  // Where the response is kept: a retry helper's callback (`pRetry(() => fetch(url))`) holds none of its tests.
  let scope: ts.Node = response;
  while (!ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  let found: string | undefined;
  const isStatus = (e: ts.Expression) =>
    bare ? ts.isIdentifier(e) && e.text === response.text : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === response.text && (e.name.text === 'status' || e.name.text === 'statusCode');
  const isNotFound = (e: ts.Expression) => ts.isNumericLiteral(e) && Number(e.text) === GRPC_CODES.NOT_FOUND.http;
  const visit = (n: ts.Node): void => {
    // Only what comes after the request; what holds it is walked into.
    if (found || n.end <= call.call.end) return;
    if (n.pos < call.call.end) return void ts.forEachChild(n, visit);
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind)) {
      if ((isStatus(n.left) && isNotFound(n.right)) || (isNotFound(n.left) && isStatus(n.right))) found = n.getText();
    } else if (ts.isCaseClause(n) && isNotFound(n.expression) && ts.isSwitchStatement(n.parent.parent) && isStatus(n.parent.parent.expression)) found = `case ${n.expression.getText()}`;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(scope, visit);
  return found;
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

/** `const { items } = <body>`: a declaration that takes the list alone out of a read of one's body. */
export function listTakenOnly(pattern: ts.BindingPattern, call: V1Call): boolean {
  const [only, ...rest] = pattern.elements;
  const key = call.resource.v1.endpoints.list!.envelopeKey;
  if (!ts.isObjectBindingPattern(pattern) || !ts.isVariableDeclaration(pattern.parent) || pattern.parent.initializer === undefined || rest.length > 0) return false;
  const named = only && ts.isBindingElement(only) && !only.dotDotDotToken ? (only.propertyName ?? only.name) : undefined;
  // `{ items }`, `{ items: [group] }`, `{ 'items': found }`.
  return named !== undefined && (ts.isIdentifier(named) || ts.isStringLiteral(named)) && named.text === key;
}
