/** Small helpers the transforms share. */
import { ts } from 'ts-morph';
import type { TransformContext } from '../src/codemod/transform.js';
import { unwrap } from '../src/codemod/static-text.js';

/** `JSON.stringify(x)` -> x; anything else as it is. */
export function jsonPayload(body: ts.Expression): ts.Expression {
  const n = unwrap(body);
  if (ts.isCallExpression(n) && n.expression.getText() === 'JSON.stringify' && n.arguments[0]) return unwrap(n.arguments[0]);
  return n;
}

export function propertyKey(p: ts.ObjectLiteralElementLike): string | undefined {
  if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  return undefined;
}

/** Renames an object literal's key, keeping its value: `{ id }` -> `{ uid: id }`. */
export function renameObjectKey(ctx: TransformContext, p: ts.ObjectLiteralElementLike, to: string): void {
  if (ts.isShorthandPropertyAssignment(p)) ctx.replace(p.name, `${to}: ${p.name.text}`);
  else if (ts.isPropertyAssignment(p)) ctx.replace(p.name, ts.isStringLiteral(p.name) ? quoteLike(ctx.textOf(p.name), to) : to);
}

/** `{ id }` -> `{ uid: id }`, `{ id: x }` -> `{ uid: x }` in a destructuring pattern. */
export function renameBindingKey(ctx: TransformContext, element: ts.BindingElement, to: string): void {
  if (element.propertyName) ctx.replace(element.propertyName, to);
  else ctx.replace(element.name, `${to}: ${ctx.textOf(element.name)}`);
}

/** Renames a member of an interface or type literal, keeping its quotes. */
export function renameTypeMember(ctx: TransformContext, member: ts.PropertySignature, to: string): void {
  ctx.replace(member.name, ts.isStringLiteral(member.name) ? quoteLike(ctx.textOf(member.name), to) : to);
}

export function bindingKey(element: ts.BindingElement): string | undefined {
  if (element.propertyName && (ts.isIdentifier(element.propertyName) || ts.isStringLiteral(element.propertyName))) return element.propertyName.text;
  return !element.propertyName && ts.isIdentifier(element.name) ? element.name.text : undefined;
}

/** A string in the same quotes as `original`. */
export function quoteLike(original: string, text: string): string {
  const q = original[0] === '"' || original[0] === '`' ? original[0] : "'";
  return `${q}${text}${q}`;
}

export function forEachNode(root: ts.Node, visit: (node: ts.Node) => void): void {
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  walk(root);
}
