/**
 * A v1 `PUT` replaced the whole resource; v2 updates with `PATCH` and an `updateMask`. The mask is
 * the analysis's (update-masks.ts): the fields the body sets, or those changed on a record read
 * earlier and written back whole. Where they cannot be known, the mask is `*`, which keeps v1's full
 * replace, and the call is marked for review.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { maskText, replacesWithSomeFields } from '../src/codemod/update-masks.js';
import { sendsFixedPut } from '../src/codemod/call-plan.js';
import { appendQuery, quoteLike } from './helpers.js';

export const updates: Transform = {
  name: 'updates',
  description: 'v1 full-replace PUT -> PATCH with an updateMask naming the fields the body sets',
  apply(ctx) {
    for (const call of ctx.calls) {
      if (call.operation !== 'update') continue;
      const mask = ctx.analysis.updateMask(call);
      // Through a wrapper that sends PUT for every caller, the wrapper's method changes (below), once for all of them.
      if (call.methodNode) patch(ctx, call.methodNode);
      appendQuery(ctx, call.urlNode, `updateMask=${maskText(mask)}`);
      if (!mask && replacesWithSomeFields(call)) {
        ctx.todo(call.call, "this update's body names only some fields, and v1's PUT cleared the others: updateMask=* clears them on v2 too; if only the named fields should change, name them in the mask");
      } else if (!mask) {
        ctx.todo(call.call, 'the fields this update sets are not known here: updateMask=* keeps v1\'s full replace (omitted fields are cleared); name the fields it changes');
      }
    }
    allowPatch(ctx);
    patchPutWrappers(ctx);
  },
};

function patch(ctx: TransformContext, method: ts.Node): void {
  ctx.replace(method, ts.isIdentifier(method) ? 'patch' : quoteLike(ctx.textOf(method), 'PATCH'));
}

/** `putJson(path, body)` of this file, all of whose calls are v1 updates that migrate (the analysis keeps them together): it sends PATCH. */
function patchPutWrappers(ctx: TransformContext): void {
  const { plan } = ctx.analysis;
  for (const wrapper of ctx.analysis.wrappers.byFunction.values()) {
    if (!wrapper.fn || wrapper.fn.getSourceFile() !== ctx.sf || !wrapper.methodNode) continue;
    const calls = plan.calls.filter((c) => c.via === wrapper && !c.methodNode);
    if (calls.length > 0 && calls.every((c) => c.operation === 'update' && sendsFixedPut(c) && plan.migrates(c))) patch(ctx, wrapper.methodNode);
  }
}

/**
 * `request(method: HttpMethod, ...)` with `type HttpMethod = 'GET' | 'PUT' | ...` in this file, or
 * `call(path, opts: { method?: 'GET' | 'PUT' })`: the updates that now pass 'PATCH' through the
 * wrapper need the union to take it.
 */
function allowPatch(ctx: TransformContext): void {
  // Two helpers may share one union: it takes 'PATCH' once.
  const widened = new Set<ts.UnionTypeNode>();
  for (const wrapper of ctx.analysis.wrappers.byFunction.values()) {
    const type = wrapper.fn && methodTypeOf(ctx, wrapper.fn, wrapper);
    // `put: (path, body) => request('PUT', path, body)`: the PUT wrapper now hands this one 'PATCH'.
    const handsPatch = (c: V1Call) => sendsFixedPut(c) && ts.isCallExpression(c.via!.methodNode!.parent) && ctx.analysis.wrappers.viaWrapper(c.via!.methodNode!.parent)?.via === wrapper;
    if (!type || !ctx.analysis.plan.calls.some((c) => (c.via === wrapper || handsPatch(c)) && c.operation === 'update' && ctx.analysis.plan.migrates(c))) continue;
    const union = methodUnion(ctx, type);
    if (!union || union.getSourceFile() !== ctx.sf || widened.has(union)) continue;
    // `'GET' | 'PUT' | undefined`: an optional method's union names no method by its undefined.
    const named = union.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
    const literals = named.map((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal : undefined));
    if (literals.length === 0 || literals.some((l) => !l) || literals.some((l) => l!.text === 'PATCH')) continue;
    ctx.edit(union.end, union.end, ` | ${quoteLike(ctx.textOf(literals[0]!), 'PATCH')}`);
    widened.add(union);
  }
}

/** The type written for the method a wrapper is handed: its method parameter's, or the `method` member of its options parameter's. */
function methodTypeOf(ctx: TransformContext, fn: ts.SignatureDeclaration, wrapper: { methodParam?: number; initParam?: number }): ts.TypeNode | undefined {
  if (wrapper.methodParam !== undefined) return fn.parameters[wrapper.methodParam]?.type;
  const options = wrapper.initParam === undefined ? undefined : fn.parameters[wrapper.initParam]?.type;
  const declared = options && ts.isTypeReferenceNode(options) ? ctx.analysis.types.declarationOfType(options.typeName) : undefined;
  const members = options && ts.isTypeLiteralNode(options) ? options.members : declared && ts.isInterfaceDeclaration(declared) ? declared.members : declared && ts.isTypeAliasDeclaration(declared) && ts.isTypeLiteralNode(declared.type) ? declared.type.members : undefined;
  const method = members?.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText() === 'method');
  return method?.type;
}

/** A union of method names, written where the parameter is or as the type alias it names (imported, say). */
function methodUnion(ctx: TransformContext, type: ts.TypeNode): ts.UnionTypeNode | undefined {
  if (ts.isUnionTypeNode(type)) return type;
  if (!ts.isTypeReferenceNode(type)) return undefined;
  const declared = ctx.analysis.types.declarationOfType(type.typeName);
  return declared && ts.isTypeAliasDeclaration(declared) && ts.isUnionTypeNode(declared.type) ? declared.type : undefined;
}
