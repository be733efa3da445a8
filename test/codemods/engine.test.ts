import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { expect, it } from 'vitest';
import { TRANSFORMS } from '../../codemods/index.js';
import { unifiedDiff } from '../../src/codemod/diff.js';
import { runCodemod, syntaxErrors } from '../../src/codemod/engine.js';
import { applyEdits } from '../../src/codemod/source-text.js';
import type { Transform } from '../../src/codemod/transform.js';

const V1 = "export const groups = fetch('https://platform.example.com/iam/v1/groups');\n";

it('reports a file whose migrated text would not parse, and leaves it as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-engine-'));
  const file = join(dir, 'client.ts');
  writeFileSync(file, V1);
  const breaks: Transform = { name: 'breaks', description: 'writes a syntax error', apply: (ctx) => ctx.edit(0, 0, 'export const = ;\n') };
  const [outcome] = runCodemod([file], [breaks], dir).files;
  expect(outcome!.error).toMatch(/does not parse/);
  expect(outcome!.after).toBe(V1);
  expect(outcome!.changed).toBe(false);
});

it('reports a transform that edits text another already edited, rather than half-migrating', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-engine-'));
  const file = join(dir, 'client.ts');
  writeFileSync(file, V1);
  const one: Transform = { name: 'one', description: '', apply: (ctx) => ctx.edit(7, 12, 'let  ') };
  const two: Transform = { name: 'two', description: '', apply: (ctx) => ctx.edit(10, 14, 'x') };
  const [outcome] = runCodemod([file], [one, two], dir).files;
  expect(outcome!.error).toMatch(/two: an edit at 10-14 overlaps one at 7-12/);
  expect(outcome!.after).toBe(V1);
});

it('applies edits in one pass: insertions before a replacement at the same place', () => {
  expect(applyEdits('abcdef', [{ start: 2, end: 4, text: 'XY' }, { start: 2, end: 2, text: '>' }, { start: 6, end: 6, text: '!' }])).toBe('ab>XYef!');
  expect(syntaxErrors('a.ts', 'const x = ;')).toHaveLength(1);
  expect(syntaxErrors('a.tsx', 'const x = <div>{1}</div>;')).toEqual([]);
});

it('leaves input that does not parse as it was, and reports it with its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-engine-'));
  const file = join(dir, 'broken.ts');
  const text = "export async function ids() {\n  const body = await (await fetch('https://platform.example.com/iam/v1/groups')).json();\n  return body.items.map((g) => g.id;\n}\n";
  writeFileSync(file, text);
  const [outcome] = runCodemod([file], TRANSFORMS, dir).files;
  expect(outcome!.error).toMatch(/^does not parse \(line 3: '\)' expected\.\)/);
  expect(outcome!.after).toBe(text);
  expect(outcome!.changed).toBe(false);
});

it('diffs a large file from its edits: applied to the input, the patch gives the output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-engine-'));
  const file = join(dir, 'client.ts');
  const block = (i: number) => `export async function list${i}() {\n  const body = await (await fetch('https://platform.example.com/iam/v1/groups')).json();\n  return body.items.map((g: { id: string }) => g.id);\n}\n\n`;
  const text = Array.from({ length: 400 }, (_, i) => block(i)).join('');
  writeFileSync(file, text);
  const [outcome] = runCodemod([file], TRANSFORMS, dir).files;
  expect(outcome!.changed).toBe(true);
  expect(applyPatch(text, unifiedDiff(outcome!))).toBe(outcome!.after);
});
