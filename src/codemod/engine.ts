/**
 * Runs the transforms over files. A text prefilter skips files that hold no v1 path; the rest are
 * parsed into one program without lib or module resolution (the binder resolves names, nothing is
 * type-checked), each file's edits are collected and applied in one pass, and every result is
 * parsed again: a result that does not parse is an error, never written.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { ts } from 'ts-morph';
import { hasV1Path } from '../contract/index.js';
import { DataFlow } from './data-flow.js';
import { applyEdits, lineOf, readSourceText, restore, TODO_MARK, type TextEdit } from './source-text.js';
import { TransformContext, type Transform } from './transform.js';
import { constantsOf, findV1Calls, StaticText } from './v1-calls.js';

export interface ReviewItem {
  line: number;
  why: string;
  transform: string;
}

export interface FileOutcome {
  path: string;
  /** Relative to the run's directory, with forward slashes. */
  relative: string;
  before: string;
  after: string;
  changed: boolean;
  review: ReviewItem[];
  error?: string;
}

export interface CodemodRun {
  files: FileOutcome[];
  ms: number;
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  noLib: true,
  noResolve: true,
  types: [],
  noEmit: true,
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.Latest,
};

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Syntax errors of a text, by the same parser; empty when it parses. */
export function syntaxErrors(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(path));
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => `${lineOf(text, d.start ?? 0)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

/**
 * Every manual-review note in a file's text, new or left by an earlier run: the line is the one
 * the note stands above. A note stays pending until somebody resolves it and deletes it.
 */
export function pendingReview(text: string, fresh: readonly ReviewItem[] = []): ReviewItem[] {
  const items: ReviewItem[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const at = line.indexOf(`// ${TODO_MARK}`);
    if (at < 0 || line.slice(0, at).trim() !== '') return;
    const why = line.slice(at + TODO_MARK.length + 3).replace(/\r$/, '').trim();
    let below = i + 1;
    while (below < lines.length && lines[below]!.includes(`// ${TODO_MARK}`)) below += 1;
    const known = fresh.find((f) => f.why === why && f.line === below + 1);
    items.push({ line: below + 1, why, transform: known?.transform ?? 'earlier run' });
  });
  return items;
}

/** Where a position of the old text lands in the new one. */
function shift(position: number, edits: readonly TextEdit[]): number {
  let delta = 0;
  for (const e of edits) if (e.end <= position) delta += e.text.length - (e.end - e.start);
  return position + delta;
}

function migrateFile(path: string, sf: ts.SourceFile, checker: ts.TypeChecker, transforms: readonly Transform[], raw: string): Pick<FileOutcome, 'after' | 'review' | 'error'> {
  const source = readSourceText(raw);
  const text = new StaticText(constantsOf(sf));
  const scan = findV1Calls(sf, text);
  const ctx = new TransformContext(sf, source, scan.calls, scan.unplaced, new DataFlow(sf, checker, scan.calls), text);
  for (const transform of transforms) {
    ctx.transform = transform.name;
    transform.apply(ctx);
  }
  const output = applyEdits(source.text, ctx.edits);
  const errors = syntaxErrors(path, output);
  if (errors.length > 0 && syntaxErrors(path, source.text).length === 0) {
    return { after: raw, review: [], error: `the migrated text does not parse (${errors[0]}); the file is left as it was` };
  }
  const fresh = ctx.todos.map((t) => ({ line: lineOf(output, shift(t.position, ctx.edits)), why: t.why, transform: t.transform }));
  return { after: restore(source, output), review: pendingReview(output, fresh) };
}

/** Called as files are done: how many of how many. */
export type Progress = (done: number, total: number) => void;

export function runCodemod(files: readonly string[], transforms: readonly Transform[], cwd: string, progress?: Progress): CodemodRun {
  const started = performance.now();
  const outcomes: FileOutcome[] = [];
  const marked = new Map<string, string>();
  for (const [i, path] of files.entries()) {
    if (i % 500 === 0) progress?.(i, files.length);
    const rel = relative(cwd, path).split(sep).join('/');
    let raw: string;
    try {
      raw = readFileSync(path, 'utf8');
    } catch (error) {
      outcomes.push({ path, relative: rel, before: '', after: '', changed: false, review: [], error: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      continue;
    }
    if (hasV1Path(raw)) marked.set(path, raw);
    else outcomes.push({ path, relative: rel, before: raw, after: raw, changed: false, review: raw.includes(TODO_MARK) ? pendingReview(raw) : [] });
  }
  if (marked.size > 0) {
    const host = ts.createCompilerHost(COMPILER_OPTIONS, true);
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => {
      const raw = marked.get(name);
      return raw === undefined ? readFile(name) : readSourceText(raw).text;
    };
    const program = ts.createProgram({ rootNames: [...marked.keys()], options: COMPILER_OPTIONS, host });
    const checker = program.getTypeChecker();
    let done = files.length - marked.size;
    for (const [path, raw] of marked) {
      progress?.(done++, files.length);
      const rel = relative(cwd, path).split(sep).join('/');
      const sf = program.getSourceFile(path);
      let result: Pick<FileOutcome, 'after' | 'review' | 'error'>;
      try {
        result = sf ? migrateFile(path, sf, checker, transforms, raw) : { after: raw, review: [], error: 'could not be parsed' };
      } catch (error) {
        result = { after: raw, review: [], error: `migrate-v2 could not migrate this file: ${(error as Error).message}` };
      }
      outcomes.push({ path, relative: rel, before: raw, changed: result.after !== raw && !result.error, ...result });
    }
  }
  outcomes.sort((a, b) => (a.relative < b.relative ? -1 : 1));
  return { files: outcomes, ms: performance.now() - started };
}
