/**
 * A v1 `PUT` replaced the whole resource; v2 updates with `PATCH` and an `updateMask`. The mask names
 * the fields the body sets (`{...group, description}` -> `description`). Where they cannot be known,
 * the mask is `*`, which keeps v1's full replace, and the call is marked for review.
 */
import { ts } from 'ts-morph';
import type { Transform } from '../src/codemod/transform.js';
import type { V1Call } from '../src/codemod/v1-calls.js';
import { appendQuery, jsonPayload, propertyKey, quoteLike } from './helpers.js';

/** The v2 names of the mutable fields a body sets explicitly; undefined when that cannot be told. */
function maskOf(call: V1Call): string[] | undefined {
  if (!call.body) return undefined;
  const payload = jsonPayload(call.body);
  if (!ts.isObjectLiteralExpression(payload)) return undefined;
  const names: string[] = [];
  for (const p of payload.properties) {
    const key = propertyKey(p);
    const field = key ? call.resource.fields.find((f) => f.v1 === key || f.reference?.writeKey?.v1 === key) : undefined;
    if (field?.access === 'mutable') names.push(field.reference?.writeKey?.v2 ?? field.v2 ?? key!);
  }
  return names.length > 0 ? names : undefined;
}

export const updates: Transform = {
  name: 'updates',
  description: 'v1 full-replace PUT -> PATCH with an updateMask naming the fields the body sets',
  apply(ctx) {
    for (const call of ctx.calls) {
      if (call.operation !== 'update') continue;
      const method = call.methodNode!;
      const mask = maskOf(call);
      ctx.replace(method, ts.isIdentifier(method) ? 'patch' : quoteLike(ctx.textOf(method), 'PATCH'));
      appendQuery(ctx, call.urlNode, `updateMask=${mask ? mask.join(',') : '*'}`);
      if (!mask) {
        ctx.todo(call.call, 'the fields this update sets are not known here: updateMask=* keeps v1\'s full replace (omitted fields are cleared); name the fields it changes');
      }
    }
  },
};
