/**
 * A v1 list answers `{items}`; v2 names the array after the collection: `items` -> `groups`,
 * `repos`, `roleBindings`, ... according to the endpoint the value came from.
 */
import { ts } from 'ts-morph';
import type { Transform } from '../src/codemod/transform.js';
import { bindingKey, forEachNode, renameBindingKey } from './helpers.js';

export const envelopes: Transform = {
  name: 'envelopes',
  description: 'items -> groups, repos, identities, roles, roleBindings, ... by the endpoint the list came from',
  apply(ctx) {
    forEachNode(ctx.sf, (node) => {
      if (ctx.isClaimed(node)) return;
      if (ts.isPropertyAccessExpression(node)) {
        const shape = ctx.flow.shapeOf(node.expression);
        if (shape?.kind === 'envelope' && node.name.text === shape.call.resource.v1.endpoints.list!.envelopeKey) {
          ctx.replace(node.name, shape.call.resource.v2.endpoints.list!.envelopeKey);
        }
      } else if (ts.isObjectBindingPattern(node)) {
        const shape = ctx.flow.patternShape(node);
        if (shape?.kind !== 'envelope') return;
        for (const element of node.elements) {
          if (bindingKey(element) === shape.call.resource.v1.endpoints.list!.envelopeKey) renameBindingKey(ctx, element, shape.call.resource.v2.endpoints.list!.envelopeKey);
        }
      }
    });
  },
};
