/**
 * Timestamps of two calls compared with each other (`fresh.updatedAt !== stamp`, where `stamp` was
 * read from another record). When one of the calls stays on v1 and the other migrates, the two texts
 * come at different precisions and never match again: the comparison changes its answer silently.
 * So do a migrating call's timestamp and one under v1's name of a record the flow cannot trace (a
 * cache written by a v1 run, records kept in an object).
 */
import { ts } from 'ts-morph';
import { READS_A_FILE } from './files-read-back.js';
import { morePreciseThanV2, preciseTimestamp, preciseTimestampNames } from '../contract/index.js';
import type { DataFlow } from './data-flow.js';
import { nodesOf } from './file-nodes.js';
import { functionOf, unwrap } from './static-text.js';
import { isFallback } from './syntax.js';
import type { V1Call } from './v1-calls.js';

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

export interface TimeRead {
  call: V1Call;
  /** The field as the program names it. */
  field: string;
}

export interface TimesCompared {
  at: ts.BinaryExpression;
  /** Both sides where each is a call's timestamp; one where the other is a timestamp of a value the flow does not know (`untraced`). */
  sides: [TimeRead, TimeRead] | [TimeRead];
  /** `cached.updatedAt` of a record kept in a file or an object (v1's name, and perhaps v1's text), or a timestamp written at v1's precision; with what it is, in words. */
  untraced?: { node: ts.Expression; what: string };
}

/**
 * The record's timestamp a value is: a read of it (`r.updatedAt`), or a variable it was put in
 * (`var stamp = r.updatedAt`); a few steps of variables at most.
 */
function timeRead(value: ts.Expression, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined, typedCall: TypedCall, steps = 3): TimeRead | undefined {
  const node = unwrap(value);
  if (ts.isIdentifier(node) && steps > 0) {
    const d = declarationOf(node);
    return d && ts.isVariableDeclaration(d) && d.initializer ? timeRead(d.initializer, flow, declarationOf, typedCall, steps - 1) : undefined;
  }
  if (!ts.isPropertyAccessExpression(node)) return undefined;
  const shape = flow.shapeOf(node.expression);
  if (shape?.kind !== 'resource' || !preciseTimestamp(shape.resource, node.name.text)) return undefined;
  // Records of another module (`await listIdentities()`) are known by their type: the call is one that type was seen on.
  const call = shape.call ?? typedCall(node.expression);
  return call ? { call, field: node.name.text } : undefined;
}

/** A v1 call whose records have the type of a value, for records the flow knows by their type alone. */
export type TypedCall = (value: ts.Expression) => V1Call | undefined;

const NAMES = preciseTimestampNames();

/** `r.updatedAt`: a read that may be a timestamp, by its name alone. */
function namedAsTime(value: ts.Expression): boolean {
  const node = unwrap(value);
  return ts.isPropertyAccessExpression(node) && NAMES.has(node.name.text);
}

/** Comparisons of two calls' timestamps in a file. */
export function timesCompared(sf: ts.SourceFile, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined, typedCall: TypedCall): TimesCompared[] {
  const found: TimesCompared[] = [];
  for (const node of nodesOf(sf).of<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
    // One side at least reads a timestamp by name: the flow and the checker are asked of those only.
    if (!COMPARISONS.has(node.operatorToken.kind) || !(namedAsTime(node.left) || namedAsTime(node.right))) continue;
    const left = timeRead(node.left, flow, declarationOf, typedCall);
    const right = timeRead(node.right, flow, declarationOf, typedCall);
    if (left && right && left.call !== right.call) found.push({ at: node, sides: [left, right] });
    const untraced = left && !right ? untracedTime(node.right, flow, declarationOf) : right && !left ? untracedTime(node.left, flow, declarationOf) : undefined;
    if (untraced) found.push({ at: node, sides: [(left ?? right)!], untraced });
  }
  return found;
}

/**
 * `cached.updatedAt` where the flow knows nothing of `cached`: a timestamp under v1's name whose
 * record it cannot trace; or `'2025-03-02T09:00:05.000009Z'` (in place or in a constant), written
 * at v1's precision.
 */
function untracedTime(value: ts.Expression, flow: DataFlow, declarationOf: (n: ts.Node) => ts.Declaration | undefined): TimesCompared['untraced'] {
  const node = unwrap(value);
  if (namedAsTime(node) && !flow.shapeOf((node as ts.PropertyAccessExpression).expression)) return { node, what: "a timestamp under v1's name whose record migrate-v2 cannot trace (kept from a v1 run, or in an object)" };
  const d = ts.isIdentifier(node) ? declarationOf(node) : undefined;
  const text = d && ts.isVariableDeclaration(d) && d.initializer ? unwrap(d.initializer) : node;
  if (ts.isStringLiteralLike(text) && morePreciseThanV2(text.text)) return { node, what: "a timestamp written at v1's precision" };
  const outside = readFromOutside(node, declarationOf);
  return outside ? { node, what: `a value the program reads from outside (${outside}: a cursor or cache a v1 run may have written)` } : undefined;
}

/** What the program reads from outside it, by the expression that reads it: text it parses, a file, its command line, its environment. */
const OUTSIDE: [RegExp, string][] = [
  [/^JSON\.parse$/, '`JSON.parse`'],
  [/^process\.argv$/, '`process.argv`'],
  [/^process\.env$/, '`process.env`'],
  [READS_A_FILE, 'a file'],
  [/(^|\.)parseArgs$/, 'the command line'],
];

/**
 * `cursor.publishedAfter` of `const cursor = JSON.parse(readFileSync(STATE, 'utf8'))`, `since` of
 * `const since = process.argv[2] ?? ''`, `process.env.SINCE` in place: where the value comes from
 * outside the program, in words; undefined for anything else.
 */
function readFromOutside(value: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string | undefined {
  let root = unwrap(value);
  if (ts.isBinaryExpression(root) && isFallback(root.operatorToken.kind)) return readFromOutside(root.left, declarationOf) ?? readFromOutside(root.right, declarationOf);
  while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root)) {
    const source = sourceNamed(root.expression.getText());
    if (source) return source;
    root = unwrap(root.expression);
  }
  const d = ts.isIdentifier(root) ? declarationOf(root) : undefined;
  if (!d || !ts.isVariableDeclaration(d) || !d.initializer) return undefined;
  return readIn(d.initializer, declarationOf);
}

/** What an expression reads from outside the program, through the program's functions it calls (`sinceArg()` returning `process.argv[i + 1]`), two deep. */
function readIn(expression: ts.Node, declarationOf: (n: ts.Node) => ts.Declaration | undefined, depth = 0): string | undefined {
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n) || ts.isPropertyAccessExpression(n)) found = sourceNamed((ts.isCallExpression(n) ? n.expression : n).getText());
    const fn = !found && depth < 2 && ts.isCallExpression(n) ? functionOf(n.expression, declarationOf) : undefined;
    if (fn && fn !== expression) found = fn.body && readIn(fn.body, declarationOf, depth + 1);
    if (!found && !ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  visit(expression);
  return found;
}

function sourceNamed(text: string): string | undefined {
  return OUTSIDE.find(([pattern]) => pattern.test(text))?.[1];
}
