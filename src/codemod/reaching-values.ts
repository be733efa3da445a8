/**
 * A variable given values at several places (`let res = await fetch(groupsUrl)`, later
 * `res = await fetch(reposUrl)`): which place's value a read of it sees. Read in straight-line code
 * only: the last place before the read whose statement stands in a block around the read. Where a
 * branch, a loop or a function between them could bring another place's value, the read is
 * `ambiguous`, and no one place is taken for it.
 */
import { ts } from 'ts-morph';
import { enclosingScope } from './syntax.js';

export interface ValueSite {
  /** The variable's declaration (its initialiser) or an assignment to it. */
  at: ts.Node;
}

const LOOPS = new Set([ts.SyntaxKind.ForStatement, ts.SyntaxKind.ForInStatement, ts.SyntaxKind.ForOfStatement, ts.SyntaxKind.WhileStatement, ts.SyntaxKind.DoStatement]);

/** A node between a value's site and the read that may pass it by: a branch, a short-circuit, a loop, a catch. */
function mayPassBy(node: ts.Node): boolean {
  if (LOOPS.has(node.kind) || ts.isIfStatement(node) || ts.isConditionalExpression(node) || ts.isCaseClause(node) || ts.isDefaultClause(node) || ts.isCatchClause(node) || ts.isTryStatement(node)) return true;
  return ts.isBinaryExpression(node) && CONDITIONAL_OPERATORS.has(node.operatorToken.kind);
}

/** `a && b`, `a || b`, `a ?? b`, and the assignments that run only so (`res ??= B`). */
const CONDITIONAL_OPERATORS = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** A value that holds no record, set before the real one comes: `[]`, `{}`, `null`, `undefined`, a literal. */
export function placeholder(value: ts.Expression): boolean {
  if (ts.isArrayLiteralExpression(value)) return value.elements.length === 0;
  if (ts.isObjectLiteralExpression(value)) return value.properties.length === 0;
  if (ts.isIdentifier(value)) return value.text === 'undefined';
  return ts.isLiteralExpression(value) || value.kind === ts.SyntaxKind.NullKeyword || value.kind === ts.SyntaxKind.TrueKeyword || value.kind === ts.SyntaxKind.FalseKeyword || ts.isVoidExpression(value);
}

/** The statement a node stands in, as a member of a list of statements. */
function statementOf(node: ts.Node): ts.Node {
  let n = node;
  while (n.parent && !ts.isBlock(n.parent) && !ts.isSourceFile(n.parent) && !ts.isCaseClause(n.parent) && !ts.isDefaultClause(n.parent) && !ts.isModuleBlock(n.parent)) n = n.parent;
  return n;
}

function within(node: ts.Node, outer: ts.Node): boolean {
  return node.pos >= outer.pos && node.end <= outer.end;
}

/** The site whose value a read sees; 'ambiguous' when more than one could be there. */
export function reachingSite<S extends ValueSite>(sites: readonly S[], read: ts.Node): S | 'ambiguous' {
  const fn = enclosingScope(read);
  // A function reading a variable another sets runs when it is called: any value may be there.
  if (sites.some((s) => enclosingScope(s.at) !== fn)) return 'ambiguous';
  const before = sites.filter((s) => s.at.end <= read.pos);
  const last = before.reduce<S | undefined>((a, s) => (!a || s.at.pos > a.at.pos ? s : a), undefined);
  const block = last && statementOf(last.at).parent;
  if (!last || !block || !within(read, block)) return 'ambiguous';
  // `if (c) res = B;`, `c && (res = B)`: a site under a branch in the read's own block may not run.
  for (let n: ts.Node = last.at; n !== block; n = n.parent) if (mayPassBy(n)) return 'ambiguous';
  // A loop around the read that sets the variable after it brings that value round to it again.
  for (let n = read.parent; n && n !== fn; n = n.parent) {
    if (LOOPS.has(n.kind) && sites.some((s) => s !== last && within(s.at, n) && s.at.pos >= read.end)) return 'ambiguous';
  }
  return last;
}
