/**
 * Where a call's answer goes out of the data flow's sight while the program still reads it: put in
 * a list with other answers (`[fetch(a), fetch(b)]`), gathered by `map()` as something the flow
 * has no shape for (responses, list bodies), or through `Promise.allSettled()` / `race()` /
 * `any()`. Migrated, such a call would change its path but not the reads of its answer further on,
 * so it stays on v1. Not lost: an answer taken apart as a tuple
 * (`const [a, b] = await Promise.all([...])`) or never read (a statement of its own).
 */
import { ts } from 'ts-morph';
import { deleteBodyChange } from '../contract/index.js';
import { harmlessCallee } from './callees-reading-nothing.js';
import { awaitedTuple, type DataFlow, type Shape } from './data-flow.js';
import { nodesOf } from './file-nodes.js';
import { calleeOf } from './places.js';
import { isProjectSource } from './resource-types.js';
import { functionOf, isConst, returnedExpressions, unwrap } from './static-text.js';
import { enclosingScope, usesOf } from './syntax.js';
import type { V1Call } from './v1-calls.js';

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

/**
 * `const [a, b] = await Promise.all([...])`, `Promise.all([...]).then(([a, b]) => ...)`: each place
 * is bound to its own value (data-flow.ts).
 */
function isTupleTakenApart(n: ts.Expression): boolean {
  const declaration = n.parent;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer === n && ts.isArrayBindingPattern(declaration.name) && awaitedTuple(n) !== undefined) return true;
  const step = unwrap(n);
  if (!ts.isCallExpression(step) || !ts.isPropertyAccessExpression(step.expression) || step.expression.name.text !== 'then' || awaitedTuple(step.expression.expression) === undefined) return false;
  const handler = step.arguments[0] && unwrap(step.arguments[0]);
  return Boolean(handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) && handler.parameters[0] && ts.isArrayBindingPattern(handler.parameters[0].name));
}

/** What a response tells without its body: reading these of it loses nothing. */
const STATUS_READS = new Set(['ok', 'status', 'statusText', 'headers', 'url', 'redirected', 'type']);

/** Whether the value of an expression is used: not a statement of its own (under `await`, parentheses). */
export function valueUsed(node: ts.Expression): boolean {
  let n: ts.Node = node;
  while (ts.isParenthesizedExpression(n.parent) || ts.isAwaitExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent)) n = n.parent;
  return !ts.isExpressionStatement(n.parent) && !ts.isVoidExpression(n.parent);
}

/** Whether every use of a parameter in its function reads only the status of the response it holds. */
function readsOnlyStatus(parameter: ts.ParameterDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  if (!ts.isIdentifier(parameter.name)) return false;
  return usesOf(parameter.getSourceFile(), parameter, declarationOf).every((id) => ts.isPropertyAccessExpression(id.parent) && id.parent.expression === id && STATUS_READS.has(id.parent.name.text));
}

/**
 * A `.then()` handler written in place reads what it is given where the flow follows it (its
 * parameter holds the records or body), or a response's status only.
 */
function handlerFollowed(step: ts.CallExpression, given: Shape, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  const handler = step.arguments[0] && unwrap(step.arguments[0]);
  if ((step.expression as ts.PropertyAccessExpression).name.text !== 'then' || !handler || (!ts.isArrowFunction(handler) && !ts.isFunctionExpression(handler))) return false;
  if (given.kind !== 'response' && given.kind !== 'stream') return true;
  const parameter = handler.parameters[0];
  return !parameter || readsOnlyStatus(parameter, declarationOf);
}

