/**
 * The self-check checks, of a changed file, the statements the migration edited and those whose
 * types can follow from them; the rest of the file reads nothing the migration touched. Where that
 * reasoning does not hold, it checks the whole file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { lineChanges } from '../../src/codemod/line-changes.js';
import { importResolver } from '../../src/codemod/program.js';
import { statementScopes } from '../../src/codemod/self-check-scope.js';

const OPTIONS: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, types: [] };

const TYPES = 'export interface Group { uid: string }\n';

/** The statements checked of `a.ts` migrated from `before` to `after` (as `[first words]`), or 'whole'. */
function checked(before: string, after: string, options: ts.CompilerOptions = OPTIONS, others: Record<string, string> = {}): string[] | 'whole' {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-scope-'));
  const files = { 'types.ts': TYPES, 'package.json': '{ "type": "module" }', ...others, 'a.ts': after };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const path = join(dir, 'a.ts');
  const program = ts.createProgram([path], options);
  const sf = program.getSourceFile(path)!;
  const raws = new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text]));
  const edit = { start: 0, end: before.length, text: after };
  const original = ts.createSourceFile(path, before, ts.ScriptTarget.ES2022, true);
  const scopes = statementScopes(program, [{ after: sf, before: original, changes: lineChanges(before, after, [edit]) }], importResolver(raws, options));
  const statements = scopes.get(sf);
  return statements ? statements.map((s) => s.getText(sf).split(/[ (=:{]/).slice(0, 3).join(' ')) : 'whole';
}

const BEFORE = [
  "import { readFileSync } from 'node:fs';",
  "import type { Group } from './types.js';",
  "const BASE = 'https://platform.example.com';",
  'export interface Order { id: string }',
  'export async function list() { return fetch(`${BASE}/iam/v1/groups`); }',
  'export function total(o: Order) { return o.id.length; }',
  'export function idOf(g: Group) { return g.uid; }',
  'const client = { list };',
  'export function use() { return client.list(); }',
  "export function text() { return readFileSync('a', 'utf8'); }",
  '',
].join('\n');
const AFTER = BEFORE.replace('/iam/v1/', '/iam/v2beta1/');

describe('the statements the self-check checks in a changed file', () => {
  it('are the edited ones (a note above a statement is part of it), those that read what they declare, and those that read the project`s modules', () => {
    expect(checked(BEFORE, AFTER)).toEqual([
      'import type ',
      'export async function',
      'export function idOf',
      'const client ',
      'export function use',
    ]);
    const noted = BEFORE.replace('export function text', '// migrate-v2-todo: look here\nexport function text');
    expect(checked(BEFORE, noted)).toEqual([
      'import type ',
      'export function idOf',
      'export function text',
    ]);
    expect(checked(BEFORE, AFTER.replace('`${BASE}', '`${BASE} '))).toEqual([
      'import type ',
      'export async function',
      'export function idOf',
      'const client ',
      'export function use',
    ]);
  });

  it('include a statement that reads a name an edit removed', () => {
    const before = BEFORE.replace('const client = { list };', 'const client = { list };\nfunction helper() { return 1; }').replace('client.list(); }', 'client.list() + helper(); }');
    const after = before.replace('function helper() { return 1; }\n', '');
    expect(checked(before, after)).toContain('export function use');
    expect(checked(before, after)).not.toContain('export function total');
  });

  it('follow a chain of declarations to its end', () => {
    const before = BEFORE.replace('export function text()', 'const viaUse = () => use();\nexport const viaViaUse = () => viaUse();\nexport function text()');
    const after = before.replace('/iam/v1/', '/iam/v2beta1/');
    expect(checked(before, after)).toEqual(expect.arrayContaining(['const viaUse ', 'export const viaViaUse']));
  });

  it('include a statement that spells a name it reads with escapes', () => {
    const before = BEFORE.replace('export function text()', 'export const escaped = () => l\\u0069st();\nexport function text()');
    expect(checked(before, before.replace('/iam/v1/', '/iam/v2beta1/'))).toContain('export const escaped');
  });

  it('are the whole file where a statement check cannot give every error', () => {
    expect(checked(BEFORE, AFTER, { ...OPTIONS, noUnusedLocals: true }), 'unused names').toBe('whole');
    const expectError = BEFORE.replace('export function total', '// @ts-expect-error\nexport function total');
    expect(checked(expectError, expectError.replace('/iam/v1/', '/iam/v2beta1/')), '@ts-expect-error').toBe('whole');
    const global = `${BEFORE}declare global { interface Window { platform: string } }\n`;
    expect(checked(global, global.replace('/iam/v1/', '/iam/v2beta1/')), 'declare global').toBe('whole');
    expect(checked(BEFORE, AFTER.replace('export function total', 'export function totalOf')), 'exports changed').toBe('whole');
  });
});
