/**
 * Where a call's answer goes out of the data flow's sight while the program still reads it: put in
 * a list with other answers (`[fetch(a), fetch(b)]`), gathered by `map()` as something the flow
 * has no shape for (responses, list bodies), or through `Promise.allSettled()` / `race()` /
 * `any()`. Migrated, such a call would change its path but not the reads of its answer further on,
 * so it stays on v1. Not lost: an answer taken apart as a tuple
 * (`const [a, b] = await Promise.all([...])`) or never read (a statement of its own).
 */
import { ts } from 'ts-morph';
import { awaitedTuple, type DataFlow } from './data-flow.js';
import { enclosingScope } from './syntax.js';

/** Calls on an answer that hand on the same answer, or what it parses to: the chain goes on from them. */
const CHAINED = new Set(['then', 'catch', 'finally', 'json', 'text']);
const LOSING_COMBINATORS = new Set(['allSettled', 'race', 'any']);

export interface LostAnswer {
  /** Where it went, in words for a note. */
  why: string;
  /** Whether the answer was parsed on the way (`.json()`, or in a `.then`): what was lost is a body, not a response. */
  parsed: boolean;
}

/** How the answer of `call` is lost to the flow; undefined when it is followed or not read. */
export function lostAnswer(call: ts.CallExpression, flow: DataFlow): LostAnswer | undefined {
  let n: ts.Expression = call;
  let lost: string | undefined;
  let parsed = false;
  for (;;) {
    const p = n.parent;
    if (ts.isParenthesizedExpression(p) || ts.isAwaitExpression(p) || ts.isAsExpression(p) || ts.isNonNullExpression(p) || ts.isSatisfiesExpression(p)) {
      n = p;
    } else if (ts.isPropertyAccessExpression(p) && p.expression === n && CHAINED.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p) {
      parsed ||= p.name.text === 'json' || p.name.text === 'text' || (p.name.text === 'then' && /\.json\(\)/.test(p.parent.getText()));
      n = p.parent;
    } else if (ts.isArrayLiteralExpression(p)) {
      lost ??= 'is put in a list with other values';
      n = p;
    } else if (ts.isCallExpression(p) && p.arguments.includes(n) && promiseCombinator(p)) {
      if (LOSING_COMBINATORS.has(promiseCombinator(p)!)) lost ??= `goes through Promise.${promiseCombinator(p)}()`;
      n = p;
    } else {
      const mapped = mappedBy(n);
      if (!mapped) break;
      if (!flow.shapeOf(mapped)) lost ??= `is gathered by ${(mapped.expression as ts.PropertyAccessExpression).name.text}() into a list of responses or list bodies`;
      n = mapped;
    }
  }
  if (!lost || ts.isExpressionStatement(n.parent) || ts.isVoidExpression(n.parent) || isTupleTakenApart(n)) return undefined;
  return { why: lost, parsed };
}

/** `Promise.all(...)` and its kin: the name of the combinator. */
function promiseCombinator(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'Promise' ? callee.name.text : undefined;
}

/** `xs.map((x) => <n>)` or `xs.map((x) => { return <n>; })`: the map call, when `n` is what its callback returns. */
function mappedBy(n: ts.Expression): ts.CallExpression | undefined {
  const scope = ts.isReturnStatement(n.parent) ? enclosingScope(n.parent) : undefined;
  const fn = ts.isArrowFunction(n.parent) && n.parent.body === n ? n.parent : scope && (ts.isArrowFunction(scope) || ts.isFunctionExpression(scope)) ? scope : undefined;
  const map = fn?.parent;
  if (!fn || !map || !ts.isCallExpression(map) || map.arguments[0] !== fn || !ts.isPropertyAccessExpression(map.expression)) return undefined;
  return map.expression.name.text === 'map' || map.expression.name.text === 'flatMap' ? map : undefined;
}

/** `const [a, b] = await Promise.all([...])`: each place is bound to its own value (data-flow.ts). */
function isTupleTakenApart(n: ts.Expression): boolean {
  const declaration = n.parent;
  return ts.isVariableDeclaration(declaration) && declaration.initializer === n && ts.isArrayBindingPattern(declaration.name) && awaitedTuple(n) !== undefined;
}
