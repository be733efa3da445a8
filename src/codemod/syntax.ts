/** Small questions about syntax that the analysis and the transforms both ask. */
import { ts } from 'ts-morph';
import { nodesOf } from './file-nodes.js';
import { unwrap } from './static-text.js';

/** `JSON.stringify(x)` -> x; anything else as it is. */
export function jsonPayload(body: ts.Expression): ts.Expression {
  const n = unwrap(body);
  if (ts.isCallExpression(n) && n.expression.getText() === 'JSON.stringify' && n.arguments[0]) return unwrap(n.arguments[0]);
  return n;
}

const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

/** `===`, `!==`, `==`, `!=`. */
export function isEquality(kind: ts.SyntaxKind): boolean {
  return EQUALITY.has(kind);
}

/** `=`, `+=`, `??=` and the other assignment operators. */
export function isAssignment(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** The object literal a write's body is, written in place or in a const it names (`const minimal = { id, name }`). */
export function bodyLiteral(body: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Expression {
  const payload = jsonPayload(body);
  const declared = ts.isIdentifier(payload) ? declarationOf(payload) : undefined;
  return declared && ts.isVariableDeclaration(declared) && declared.initializer ? unwrap(declared.initializer) : payload;
}

/** The records a write's body holds whole: the payload itself, what it spreads or assigns from (`{ ...a, name }`, `Object.assign({}, a, ...)`). */
export function writtenRecords(body: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Expression[] {
  const payload = jsonPayload(body);
  const literal = bodyLiteral(body, declarationOf);
  if (ts.isObjectLiteralExpression(literal)) return [payload, ...literal.properties.flatMap((p) => (ts.isSpreadAssignment(p) ? [p.expression] : []))];
  if (ts.isCallExpression(literal) && literal.expression.getText() === 'Object.assign') return [payload, ...literal.arguments.filter((a) => !ts.isObjectLiteralExpression(a) && !ts.isSpreadElement(a))];
  return [payload];
}

/** The value an object literal gives a key (`{ key: value }`, or the name of `{ key }`). */
export function propertyOf(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

/** `record.id`, `record['id']`: the name a member read names; undefined for a key known only at run time. */
export function memberName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  return ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) ? node.argumentExpression.text : undefined;
}

export function propertyKey(p: ts.ObjectLiteralElementLike): string | undefined {
  if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  return undefined;
}

/** The function (or file) a node stands in. */
export function enclosingScope(node: ts.Node): ts.Node | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n) || ts.isSourceFile(n)) return n;
  return undefined;
}

/** `a ?? b`, `a || b`: one of two values, the second standing in where the first is missing. */
export function isFallback(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken;
}

/** Whether an expression awaits something itself (an `await` outside any function nested in it). */
export function awaitsItself(node: ts.Node): boolean {
  const find = (n: ts.Node): boolean => ts.isAwaitExpression(n) || (!ts.isFunctionLike(n) && ts.forEachChild(n, find) === true);
  return find(node);
}

export function forEachNode(root: ts.Node, visit: (node: ts.Node) => void): void {
  if (ts.isSourceFile(root)) {
    for (const node of nodesOf(root).all) visit(node);
    return;
  }
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  walk(root);
}

/** A variable's initialiser and every value assigned to it in its scope. */
export function assignedValues(d: ts.VariableDeclaration): ts.Expression[] {
  const out = d.initializer ? [d.initializer] : [];
  const name = d.name.getText();
  let scope: ts.Node = d;
  while (scope.parent && !ts.isSourceFile(scope) && !ts.isFunctionLike(scope)) scope = scope.parent;
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left) && node.left.text === name) out.push(node.right);
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return out;
}

/** The identifiers of a file that name a declaration, other than its own name. */
export function usesOf(sf: ts.SourceFile, declaration: ts.NamedDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Identifier[] {
  const name = declaration.name?.getText(sf);
  return nodesOf(sf)
    .of<ts.Identifier>(ts.SyntaxKind.Identifier)
    .filter((id) => id !== declaration.name && id.text === name && declarationOf(id) === declaration);
}

/** `x = ...`, `x ??= ...`: the name is given a value here, not read. */
export function assignedTo(id: ts.Identifier): boolean {
  return ts.isBinaryExpression(id.parent) && id.parent.left === id && isAssignment(id.parent.operatorToken.kind);
}

/** `null`, `undefined`, `void 0`: a value that holds nothing. */
export function isNullish(e: ts.Expression): boolean {
  return e.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(e) && e.text === 'undefined') || ts.isVoidExpression(e);
}

/** Nothing, or `{}`: a value with nothing in it to read by a field's name. */
export function holdsNothing(e: ts.Expression): boolean {
  return isNullish(e) || (ts.isObjectLiteralExpression(e) && e.properties.length === 0);
}

/** `fetch(...).then((res) => ...)`: the callback's parameter holds the response. */
export function thenParameter(call: ts.CallExpression): ts.Identifier | undefined {
  const access = call.parent;
  const then = access?.parent;
  if (!ts.isPropertyAccessExpression(access) || access.name.text !== 'then' || !then || !ts.isCallExpression(then)) return undefined;
  const callback = then.arguments[0];
  const name = callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? callback.parameters[0]?.name : undefined;
  return name && ts.isIdentifier(name) ? name : undefined;
}
