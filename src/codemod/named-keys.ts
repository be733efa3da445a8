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
