/**
 * A v1 delete answered `{}`; a v2 delete answers an empty body. Where the answer of a migrated
 * delete is parsed as JSON (`res.json()` after the call or in its `.then`, of the call or of a
 * wrapper that hands the response back, or a wrapper that parses every answer),
 * the parse reads an empty body as `{}`, as v1's was; where a wrapper already reads an empty body
 * as no value, or axios, ofetch, got and ky as `''`, the answer the program reads keeps `{}`.
 */
import { ts } from 'ts-morph';
import type { Transform, TransformContext } from '../src/codemod/transform.js';
import { parsedInChain, type V1Call } from '../src/codemod/v1-calls.js';
import { answersBody } from '../src/codemod/answers.js';
import { nodesOf } from './helpers.js';

function answersEmpty(call: V1Call): boolean {
  return call.operation === 'delete' && call.resource.v1.deleteResponse?.body === 'empty-object' && call.resource.v2.deleteResponse?.body === 'empty';
}

/** The `.json()` calls of this file that parse the answer of a migrated delete. */
function parsesOfDeletes(ctx: TransformContext): Set<ts.CallExpression> {
  const parses = new Set<ts.CallExpression>();
  // A wrapper parses for every caller, in whatever file they are.
  for (const call of ctx.analysis.plan.calls) {
    const parse = call.via?.parse;
    if (parse && parse.getSourceFile() === ctx.sf && answersEmpty(call) && ctx.analysis.plan.migrates(call)) parses.add(parse);
  }
  for (const node of nodesOf(ctx.sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
    if (!ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 'json' || node.arguments.length > 0) continue;
    const receiver = node.expression.expression;
    const shape = ctx.shapeOf(ts.isIdentifier(receiver) ? (thenReceiverOf(receiver) ?? receiver) : receiver);
    if (shape && (shape.kind === 'response' || shape.kind === 'stream') && (!shape.call.via || shape.call.via.returns === 'response') && (shape.call.client === 'fetch' || shape.call.client === 'undici') && answersEmpty(shape.call)) parses.add(node);
  }
  return parses;
}

/** `fetch(...).then((res) => res.json())`: for `res`, the promise whose callback it is the parameter of. */
function thenReceiverOf(name: ts.Identifier): ts.Expression | undefined {
  for (let n: ts.Node = name.parent; n; n = n.parent) {
    if (!ts.isArrowFunction(n) && !ts.isFunctionExpression(n)) continue;
    const parameter = n.parameters[0];
    const then = n.parent;
    const declares = parameter && ts.isIdentifier(parameter.name) && parameter.name.text === name.text;
    if (!declares) {
      if (n.parameters.some((p) => !ts.isIdentifier(p.name) || p.name.text === name.text)) return undefined;
      continue;
    }
    const isThen = ts.isCallExpression(then) && then.arguments[0] === n && ts.isPropertyAccessExpression(then.expression) && then.expression.name.text === 'then';
    return isThen ? (then.expression as ts.PropertyAccessExpression).expression : undefined;
  }
  return undefined;
}

/** `((await api(...)) ?? {})`: the answer already keeps `{}` (a run before this one wrote it so). */
function keptEmpty(awaited: ts.AwaitExpression): boolean {
  const fallback = ts.isParenthesizedExpression(awaited.parent) ? awaited.parent.parent : undefined;
  const or = fallback && ts.isBinaryExpression(fallback) && (fallback.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || fallback.operatorToken.kind === ts.SyntaxKind.BarBarToken) ? fallback : undefined;
  return or !== undefined && ts.isObjectLiteralExpression(or.right) && or.right.properties.length === 0;
}

/**
 * `const revoked = await api('DELETE', ...)` through a wrapper that parses text (`text ? JSON.parse(text) : undefined`),
 * or ofetch's, which parses an empty body as `''`: v2's empty body gives no value where v1's gave
 * `{}`, so the answer that is read keeps `{}`.
 */
function keepEmptyAnswers(ctx: TransformContext): void {
  for (const call of ctx.calls) {
    if (!answersEmpty(call) || call.via?.parse || !ctx.analysis.plan.migrates(call)) continue;
    // got's and ky's `.json()` in the chain parse an empty body as `''` too.
    const answer = answersBody(call) ? call.call : !call.via && (call.client === 'got' || call.client === 'ky') ? parsedInChain(call) : undefined;
    const awaited = answer?.parent;
    if (!awaited || !ts.isAwaitExpression(awaited) || ts.isExpressionStatement(awaited.parent) || keptEmpty(awaited)) continue;
    ctx.edit(awaited.getStart(ctx.sf), awaited.getStart(ctx.sf), '((');
    ctx.edit(awaited.end, awaited.end, `) ${EMPTY_AS_TEXT.has(call.client) ? '||' : '??'} {})`);
  }
}

/** Clients whose parsed body of an empty answer is `''` (a wrapper handing it on answers it so too); a wrapper of fetch's answers no value. */
const EMPTY_AS_TEXT = new Set<V1Call['client']>(['axios', 'ofetch', 'got', 'ky']);

/**
 * `const res = await axios.delete(...)`, its answer read: axios gives v2's empty body as `data: ''`
 * where v1's was `{}`, so the response the program reads keeps `{}`.
 */
function keepEmptyAxiosData(ctx: TransformContext): void {
  for (const call of ctx.calls) {
    if (!answersEmpty(call) || call.via || call.client !== 'axios' || !ctx.analysis.plan.migrates(call)) continue;
    const awaited = call.call.parent;
    if (!ts.isAwaitExpression(awaited) || ts.isExpressionStatement(awaited.parent)) continue;
    ctx.edit(call.call.end, call.call.end, ".then((res) => (typeof res.data === 'string' && res.data === '' ? { ...res, data: {} } : res))");
  }
}

export const deletes: Transform = {
  name: 'deletes',
  description: "a v1 delete answered {}, a v2 delete an empty body: res.json() of its answer -> res.text() read as {} when empty",
  apply(ctx) {
    for (const parse of parsesOfDeletes(ctx)) {
      const access = parse.expression as ts.PropertyAccessExpression;
      if (ctx.isClaimed(access.name)) continue;
      ctx.replace(access.name, 'text');
      ctx.edit(parse.end, parse.end, '.then((text) => (text ? JSON.parse(text) : {}))');
      ctx.claim(access.name);
    }
    keepEmptyAnswers(ctx);
    keepEmptyAxiosData(ctx);
  },
};
