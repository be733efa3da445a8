/**
 * Where the checker's type of a variable can differ from its declared type. TypeScript narrows a
 * reference only through what the code says about it: a condition (if, while, for, `?:`, `&&`,
 * `||`, `??`, switch), an equality, `typeof`, `instanceof` or `in`, a call that takes it (a type
 * predicate or an assertion function, also when the call's result is kept in a variable and tested
 * later), or an assignment. A name that appears in none of these anywhere in its file holds its
 * declared type at every reference (provided that type is no union, no `any` and no evolving array:
 * see `holdsDeclaredType`), so one question per declaration answers them all. Asking the checker
 * at each reference walks the flow graph back each time: a fifth of a dry run's checker time.
 */
import { ts } from 'ts-morph';
import { nodesOf } from './file-nodes.js';
import { unwrap } from './static-text.js';
import { forEachNode, isAssignment } from './syntax.js';

const CONDITIONS = [
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.SwitchStatement,
  ts.SyntaxKind.CaseClause,
] as const;

/** Operators whose operands TypeScript may narrow, wherever the expression stands (an aliased condition narrows too). */
const NARROWING_OPERATORS = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.InKeyword,
]);

function conditionOf(node: ts.Node): ts.Node | undefined {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isSwitchStatement(node) || ts.isCaseClause(node)) return node.expression;
  if (ts.isForStatement(node)) return node.condition;
  if (ts.isConditionalExpression(node)) return node.condition;
  return undefined;
}

/** Every identifier under a node: a name compared, tested or assigned there may be narrowed. */
function addNames(node: ts.Node, names: Set<string>): void {
  forEachNode(node, (n) => {
    if (ts.isIdentifier(n)) names.add(n.text);
  });
}

const narrowed = new WeakMap<ts.SourceFile, ReadonlySet<string>>();

/** Names of a file that something may narrow (a superset: any identifier in such a place, whatever it refers to). */
export function namesMaybeNarrowed(sf: ts.SourceFile): ReadonlySet<string> {
  let names = narrowed.get(sf);
  if (names) return names;
  const found = new Set<string>();
  const nodes = nodesOf(sf);
  for (const kind of CONDITIONS) {
    for (const node of nodes.of(kind)) {
      const condition = conditionOf(node);
      if (condition) addNames(condition, found);
    }
  }
  for (const node of nodes.of<ts.BinaryExpression>(ts.SyntaxKind.BinaryExpression)) {
    const operator = node.operatorToken.kind;
    if (NARROWING_OPERATORS.has(operator) || isAssignment(operator)) addNames(node, found);
  }
  for (const node of nodes.of<ts.TypeOfExpression>(ts.SyntaxKind.TypeOfExpression)) addNames(node, found);
  for (const node of nodes.of<ts.PrefixUnaryExpression>(ts.SyntaxKind.PrefixUnaryExpression)) addNames(node, found);
  for (const node of nodes.of<ts.PostfixUnaryExpression>(ts.SyntaxKind.PostfixUnaryExpression)) addNames(node, found);
  for (const kind of [ts.SyntaxKind.CallExpression, ts.SyntaxKind.NewExpression] as const) {
    for (const node of nodes.of<ts.CallExpression | ts.NewExpression>(kind)) {
      for (const argument of node.arguments ?? []) {
        // A predicate narrows the reference it is given, not the object a member of it is read from.
        const reference = unwrap(argument);
        if (ts.isIdentifier(reference)) found.add(reference.text);
      }
    }
  }
  narrowed.set(sf, found);
  return found;
}

/** Whether a declared type stays what every reference reads when nothing narrows the name: not a union, not `any`, not an array that evolves as it is filled (`let list = []`). */
export function holdsDeclaredType(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Union | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter | ts.TypeFlags.Never)) return false;
  if (checker.isArrayType(type)) {
    const element = checker.getTypeArguments(type as ts.TypeReference)[0];
    if (!element || element.flags & (ts.TypeFlags.Any | ts.TypeFlags.Never)) return false;
  }
  return true;
}

const PRIMITIVE = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void;

/**
 * Whether a declared type is made of primitives only (`number`, `string | undefined`, an enum):
 * whatever narrows its name (a condition, a predicate, an assignment) reads a part of it, still no
 * object, so never a resource, an envelope or an array. Its references need no question each.
 */
export function onlyPrimitives(type: ts.Type): boolean {
  return type.isUnion() ? type.types.every((t) => (t.flags & PRIMITIVE) !== 0) : (type.flags & PRIMITIVE) !== 0;
}
