/**
 * `/iam/v1/` -> `/iam/v2beta1/` (and `/registry/`, `/vulnerabilities/`), with the collection
 * spellings that changed (`rolebindings` -> `roleBindings`), in every string and template literal:
 * call arguments, constants, config objects, `new URL(path, base)`, axios `baseURL`.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { HOLE } from '../src/codemod/v1-calls.js';
import { endsWithV1Prefix, hasV1Path, pluralWords, renamedCollections, rewriteV1Paths, type Operation } from '../src/contract/index.js';
import { forEachNode } from './helpers.js';

const V2_OPERATION: Record<string, Operation> = { list: 'list', 'get-by-list': 'get', create: 'create', update: 'update', delete: 'delete' };

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) return node.text;
  return undefined;
}

function insideRecognisedCall(ctx: TransformContext, node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isCallExpression(n)) return ctx.calls.some((c) => c.call === n) || ctx.unplaced.includes(n);
    if (ts.isVariableDeclaration(n) || ts.isPropertyAssignment(n) || ts.isFunctionLike(n) || ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) return true;
  }
  return true;
}

export const paths: Transform = {
  name: 'paths',
  description: 'v1 path prefixes to v2beta1, with the collection spellings that changed, wherever a path is written',
  apply(ctx) {
    for (const call of ctx.calls) {
      if (call.resource.v2.endpoints[V2_OPERATION[call.operation]!]) continue;
      ctx.todo(call.call, `v2beta1 has no ${call.operation} for ${pluralWords(call.resource)}: this call stays on v1 until there is one`);
      ctx.claim(call.urlNode);
    }
    for (const call of ctx.unplaced) {
      // A collection chosen at run time gets its own note below.
      const url = ctx.text.of(call.arguments[0]!) ?? '';
      if (endsWithV1Prefix(url.slice(0, url.indexOf(HOLE) + 1).slice(0, -1))) continue;
      ctx.todo(call, 'a v1 call the migration contract does not describe (method or path): migrate it by hand');
    }
    forEachNode(ctx.sf, (node) => {
      const text = literalText(node);
      if (text === undefined || !hasV1Path(text) || ctx.isClaimed(node)) return;
      const raw = ctx.textOf(node);
      const rewritten = rewriteV1Paths(raw);
      if (rewritten !== raw) ctx.replace(node, rewritten);
      if ((ts.isTemplateHead(node) || ts.isTemplateMiddle(node)) && endsWithV1Prefix(text)) {
        const spellings = renamedCollections().map(([v1, v2]) => `${v1} as ${v2}`).join(', ');
        ctx.todo(node, `the collection in this path is chosen at run time: v2beta1 spells ${spellings}`);
      }
      if (!insideRecognisedCall(ctx, node)) {
        ctx.todo(node, 'a v1 path passed to a call migrate-v2 does not recognise: check the response shape (uid, createTime, list keys, pages) by hand');
      }
    });
  },
};
