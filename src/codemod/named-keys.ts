/**
 * A record's field named by text instead of read by name: `g['id']`, `'createdAt' in g`,
 * `Object.hasOwn(g, 'id')`, `g.hasOwnProperty('id')`, `g[SORT_KEY]`. Written as a literal right there, the name is the
 * record's field and the field renames rewrite it; held elsewhere (a constant, a parameter), it may
 * name other things too, and the call the record comes from stays on v1 (analysis.ts).
 */
import { ts } from 'ts-morph';
import { unwrap } from './static-text.js';

export interface NamedKey {
  record: ts.Expression;
  key: ts.Expression;
}

const HAS_OWN = /^(?:Object\.hasOwn|Object\.prototype\.hasOwnProperty\.call|\{\}\.hasOwnProperty\.call)$/;

/** The record and the key of a read or test of a field by name. */
export function namedKeyOf(node: ts.Node): NamedKey | undefined {
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword) return { record: node.right, key: node.left as ts.Expression };
  if (ts.isElementAccessExpression(node)) return { record: node.expression, key: node.argumentExpression };
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const [first, second] = node.arguments;
  const callee = node.expression;
  if (callee.name.text === 'hasOwnProperty' && first && !second) return { record: callee.expression, key: first };
  // Read the callee's text only for the two names these calls end with: this is asked of every call.
  if (first && second && (callee.name.text === 'hasOwn' || callee.name.text === 'call') && HAS_OWN.test(callee.getText().replace(/\s+/g, ''))) return { record: first, key: second };
  return undefined;
}

/** The key when it is a string literal written in place: the one form the field renames rewrite. */
export function literalKey(named: NamedKey): ts.StringLiteralLike | undefined {
  const key = unwrap(named.key);
  return ts.isStringLiteralLike(key) ? key : undefined;
}

const KEY_READERS = new Set(['keys', 'values', 'entries', 'getOwnPropertyNames']);

/** The value whose keys are all read as they come: `Object.keys(x)` (values, entries), `for (const k in x)`. */
export function keysReadWhole(node: ts.Node): ts.Expression | undefined {
  if (ts.isForInStatement(node)) return node.expression;
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || !KEY_READERS.has(node.expression.name.text)) return undefined;
  return node.expression.expression.getText() === 'Object' ? node.arguments[0] : undefined;
}

/**
 * The first place within `fn` that reads the keys of `parameter` as they come: all of them
 * (keysReadWhole), or one held apart whose text is not known (`k in x`, `x[k]`).
 */
export function keysReadIn(fn: ts.Node, parameter: ts.ParameterDeclaration, declarationOf: (n: ts.Node) => ts.Declaration | undefined, known: (key: ts.Expression) => boolean): ts.Node | undefined {
  const isParameter = (e: ts.Expression | undefined) => e !== undefined && ts.isIdentifier(unwrap(e)) && declarationOf(unwrap(e)) === parameter;
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    const named = namedKeyOf(node);
    if (isParameter(keysReadWhole(node)) || (named && isParameter(named.record) && !literalKey(named) && !ts.isNumericLiteral(unwrap(named.key)) && !known(named.key))) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn, visit);
  return found;
}

const SAME_KEYS = new Set(['filter', 'slice', 'sort', 'reverse', 'toSorted', 'toReversed']);

/**
 * What a key runs over: the keys of a value (`for (const k in x)`), or a list: `for (const k of
 * list)`, `list.map((k) => ...)`, `list.reduce((acc, k) => ...)`, through the const that holds it and
 * `.sort()`, `.filter()` of it.
 */
function keySource(key: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): { keysOf: ts.Expression } | { list: ts.Expression } | undefined {
  const name = unwrap(key);
  const d = ts.isIdentifier(name) ? declarationOf(name) : undefined;
  if (!d) return undefined;
  const loop = ts.isVariableDeclaration(d) && ts.isVariableDeclarationList(d.parent) ? d.parent.parent : undefined;
  if (loop && ts.isForInStatement(loop)) return { keysOf: loop.expression };
  let list = loop && ts.isForOfStatement(loop) ? loop.expression : undefined;
  const fn = ts.isParameter(d) ? d.parent : undefined;
  const call = fn?.parent;
  if (fn && call && ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.arguments[0] === fn) {
    const method = call.expression.name.text;
    if (fn.parameters[method === 'reduce' ? 1 : 0] === d) list = call.expression.expression;
  }
  for (let step = 0; list && step < 4; step++) {
    const l: ts.Expression = unwrap(list);
    const held = ts.isIdentifier(l) ? declarationOf(l) : undefined;
    if (held && ts.isVariableDeclaration(held) && held.initializer) list = held.initializer;
    else if (ts.isCallExpression(l) && ts.isPropertyAccessExpression(l.expression) && SAME_KEYS.has(l.expression.name.text)) list = l.expression.expression;
    else list = l;
    if (list === l) break;
  }
  return list ? { list: unwrap(list) } : undefined;
}

/** The value whose own keys a key runs over, when it is one of them (`for (const k in r)`, `Object.keys(r).sort().map((k) => ...)`): a record read by its own keys reads only fields it has. */
export function ownKeysOf(key: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Expression | undefined {
  const source = keySource(key, declarationOf);
  return !source ? undefined : 'keysOf' in source ? source.keysOf : keysReadWhole(source.list);
}

/** The texts a key runs over when they are written out as a list (`const FIELDS = ['id', 'name']`, `FIELDS.map((f) => g[f])`). */
export function listedKeys(key: ts.Expression, declarationOf: (n: ts.Node) => ts.Declaration | undefined): string[] | undefined {
  const source = keySource(key, declarationOf);
  const list = source && 'list' in source ? source.list : undefined;
  if (!list || !ts.isArrayLiteralExpression(list) || !list.elements.every((e) => ts.isStringLiteralLike(e))) return undefined;
  return list.elements.map((e) => (e as ts.StringLiteralLike).text);
}
