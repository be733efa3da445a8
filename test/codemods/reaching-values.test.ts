/**
 * Which value of a reassigned variable a read sees (reaching-values.ts): the last one before it in
 * straight-line code, and none where a branch, a short-circuit, a loop, a catch or a closure could
 * bring another.
 */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { reachingSite } from '../../src/codemod/reaching-values.js';

/** The value each `read(res)` of a snippet sees, by the text assigned, or 'ambiguous'. */
function seen(source: string): string[] {
  const sf = ts.createSourceFile('case.ts', source, ts.ScriptTarget.Latest, true);
  const sites: { at: ts.Node; value: string }[] = [];
  const reads: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && n.initializer) sites.push({ at: n, value: n.initializer.getText() });
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) sites.push({ at: n, value: n.right.getText() });
    if (ts.isCallExpression(n) && n.expression.getText() === 'read') reads.push(n.arguments[0]!);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return reads.map((r) => {
    const site = reachingSite(sites, r);
    return site === 'ambiguous' ? site : site.value;
  });
}

describe('reachingSite', () => {
  it.each([
    ['let res = A; read(res); res = B; read(res);', ['A', 'B']],
    ['let res = A; if (c) { res = B; read(res); } read(res);', ['B', 'ambiguous']],
    ['let res = A; if (c) res = B; read(res);', ['ambiguous']],
    ['let res; if (c) res = A; else res = B; read(res);', ['ambiguous']],
    ['let res = A; c && (res = B); read(res);', ['ambiguous']],
    ['let res = A; res ??= B; read(res);', ['ambiguous']],
    ['let res = A; while (c) res = B; read(res);', ['ambiguous']],
    ['let res = A; for (const x of xs) { read(res); res = B; }', ['ambiguous']],
    ['for (let res = A; c; res = B) { read(res); }', ['ambiguous']],
    ['let res = A; try { res = B; } catch {} read(res);', ['ambiguous']],
    ['let res = A; switch (k) { case 1: res = B; } read(res);', ['ambiguous']],
    ['function f() { let res = A; const g = () => read(res); res = B; }', ['ambiguous']],
  ])('%s', (source, expected) => {
    expect(seen(source)).toEqual(expected);
  });
});
