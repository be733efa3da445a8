/**
 * `id` -> `uid`, `createdAt` -> `createTime`, `updatedAt` -> `updateTime`, `lastSeen` ->
 * `lastSeenTime`: on values that come from a v1 response (property access, optional chaining,
 * element access with a literal key, destructuring) and on interfaces that describe a v1 resource.
 * Never on anything else: a local `.id` is not an API field.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { describedResource, memberNames } from '../src/codemod/resource-types.js';
import { fieldRenames, type ResourceContract } from '../src/contract/index.js';
import { bindingKey, forEachNode, quoteLike, renameBindingKey } from './helpers.js';

function renamesOf(resource: ResourceContract): ReadonlyMap<string, string> {
  return fieldRenames(resource);
}

function renameTypeMembers(ctx: TransformContext, name: string, members: ts.NodeArray<ts.TypeElement>): void {
  const resource = describedResource(name, memberNames(members));
  if (!resource) return;
  const renames = renamesOf(resource);
  for (const m of members) {
    if (!ts.isPropertySignature(m) || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) continue;
    const to = renames.get(m.name.text);
    if (to) ctx.replace(m.name, ts.isStringLiteral(m.name) ? quoteLike(ctx.textOf(m.name), to) : to);
  }
}

/** Calls that read a resource's fields no further, or hand it on to code this file shows. */
const HARMLESS_CALLEES = /^(console\.\w+|JSON\.stringify|String|Number|Boolean|Object\.(keys|values|entries|assign|freeze)|Array\.(from|isArray)|Promise\.\w+|\w+\.(push|unshift|includes|indexOf|join|concat|set|add|has|get))$/;

const functionNames = new WeakMap<ts.SourceFile, Set<string>>();

/** Names of the functions and methods a file defines, worked out once per file. */
function definedInFile(ctx: TransformContext, name: string): boolean {
  let names = functionNames.get(ctx.sf);
  if (!names) {
    const found = new Set<string>();
    forEachNode(ctx.sf, (node) => {
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && ts.isIdentifier(node.name)) found.add(node.name.text);
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) found.add(node.name.text);
    });
    functionNames.set(ctx.sf, found);
    names = found;
  }
  return names.has(name);
}

/** API resources handed to a function this file does not show: the fields read there are not migrated. */
function flagEscapes(ctx: TransformContext, call: ts.CallExpression): void {
  const callee = call.expression.getText(ctx.sf);
  if (HARMLESS_CALLEES.test(callee) || ctx.calls.some((c) => c.call === call)) return;
  const name = callee.split('.').pop()!;
  if (definedInFile(ctx, name)) return;
  for (const arg of call.arguments) {
    const shape = ctx.flow.shapeOf(ts.isSpreadElement(arg) ? arg.expression : arg);
    if (shape?.kind === 'resource' || shape?.kind === 'array') {
      ctx.todo(call, `${shape.resource.singular} resources pass into ${callee}() here: the fields read there (id, createdAt, ...) are not migrated; check them by hand`);
      return;
    }
  }
}

export const fieldRenamesTransform: Transform = {
  name: 'field-renames',
  description: 'id -> uid, createdAt -> createTime, updatedAt -> updateTime, lastSeen -> lastSeenTime, on API resources only',
  apply(ctx) {
    forEachNode(ctx.sf, (node) => {
      if (ts.isCallExpression(node)) flagEscapes(ctx, node);
      if (ctx.isClaimed(node)) return;
      if (ts.isPropertyAccessExpression(node)) {
        const shape = ctx.flow.shapeOf(node.expression);
        const to = shape?.kind === 'resource' ? renamesOf(shape.resource).get(node.name.text) : undefined;
        if (to) ctx.replace(node.name, to);
      } else if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)) {
        const shape = ctx.flow.shapeOf(node.expression);
        const to = shape?.kind === 'resource' ? renamesOf(shape.resource).get(node.argumentExpression.text) : undefined;
        if (to) ctx.replace(node.argumentExpression, quoteLike(ctx.textOf(node.argumentExpression), to));
      } else if (ts.isObjectBindingPattern(node)) {
        const shape = ctx.flow.patternShape(node);
        if (shape?.kind !== 'resource') return;
        for (const element of node.elements) {
          const key = bindingKey(element);
          const to = key ? renamesOf(shape.resource).get(key) : undefined;
          if (to) renameBindingKey(ctx, element, to);
        }
      } else if (ts.isInterfaceDeclaration(node)) {
        renameTypeMembers(ctx, node.name.text, node.members);
      } else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) {
        renameTypeMembers(ctx, node.name.text, node.type.members);
      }
    });
  },
};
