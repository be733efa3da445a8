/**
 * v1 has no Get: one record is read by listing with `?id=` and taking `items[0]`. v2 has Get:
 * `/collection/<uid>` answers the record itself, or 404 (code 5) when it does not exist.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { readOneLiteral } from '../src/codemod/call-plan.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { readOneQuery } from '../src/contract/index.js';
import { forEachNode } from './helpers.js';

/**
 * A test of whether the list came back empty, around `E.items`: `E.items.length === 0`,
 * `!E.items.length`, `E.items.length > 0`, ... `missing` is true when the test holds for no record.
 */
function emptinessCheck(items: ts.PropertyAccessExpression): { node: ts.Expression; missing: boolean } | undefined {
  const length = items.parent;
  if (!ts.isPropertyAccessExpression(length) || length.name.text !== 'length') return undefined;
  const up = length.parent;
  if (ts.isPrefixUnaryExpression(up) && up.operator === ts.SyntaxKind.ExclamationToken) return { node: up, missing: true };
  if (ts.isBinaryExpression(up) && up.left === length && ts.isNumericLiteral(up.right)) {
    const n = Number(up.right.text);
    const op = up.operatorToken.kind;
    if ((op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken) && n === 0) return { node: up, missing: true };
    if (op === ts.SyntaxKind.LessThanToken && n === 1) return { node: up, missing: true };
    if ((op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.GreaterThanToken) && n === 0) return { node: up, missing: false };
  }
  return undefined;
}

/** `res.status` (fetch) or `res.statusCode` (undici request) of the call's response; others throw on 404. */
function statusOf(ctx: TransformContext, call: V1Call): string | undefined {
  const response = ctx.file.flow.responseVariable(call);
  if (!response) return undefined;
  if (call.client === 'fetch') return `${response.text}.status`;
  if (call.client === 'undici') return `${response.text}.statusCode`;
  return undefined;
}

/** The expression that follows a literal piece of a URL: the next template hole, or the right of a `+`. */
function valueAfter(literal: ts.Node): ts.Expression | undefined {
  if (ts.isTemplateHead(literal)) return (literal.parent as ts.TemplateExpression).templateSpans[0]?.expression;
  if (ts.isTemplateMiddle(literal)) {
    const span = literal.parent as ts.TemplateSpan;
    const spans = (span.parent as ts.TemplateExpression).templateSpans;
    return spans[spans.indexOf(span) + 1]?.expression;
  }
  if (ts.isStringLiteral(literal) && ts.isBinaryExpression(literal.parent) && literal.parent.left === literal) return literal.parent.right;
  return undefined;
}

export const getByList: Transform = {
  name: 'get-by-list',
  description: 'v1 list-with-id then items[0] -> v2 Get, with a note on the not-found handling',
  apply(ctx) {
    /** Each migrated call, and whether its not-found test was rewritten to the status. */
    const envelopes = new Map<V1Call, boolean>();
    for (const call of ctx.calls) {
      if (call.operation !== 'get-by-list') continue;
      const literal = readOneLiteral(call)!;
      const raw = ctx.plannedText(literal);
      const query = readOneQuery(call.resource);
      const at = raw.lastIndexOf(query);
      ctx.replace(literal, `${raw.slice(0, at)}/${raw.slice(at + query.length)}`);
      ctx.claim(literal);
      // A query value is encoded; a path binds the uid with its slashes as they are (v1-reference "Identifiers").
      const encoded = valueAfter(literal);
      if (encoded && ts.isCallExpression(encoded) && encoded.expression.getText(ctx.sf) === 'encodeURIComponent' && encoded.arguments[0]) {
        ctx.replace(encoded, ctx.textOf(encoded.arguments[0]));
        ctx.claim(encoded);
      }
      envelopes.set(call, false);
    }
    if (envelopes.size === 0) return;
    forEachNode(ctx.sf, (node) => {
      if (!ts.isPropertyAccessExpression(node) || ctx.isClaimed(node.name)) return;
      const shape = ctx.shapeOf(node.expression);
      if (shape?.kind !== 'envelope' || !shape.call || !envelopes.has(shape.call) || node.name.text !== shape.resource.v1.endpoints.list!.envelopeKey) return;
      const parent = node.parent;
      if (ts.isElementAccessExpression(parent) && parent.expression === node && ctx.textOf(parent.argumentExpression) === '0') {
        // `.items[0]` goes; what comes before it may hold other edits (the URL's).
        ctx.edit(node.expression.end, parent.end, '');
        ctx.claim(node.name);
        return;
      }
      const check = emptinessCheck(node);
      const status = statusOf(ctx, shape.call);
      if (check && status) {
        ctx.replace(check.node, `${status} ${check.missing ? '===' : '!=='} 404`);
        ctx.claim(check.node);
        envelopes.set(shape.call, true);
      } else {
        ctx.todo(node, 'v2 Get has no items: a record that does not exist is a 404 (code 5), not an empty list');
        ctx.claim(node);
      }
    });
    for (const [call, handled] of envelopes) {
      if (!handled) ctx.todo(call.call, `v2 Get answers the ${call.resource.singular} itself, or 404 (code 5) when there is none: check the status before reading the body`);
    }
  },
};
