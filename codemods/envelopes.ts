/**
 * A v1 list answers `{items}`; v2 names the array after the collection: `items` -> `groups`,
 * `repos`, `roleBindings`, ... according to the endpoint the value came from. The types written for
 * those lists change with them: `{ items: Group[] }` -> `{ groups: Group[]; nextPageToken?: string; totalCount?: string }`.
 */
import { ts } from 'ts-morph';
import type { Container } from '../src/codemod/resource-types.js';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { ENVELOPE, V1_LIST_KEYS, type ResourceContract } from '../src/contract/index.js';
import { bindingKey, nodesOf, propertyKey, renameBindingKey, renameKeyNamedAsText, renameObjectKey, renameTypeMember } from './helpers.js';

const v1Key = (resource: ResourceContract) => resource.v1.endpoints.list!.envelopeKey;
const v2Key = (resource: ResourceContract) => resource.v2.endpoints.list!.envelopeKey;

/** `items` -> the plural key, with the v2 paging fields beside it, in a type written for one kind's lists. */
function migrateEnvelopeType(ctx: TransformContext, container: Container, resource: ResourceContract): void {
  // Never attached as a list's type (attachContainer): a JSDoc `@property` typedef is a record's only.
  if (ts.isJSDocTypeLiteral(container)) return;
  const items = container.members.find((m) => ts.isPropertySignature(m) && m.name.getText(ctx.sf).replace(/['"]/g, '') === v1Key(resource));
  if (!items || !ts.isPropertySignature(items)) return;
  renameTypeMember(ctx, items.name, v2Key(resource));
  const present = new Set(container.members.map((m) => m.name?.getText(ctx.sf)));
  const missing = [ENVELOPE.nextPageToken, ENVELOPE.totalCount].filter((f) => !present.has(f));
  if (missing.length === 0) return;
  // Members end with their separator, if they have one: follow the type's own style.
  const last = ctx.sf.text[items.end - 1];
  const sep = last === ',' ? ',' : ';';
  const added = missing.map((f) => `${f}?: string`).join(`${sep} `);
  ctx.edit(items.end, items.end, last === ';' || last === ',' ? ` ${added}${sep}` : `${sep} ${added}`);
}

/**
 * `ListResponse<Group>` where ListResponse also types other kinds' lists (or rows of a database):
 * the v2 list gets a copy of its own, `{ groups: Group[]; nextPageToken?: string; totalCount?: string }`.
 */
function copySharedListTypes(ctx: TransformContext): void {
  const { types } = ctx.analysis;
  for (const node of ctx.analysis.genericUses) {
    // A read of one record's `ListResult<Repo>` becomes `Repo` (get-by-list).
    if (node.getSourceFile() !== ctx.sf || ctx.isClaimed(node) || ctx.analysis.readOneTypes.has(node)) continue;
    const container = types.containerOf(node.typeName);
    const arg = node.typeArguments?.[0];
    if (!container || !arg || !types.needsCopies(container)) continue;
    const role = types.roleOf(ctx.analysis.checker.getTypeFromTypeNode(arg));
    if (role?.shape !== 'resource') continue;
    // Around the record type, not over it: its own members may be renamed too (`{ id: string }` -> `{ uid: string }`).
    const bare = ts.isTypeReferenceNode(arg) || ts.isTypeLiteralNode(arg) || ts.isArrayTypeNode(arg) || ts.isTypeQueryNode(arg);
    ctx.edit(node.getStart(ctx.sf), arg.getStart(ctx.sf), `{ ${v2Key(role.resource)}: ${bare ? '' : '('}`);
    ctx.edit(arg.end, node.end, `${bare ? '' : ')'}[]; ${ENVELOPE.nextPageToken}?: string; ${ENVELOPE.totalCount}?: string }`);
    ctx.claim(node);
  }
}

/**
 * `return { items: all }` under a list type that takes v2's key (`Promise<GroupList>`): an envelope
 * the program builds, from the pages it read or from rows of its own, keeps the key its type has.
 */
function renameBuiltEnvelope(ctx: TransformContext, object: ts.ObjectLiteralExpression): void {
  const items = object.properties.find((p) => V1_LIST_KEYS.has(propertyKey(p) ?? ''));
  if (!items || ctx.isClaimed(items.name!)) return;
  const checker = ctx.analysis.checker;
  const contextual = checker.getContextualType(object);
  // In an async function the return's contextual type is `T | PromiseLike<T>`: the list is what it awaits.
  const role = contextual && (ctx.analysis.types.roleOf(contextual) ?? ctx.analysis.types.roleOf(checker.getAwaitedType(contextual) ?? contextual));
  if (role?.shape === 'envelope' && propertyKey(items) === v1Key(role.resource)) renameObjectKey(ctx, items, v2Key(role.resource));
}

/** `body['items']`, `'items' in body`, `Object.hasOwn(body, 'items')`: the list's key named as text. */
function renameKeyTested(ctx: TransformContext, node: ts.ElementAccessExpression | ts.BinaryExpression | ts.CallExpression): void {
  renameKeyNamedAsText(ctx, node, V1_LIST_KEYS, (key, record) => {
    const shape = ctx.shapeOf(record);
    return shape?.kind === 'envelope' && shape.call?.operation !== 'get-by-list' && key === v1Key(shape.resource) ? v2Key(shape.resource) : undefined;
  });
}

export const envelopes: Transform = {
  name: 'envelopes',
  description: 'items -> groups, repos, identities, roles, roleBindings, ... by the endpoint the list came from, in values and types',
  apply(ctx) {
    for (const [container, roles] of ctx.analysis.types.containers) {
      if (container.getSourceFile() !== ctx.sf || ctx.analysis.types.pinned.has(container) || ctx.analysis.sharedTypes.has(container) || ctx.analysis.readOneTypes.has(container as ts.TypeLiteralNode)) continue;
      const kinds = new Set(roles.filter((r) => r.shape === 'envelope').map((r) => r.resource));
      if (kinds.size === 1 && !ctx.analysis.types.needsCopies(container)) migrateEnvelopeType(ctx, container, [...kinds][0]!);
    }
    copySharedListTypes(ctx);
    for (const node of nodesOf(ctx.sf).ofKinds(ts.SyntaxKind.PropertyAccessExpression, ts.SyntaxKind.ObjectBindingPattern, ts.SyntaxKind.ElementAccessExpression, ts.SyntaxKind.BinaryExpression, ts.SyntaxKind.CallExpression, ts.SyntaxKind.ObjectLiteralExpression)) {
      if (ts.isObjectLiteralExpression(node)) renameBuiltEnvelope(ctx, node);
      else if (ts.isElementAccessExpression(node) || ts.isBinaryExpression(node) || ts.isCallExpression(node)) renameKeyTested(ctx, node);
      else if (ts.isPropertyAccessExpression(node)) {
        // Only the name changes: the expression before it may hold another transform's edits.
        if (!V1_LIST_KEYS.has(node.name.text) || ctx.isClaimed(node.name)) continue;
        const shape = ctx.shapeOf(node.expression);
        if (shape?.kind === 'envelope' && shape.call?.operation !== 'get-by-list' && node.name.text === v1Key(shape.resource)) ctx.replace(node.name, v2Key(shape.resource));
      } else if (ts.isObjectBindingPattern(node) && !ctx.isClaimed(node)) {
        const shape = ctx.patternShape(node);
        if (shape?.kind !== 'envelope' || shape.call?.operation === 'get-by-list') continue;
        for (const element of node.elements) {
          if (bindingKey(element) === v1Key(shape.resource)) renameBindingKey(ctx, element, v2Key(shape.resource));
        }
      }
    }
  },
};
