/**
 * Role bindings are hydrated in v2: a v1 `binding.identity` (a uid string) is `binding.identity.uid`;
 * `binding.role.id` and `binding.group.id` become `.uid` through field-renames; the create body
 * `{identity, role}` is `{identityUid, roleUid}`.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { memberType } from '../src/codemod/resource-types.js';
import { RESOURCES, type ResourceContract } from '../src/contract/index.js';
import { bindingKey, destructuredShape, jsonPayload, nodesOf, propertyKey, renameObjectKey } from './helpers.js';
import { isFallback } from '../src/codemod/syntax.js';
import { isTyped } from './file-helpers.js';

export const roleBindings: Transform = {
  name: 'role-bindings',
  description: 'binding.identity -> binding.identity.uid; create body {identity, role} -> {identityUid, roleUid}',
  apply(ctx) {
    // A reference written as a uid string in a binding's type is the hydrated object in v2.
    for (const [container, roles] of ctx.analysis.types.containers) {
      if (container.getSourceFile() !== ctx.sf || ctx.analysis.types.pinned.has(container) || ctx.analysis.sharedTypes.has(container)) continue;
      for (const { resource } of roles.filter((r) => r.shape === 'resource')) {
        for (const field of resource.fields) {
          const type = field.reference?.v1Form === 'uid' && field.v1 ? memberType(container, field.v1) : undefined;
          // `identity: string`, or `identity?: string | null`: the string is the object, the null stays.
          const text = type && (type.kind === ts.SyntaxKind.StringKeyword ? type : ts.isUnionTypeNode(type) ? type.types.find((t) => t.kind === ts.SyntaxKind.StringKeyword) : undefined);
          if (text) ctx.replace(text, `{ ${field.reference!.hydratedFields.map((f) => `${f.name}: string`).join('; ')} }`);
        }
      }
    }
    for (const call of ctx.calls) {
      if ((call.operation !== 'create' && call.operation !== 'update') || !call.body) continue;
      const writeKeys = new Map(call.resource.fields.flatMap((f) => (f.reference?.writeKey ? [[f.reference.writeKey.v1, f.reference.writeKey.v2] as const] : [])));
      if (writeKeys.size === 0) continue;
      const payload = jsonPayload(call.body);
      if (!ts.isObjectLiteralExpression(payload)) {
        ctx.todo(call.call, `the ${call.resource.singular} body is built elsewhere: v2 names its references ${[...writeKeys.values()].join(', ')}`);
        continue;
      }
      for (const p of payload.properties) {
        const to = writeKeys.get(propertyKey(p) ?? '');
        if (to) renameObjectKey(ctx, p, to);
      }
    }
    const uidReferences = new Set(RESOURCES.flatMap((r) => r.fields.flatMap((f) => (f.reference?.v1Form === 'uid' && f.v1 ? [f.v1] : []))));
    for (const pattern of nodesOf(ctx.sf).of<ts.ObjectBindingPattern>(ts.SyntaxKind.ObjectBindingPattern)) {
      if (!pattern.elements.some((e) => uidReferences.has(bindingKey(e) ?? '')) || ctx.isClaimed(pattern)) continue;
      const shape = destructuredShape(ctx, pattern);
      if (shape?.kind === 'resource') for (const element of pattern.elements) destructureUid(ctx, element, shape.resource);
    }
    for (const node of nodesOf(ctx.sf).of<ts.PropertyAccessExpression>(ts.SyntaxKind.PropertyAccessExpression)) {
      if (!uidReferences.has(node.name.text) || ctx.isClaimed(node.name)) continue;
      const shape = ctx.shapeOf(node.expression);
      if (shape?.kind !== 'resource') continue;
      const field = shape.resource.fields.find((f) => f.v1 === node.name.text && f.reference?.v1Form === 'uid');
      const alreadyUid = ts.isPropertyAccessExpression(node.parent) && node.parent.name.text === 'uid';
      if (field && !alreadyUid) ctx.edit(node.end, node.end, mayBeMissing(ctx, node) ? '?.uid' : '.uid');
    }
  },
};

/**
 * `b.identity?.slice(-4)`, `b.identity ?? 'anonymous'`, `b?.identity`, or a member typed as
 * optional: the program reads the reference as possibly missing, and so must its uid's read.
 */
function mayBeMissing(ctx: TransformContext, node: ts.PropertyAccessExpression): boolean {
  const p = node.parent;
  if (node.questionDotToken || (ts.isPropertyAccessExpression(p) && p.expression === node && p.questionDotToken)) return true;
  if (ts.isBinaryExpression(p) && p.left === node && isFallback(p.operatorToken.kind)) return true;
  if (!isTyped(ctx.sf)) return false;
  const type = ctx.analysis.checker.getTypeAtLocation(node);
  return type.isUnion() && type.types.some((t) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) !== 0);
}

/**
 * `{ identity }` of a binding -> `{ identity: { uid: identity } }`, and a default given for the uid
 * string, `{ identity = 'x' }` -> `{ identity: { uid: identity } = { uid: 'x' } }`: the name keeps
 * the uid string it had.
 */
function destructureUid(ctx: TransformContext, element: ts.BindingElement, resource: ResourceContract): void {
  const key = bindingKey(element);
  const field = resource.fields.find((f) => f.v1 === key && f.reference?.v1Form === 'uid');
  if (!field || !key) return;
  // A pattern in its place destructures the object: v2's form already (a uid string has nothing to take apart).
  if (!ts.isIdentifier(element.name)) return;
  const fallback = element.initializer ? ` = { uid: ${ctx.textOf(element.initializer)} }` : '';
  ctx.replace(element, `${element.propertyName ? ctx.textOf(element.propertyName) : key}: { uid: ${element.name.text} }${fallback}`);
}