/** `.then(...)`, or `.then(ok), a function migrate-v2 cannot read (...)` for a named handler it does not see. */
function handlerInWords(step: ts.CallExpression, method: string, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string {
  const handler = step.arguments[0] && unwrap(step.arguments[0]);
  const fn = handler && ts.isIdentifier(handler) ? functionOf(handler, declarationOf) : undefined;
  if (!handler || !ts.isIdentifier(handler) || (fn && isProjectSource(fn.getSourceFile()))) return `.${method}(${step.arguments.length > 0 ? '...' : ''})`;
  return `.${method}(${handler.text}), a function migrate-v2 cannot read (a package's, or an import it resolves only with the project's tsconfig or jsconfig)`;
}

export interface AnswerOutOfSight {
  call: V1Call;
  why: string;
  /** Read as text: a delete's text differs between the versions. */
  text?: true;
  /** Lost unparsed, as the response: what reads it there parses it out of the deletes transform's sight. */
  response?: true;
}

/**
 * Answers the flow loses further on, where they are parsed or handed on: `res.json().catch(() =>
 * ({ items: [] }))` (a fallback in v1's shape), `.then(parse)` of a function it does not read, a
 * response handed to a function of the file that reads its body (`summarise(res)`). Migrated, such a
 * call's reads there would keep v1's names.
 */
export function answersReadOutOfSight(sf: ts.SourceFile, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined): AnswerOutOfSight[] {
  const out: AnswerOutOfSight[] = [];
  for (const node of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
    const callee = node.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'text' && node.arguments.length === 0) {
      const target = flow.shapeOf(callee.expression);
      if ((target?.kind === 'response' || target?.kind === 'stream') && valueUsed(node) && !onErrorPath(node) && !parsedAsJson(node, declarationOf)) {
        const deleted = target.call.operation === 'delete' ? deleteBodyChange(target.call.resource) : undefined;
        if (target.call.operation === 'delete' && !deleted) continue;
        out.push({ call: target.call, why: deleted ? `is read as text, where ${deleted}` : 'is read as text whole, which v2 writes otherwise (its envelope, field names and pages)', text: true });
      }
      continue;
    }
    if (ts.isPropertyAccessExpression(callee) && PROMISE_STEPS.has(callee.name.text)) {
      const target = flow.shapeOf(callee.expression);
      const call = target && 'call' in target ? target.call : undefined;
      // A handler written in place is the deletes transform's to read (`.then((r) => r.json())`); a named one is out of its sight.
      const handler = node.arguments[0] && unwrap(node.arguments[0]);
      const inPlace = handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler));
      const response = (target?.kind === 'response' || target?.kind === 'stream') && !inPlace ? { response: true as const } : {};
      if (call && !flow.shapeOf(node) && valueUsed(node) && !handlerFollowed(node, target!, declarationOf)) out.push({ call, why: `is read through ${handlerInWords(node, callee.name.text, declarationOf)}, where migrate-v2 loses it`, ...response });
      continue;
    }
    const fn = ts.isIdentifier(callee) ? functionOf(callee, declarationOf) : undefined;
    // `Promise.allSettled(ids.map((id) => readGroup(id)))`: a function's records are lost there as a v1 call's answer is.
    const combinator = fn ? undefined : promiseCombinator(node);
    if (combinator && LOSING_COMBINATORS.has(combinator)) out.push(...recordsThrough(node, combinator, flow));
    // A function of the program (of another module too, with a tsconfig) is read; one the run does not read (a package's, an import
    // it cannot resolve) is taken to read what it is handed where its value is used (`from(api.get(url)).pipe(...)`, `await check(res)`).
    // A method of the program (`this.check(res)`) is read as a function is.
    const own = fn ?? (ts.isPropertyAccessExpression(callee) ? functionOf(callee, declarationOf) : undefined);
    const seen = own && isProjectSource(own.getSourceFile()) ? own : undefined;
    node.arguments.forEach((arg, i) => {
      const shape = ts.isSpreadElement(arg) ? undefined : flow.shapeOf(arg);
      if ((shape?.kind !== 'response' && shape?.kind !== 'stream') || flow.shapeOf(node)) return;
      // `throw await errorFrom(res)` under `if (!res.ok)`: an error answer, the same on both versions.
      if (!seen && (!valueUsed(node) || onErrorPath(node) || harmlessCallee(callee.getText(sf)))) return;
      const parameter = seen?.parameters[Math.min(i, seen.parameters.length - 1)];
      if (seen && (!parameter || readsOnlyStatus(parameter, declarationOf))) return;
      const where = seen ? 'which reads it where migrate-v2 does not follow it' : "a function migrate-v2 cannot read (a package's, or an import it resolves only with the project's tsconfig), which may read it by v1 names";
      out.push({ call: shape.call, why: `is handed to ${calleeOf(node)}(), ${where}`, response: true });
    });
  }
  return out;
}

/**
 * What a losing combinator is handed from the program's functions (`Promise.allSettled(ids.map((id)
 * => readGroup(id)))`, `[readGroup(a), readGroup(b)]`): the calls whose records it gives (a v1
 * call's own answer is lostAnswer's).
 */
function recordsThrough(combined: ts.CallExpression, combinator: string, flow: DataFlow): { call: V1Call; why: string }[] {
  const given = combined.arguments[0] && unwrap(combined.arguments[0]);
  const map = given && ts.isCallExpression(given) && ts.isPropertyAccessExpression(given.expression) && given.expression.name.text === 'map' ? given.arguments[0] : undefined;
  const values = !given ? [] : ts.isArrayLiteralExpression(given) ? [...given.elements] : map && (ts.isArrowFunction(map) || ts.isFunctionExpression(map)) ? returnedExpressions(map) : [];
  return values.flatMap((value) => {
    const n = unwrap(value);
    const shape = ts.isCallExpression(n) ? flow.shapeOf(n) : undefined;
    if (!shape || !('resource' in shape) || !shape.call || shape.call.call === n) return [];
    return [{ call: shape.call, why: `is handed on by ${calleeOf(n as ts.CallExpression)}() through Promise.${combinator}(), where migrate-v2 does not follow it` }];
  });
}

/** Whether a read sits where the program handles a failed answer: thrown, or under a test of the status. */
function onErrorPath(node: ts.Node): boolean {
  for (let n = node.parent; n && !ts.isFunctionLike(n) && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isThrowStatement(n)) return true;
    const test = ts.isIfStatement(n) ? n.expression : ts.isConditionalExpression(n) ? n.condition : undefined;
    if (test && /\.(?:ok|status|statusCode)\b/.test(test.getText())) return true;
  }
  return false;
}

/** `JSON.parse(await res.text())`, or a const holding the text that only JSON.parse reads: the flow reads it as the body. */
function parsedAsJson(text: ts.CallExpression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): boolean {
  let n: ts.Node = text;
  while (ts.isAwaitExpression(n.parent) || ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const isParse = (e: ts.Node): boolean => ts.isCallExpression(e.parent) && e.parent.expression.getText() === 'JSON.parse' && e.parent.arguments[0] === e;
  if (isParse(n)) return true;
  const holder = n.parent;
  if (!ts.isVariableDeclaration(holder) || holder.initializer !== n || !isConst(holder)) return false;
  const uses = usesOf(holder.getSourceFile(), holder, declarationOf);
  return uses.length > 0 && uses.every(isParse);
}

/** Steps of a promise that hand on what it gives (or a handler's value). */
const PROMISE_STEPS = new Set(['then', 'catch', 'finally']);
