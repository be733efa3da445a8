/**
 * A v1 list returned everything; a v2 list returns a page. Every migrated list call is marked for
 * review (follow nextPageToken), and `items.length` used as a total becomes `Number(totalCount)`.
 */
import { ts } from 'ts-morph';
import type { Transform } from '../src/codemod/transform.js';
import { ENVELOPE, LIST_CONTRACT } from '../src/contract/index.js';
import { forEachNode } from './helpers.js';

export const pagination: Transform = {
  name: 'pagination',
  description: 'marks list calls that now return one page; items.length as a total -> Number(totalCount)',
  apply(ctx) {
    for (const call of ctx.calls) {
      if (call.operation !== 'list' || call.resource.v1.endpoints.list!.paginated) continue;
      ctx.todo(call.call, `v2 lists return one page (${LIST_CONTRACT.pageSize.default} by default, ${LIST_CONTRACT.pageSize.max} at most): follow nextPageToken until it is empty to read every ${call.resource.singular}`);
    }
    forEachNode(ctx.sf, (node) => {
      if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'length' || !ts.isPropertyAccessExpression(node.expression) || ctx.isClaimed(node)) return;
      const envelope = node.expression.expression;
      const shape = ctx.shapeOf(envelope);
      if (shape?.kind !== 'envelope' || shape.call?.operation === 'get-by-list' || node.expression.name.text !== shape.resource.v1.endpoints.list!.envelopeKey) return;
      ctx.replace(node, `Number(${ctx.textOf(envelope)}.${ENVELOPE.totalCount})`);
      ctx.claim(node);
    });
  },
};
