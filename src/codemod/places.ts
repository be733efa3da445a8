/** Where a node stands, told in words a note can carry from run to run. */
import { dirname, relative } from 'node:path';
import { ts } from 'ts-morph';
import { isTestCall } from './test-doubles.js';
import { exportsTarget } from './module-shape.js';

/**
 * Where a node stands, for notes: the test or function it is in, and its file when that is another
 * (`in test "reads a group", client.test.ts`). Never a line: notes move lines, and a second run
 * must write the same note.
 */
export function placeOf(node: ts.Node, from: ts.SourceFile): string {
  const sf = node.getSourceFile();
  const file = sf === from ? '' : relative(dirname(from.fileName), sf.fileName) || sf.fileName.split('/').pop()!;
  const within = enclosingName(node) ?? handedCallback(node);
  return [within, file].filter(Boolean).join(', ') || 'in top-level code';
}

/** `in a callback handed to program.command().action()`: top-level code's callbacks, told by the call they are handed to. */
function handedCallback(node: ts.Node): string | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isCallExpression(n.parent) && n.parent.arguments.includes(n)) return `in a callback handed to ${calleeOf(n.parent)}()`;
  }
  return undefined;
}

/** `in f()`, `in test "x"`, `in top-level code`, `in f(), b.ts`: where a node stands, as a note after a name says it. */
export function placeIn(node: ts.Node, from: ts.SourceFile): string {
  return placeOf(node, from).replace(/^(?!in )/, 'in ');
}

/**
 * The function a call calls, as a note names it: names and member reads, calls shown without their
 * arguments (`Promise.resolve().then`, `groups.filter().map`). Never the arguments' text: the run may
 * rewrite what they read, and a second run must write the same note.
 */
export function calleeOf(call: ts.CallExpression | ts.NewExpression): string {
  const name = (e: ts.Expression): string => {
    const n = ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAwaitExpression(e) ? e.expression : e;
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
    if (n.kind === ts.SyntaxKind.ThisKeyword) return 'this';
    if (n.kind === ts.SyntaxKind.SuperKeyword) return 'super';
    if (ts.isPropertyAccessExpression(n)) return `${name(n.expression)}.${n.name.text}`;
    if (ts.isCallExpression(n)) return `${name(n.expression)}()`;
    if (ts.isElementAccessExpression(n)) return `${name(n.expression)}[…]`;
    return 'a function';
  };
  return name(call.expression);
}

/**
 * The name a function is known by: its own, the variable or member it is the value of, or the
 * CommonJS export it is assigned to (`exports.list = async function (path) {...}`).
 */
export function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if (fn.name) return fn.name.getText();
  const holder = fn.parent;
  if (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) return holder.name.getText();
  const exported = ts.isBinaryExpression(holder) && holder.right === fn ? exportsTarget(holder.left) : undefined;
  return exported === 'module.exports' ? undefined : exported;
}

/** `test "title"` of an it/test callback, or `name()` of the function a node stands in. */
function enclosingName(node: ts.Node): string | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isCallExpression(n.parent) && isTestCall(n.parent)) {
      const title = n.parent.arguments[0];
      return title && ts.isStringLiteralLike(title) ? `in test "${title.text}"` : 'in a test';
    }
    // `list()` of GroupsApi and of IdentitiesApi are told apart by their class.
    if (ts.isMethodDeclaration(n) && ts.isClassLike(n.parent) && n.parent.name) return `in ${n.parent.name.getText()}.${n.name.getText()}()`;
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name) return `in ${n.name.getText()}()`;
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent)) return `in ${n.parent.name.getText()}()`;
    if (ts.isConstructorDeclaration(n)) return ts.isClassLike(n.parent) && n.parent.name ? `in the constructor of ${n.parent.name.getText()}` : 'in a constructor';
  }
  return undefined;
}
