/** Small helpers the transforms share. */
import { ts } from 'ts-morph';
import type { Shape } from '../src/codemod/data-flow.js';
import type { TransformContext } from '../src/codemod/transform.js';
import { unwrap } from '../src/codemod/static-text.js';
import { propertyKey } from '../src/codemod/syntax.js';
import { literalKey, namedKeyOf } from '../src/codemod/named-keys.js';

export { enclosingScope, forEachNode, jsonPayload, propertyKey } from '../src/codemod/syntax.js';
export { nodesOf } from '../src/codemod/file-nodes.js';

/** Renames an object literal's key, keeping its value: `{ id }` -> `{ uid: id }`. */
export function renameObjectKey(ctx: TransformContext, p: ts.ObjectLiteralElementLike, to: string): void {
  if (ts.isShorthandPropertyAssignment(p)) ctx.replace(p.name, `${to}: ${p.name.text}`);
  else if (ts.isPropertyAssignment(p)) ctx.replace(p.name, ts.isStringLiteral(p.name) ? quoteLike(ctx.textOf(p.name), to) : to);
}

/** `{ id }` -> `{ uid: id }`, `{ id: x }` -> `{ uid: x }`, `{ items: groups }` -> `{ groups }` in a destructuring pattern. */
export function renameBindingKey(ctx: TransformContext, element: ts.BindingElement, to: string): void {
  if (element.propertyName && ts.isIdentifier(element.name) && element.name.text === to) ctx.edit(element.propertyName.getStart(ctx.sf), element.name.getStart(ctx.sf), '');
  else if (element.propertyName) ctx.replace(element.propertyName, to);
  else ctx.replace(element.name, `${to}: ${ctx.textOf(element.name)}`);
}

/** Renames a member of an interface or type literal, keeping its quotes. */
export function renameTypeMember(ctx: TransformContext, name: ts.Node, to: string): void {
  ctx.replace(name, ts.isStringLiteral(name) ? quoteLike(ctx.textOf(name), to) : to);
}

/** What an object pattern destructures: as the data flow follows it, else as its declaration's type says (`const { id } = group`, `({ id }: Group) =>`). */
export function destructuredShape(ctx: TransformContext, pattern: ts.ObjectBindingPattern): Shape | undefined {
  const shape = ctx.patternShape(pattern);
  if (shape) return shape;
  const owner = pattern.parent;
  if (ts.isVariableDeclaration(owner) && owner.initializer) return ctx.shapeOf(owner.initializer);
  if (ts.isParameter(owner)) return ctx.file.flow.typedShape(owner);
  return undefined;
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

/**
 * `x['id']`, `'id' in x`, `Object.hasOwn(x, 'id')`: a key among `names` written as a literal, renamed
 * to what `to` gives for it and the value it names (nothing where it gives nothing).
 */
export function renameKeyNamedAsText(ctx: TransformContext, node: ts.Node, names: ReadonlySet<string>, to: (key: string, record: ts.Expression) => string | undefined): void {
  const named = namedKeyOf(node);
  const literal = named && literalKey(named);
  if (!literal || !names.has(literal.text) || ctx.isClaimed(literal)) return;
  const text = to(literal.text, named!.record);
  if (text) ctx.replace(literal, quoteLike(ctx.textOf(literal), text));
}

/**
 * Adds a query parameter at the end of a URL expression: into its last literal piece when it has
 * one (as the path plan rewrites it), else around it. `dynamic`: the query holds a `${...}`, so a
 * quoted string becomes a template literal.
 */
export function appendQuery(ctx: TransformContext, urlNode: ts.Expression, query: string, dynamic = false, joiner = ctx.analysis.text.textOf(unwrap(urlNode))?.includes('?') ? '&' : '?'): void {
  const n = unwrap(urlNode);
  const last = ts.isTemplateExpression(n) ? n.templateSpans[n.templateSpans.length - 1]!.literal : n;
  if (ts.isStringLiteral(last) || ts.isNoSubstitutionTemplateLiteral(last) || ts.isTemplateTail(last)) {
    const rewritten = ctx.plannedText(last);
    const inner = rewritten.slice(0, -1);
    const asTemplate = dynamic && ts.isStringLiteral(last) ? `\`${inner.slice(1).replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}` : inner;
    ctx.replace(last, `${asTemplate}${joiner}${query}${dynamic ? '`' : rewritten.slice(-1)}`);
    ctx.claim(last);
  } else if (ts.isIdentifier(n)) {
    // Written around the name, which keeps its own edits (the copy a split path plan makes for the migrated calls).
    ctx.edit(n.getStart(ctx.sf), n.getStart(ctx.sf), '`${');
    ctx.edit(n.end, n.end, `}${joiner}${query}\``);
    ctx.claim(n);
  } else {
    // Appended, not wrapped: names inside the URL (a table member the path plan redirects) keep their own edits.
    const parens = !(ts.isIdentifier(n) || ts.isPropertyAccessExpression(n) || ts.isCallExpression(n) || ts.isElementAccessExpression(n) || (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken));
    if (parens) ctx.edit(n.getStart(ctx.sf), n.getStart(ctx.sf), '(');
    ctx.edit(n.end, n.end, `${parens ? ')' : ''} + ${dynamic ? '`' : "'"}${joiner}${query}${dynamic ? '`' : "'"}`);
  }
}

/** Removes a property from an object literal; the whole argument when it was the object's only one. */
export function removeProperty(ctx: TransformContext, property: ts.ObjectLiteralElementLike): void {
  const object = property.parent as ts.ObjectLiteralExpression;
  const call = object.parent;
  const props = object.properties;
  if (props.length === 1 && ts.isCallExpression(call)) {
    const at = call.arguments.indexOf(object);
    if (at > 0) {
      ctx.edit(call.arguments[at - 1]!.end, object.end, '');
      return;
    }
  }
  const i = props.indexOf(property);
  if (i < props.length - 1) ctx.edit(property.getStart(ctx.sf), props[i + 1]!.getStart(ctx.sf), '');
  else if (i > 0) ctx.edit(props[i - 1]!.end, property.end, '');
  else ctx.edit(property.getStart(ctx.sf), property.end, '');
}

/** Adds a member at the end of an object literal, after its last one (or into `{}`). */
export function addToObject(ctx: TransformContext, object: ts.ObjectLiteralExpression, member: string): void {
  const last = object.properties[object.properties.length - 1];
  if (last) ctx.edit(last.end, last.end, `, ${member}`);
  else ctx.edit(object.getStart(ctx.sf) + 1, object.getStart(ctx.sf) + 1, ` ${member} `);
}

/** `encodeURIComponent(x)` -> x: a path binds a uid with its slashes as they are. */
export function encodedValue(e: ts.Expression): ts.Expression {
  return ts.isCallExpression(e) && e.expression.getText() === 'encodeURIComponent' && e.arguments[0] ? e.arguments[0] : e;
}

/** Takes `encodeURIComponent(...)` away from around a value: only the call goes, edits inside the value stay. */
export function unwrapEncoding(ctx: TransformContext, e: ts.Expression): void {
  const value = encodedValue(e);
  if (value === e) return;
  ctx.edit(e.getStart(ctx.sf), value.getStart(ctx.sf), '');
  ctx.edit(value.end, e.end, '');
  ctx.claim((e as ts.CallExpression).expression);
}
