/**
 * A v1 `PUT` replaced the whole resource; v2 updates with `PATCH` and an `updateMask`. The mask is
 * the analysis's (update-masks.ts): the fields the body sets, or those changed on a record read
 * earlier and written back whole. Where they cannot be known, the mask is `*`, which keeps v1's full
 * replace, and the call is marked for review.
 */
import { ts } from 'ts-morph';
import type { Transform } from '../src/codemod/transform.js';
import { maskText } from '../src/codemod/update-masks.js';
import { appendQuery, quoteLike } from './helpers.js';

export const updates: Transform = {
  name: 'updates',
  description: 'v1 full-replace PUT -> PATCH with an updateMask naming the fields the body sets',
  apply(ctx) {
    for (const call of ctx.calls) {
      if (call.operation !== 'update') continue;
      const method = call.methodNode!;
      const mask = ctx.analysis.updateMask(call);
      ctx.replace(method, ts.isIdentifier(method) ? 'patch' : quoteLike(ctx.textOf(method), 'PATCH'));
      appendQuery(ctx, call.urlNode, `updateMask=${maskText(mask)}`);
      if (!mask) {
        ctx.todo(call.call, 'the fields this update sets are not known here: updateMask=* keeps v1\'s full replace (omitted fields are cleared); name the fields it changes');
      }
    }
  },
};
