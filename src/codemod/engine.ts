/**
 * Runs the transforms over files. A text prefilter skips files that hold no v1 path; the rest are
 * parsed into one program without lib or module resolution (the binder resolves names, nothing is
 * type-checked), each file's edits are collected and applied in one pass, and every result is
 * parsed again: a result that does not parse is an error, never written.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { Project, ts } from 'ts-morph';
import { hasV1Path } from '../contract/index.js';
import { UsageError } from '../errors.js';
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

interface FileResult extends Pick<FileOutcome, 'after' | 'review' | 'error'> {
  /** Files declaring the resource types the checker met here. */
  typeFiles: ReadonlySet<ts.SourceFile>;
}

function migrateFile(path: string, sf: ts.SourceFile, checker: ts.TypeChecker, transforms: readonly Transform[], raw: string): FileResult {
  const source = readSourceText(raw);
  const text = new StaticText(constantsOf(sf));
  const scan = findV1Calls(sf, text);
  const flow = new DataFlow(sf, checker, scan.calls);
  const ctx = new TransformContext(sf, source, scan.calls, scan.unplaced, flow, text);
  for (const transform of transforms) {
    ctx.transform = transform.name;
    transform.apply(ctx);
  }
  const output = applyEdits(source.text, ctx.edits);
  const errors = syntaxErrors(path, output);
  if (errors.length > 0 && syntaxErrors(path, source.text).length === 0) {
    return { after: raw, review: [], error: `the migrated text does not parse (${errors[0]}); the file is left as it was`, typeFiles: flow.typeDeclarationFiles };
  }
  const fresh = ctx.todos.map((t) => ({ line: lineOf(output, shift(t.position, ctx.edits)), why: t.why, transform: t.transform }));
  return { after: restore(source, output), review: pendingReview(output, fresh), typeFiles: flow.typeDeclarationFiles };
}

/** Called as files are done: how many of how many. */
export type Progress = (done: number, total: number) => void;

export interface CodemodOptions {
  /** A tsconfig whose options (lib, paths, module resolution) the program takes; types then cross files. */
  tsconfig?: string;
  progress?: Progress;
}

const IMPORT_SPECIFIER = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function withoutExtension(path: string): string {
  return path.replace(/\.(d\.)?[cm]?[jt]sx?$/, '').replace(/\/index$/, '');
}

/** Files of the selection that import one of `marked` by a relative path: they may read what it returns. */
function importers(raws: ReadonlyMap<string, string>, marked: ReadonlySet<string>): string[] {
  const targets = new Set([...marked].map(withoutExtension));
  const out: string[] = [];
  for (const [path, raw] of raws) {
    if (marked.has(path)) continue;
    for (const m of raw.matchAll(IMPORT_SPECIFIER)) {
      if (targets.has(withoutExtension(resolve(dirname(path), m[1]!)))) {
        out.push(path);
        break;
      }
    }
  }
  return out;
}

/**
 * The program the files are read through. With a tsconfig: a ts-morph Project with its options,
 * which brings the lib files and the files imported, so types cross files. Without: a bare program
 * of the marked files, no lib and no resolution, where the binder alone resolves names.
 */
function createProgram(roots: readonly string[], raws: ReadonlyMap<string, string>, tsconfig: string | undefined): ts.Program {
  if (tsconfig) {
    let project: Project;
    try {
      project = new Project({ tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true, compilerOptions: { noEmit: true, allowJs: true, checkJs: false } });
    } catch (error) {
      throw new UsageError(`--tsconfig ${tsconfig}: ${(error as Error).message.split('\n')[0]}`);
    }
    for (const path of roots) project.addSourceFileAtPath(path);
    project.resolveSourceFileDependencies();
    return project.getProgram().compilerObject;
  }
  const host = ts.createCompilerHost(COMPILER_OPTIONS, true);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const raw = raws.get(name);
    return raw === undefined ? readFile(name) : readSourceText(raw).text;
  };
  return ts.createProgram({ rootNames: [...roots], options: COMPILER_OPTIONS, host });
}

export function runCodemod(files: readonly string[], transforms: readonly Transform[], cwd: string, options: CodemodOptions = {}): CodemodRun {
  const started = performance.now();
  const relativeOf = (path: string) => relative(cwd, path).split(sep).join('/');
  const outcomes = new Map<string, FileOutcome>();
  const raws = new Map<string, string>();
  for (const [i, path] of files.entries()) {
    if (i % 500 === 0) options.progress?.(i, files.length);
    try {
      raws.set(path, readFileSync(path, 'utf8'));
    } catch (error) {
      outcomes.set(path, { path, relative: relativeOf(path), before: '', after: '', changed: false, review: [], error: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  const marked = new Set([...raws].filter(([, raw]) => hasV1Path(raw)).map(([path]) => path));
  if (options.tsconfig) for (const path of importers(raws, marked)) marked.add(path);
  if (marked.size > 0) {
    const program = createProgram([...marked], raws, options.tsconfig);
    const checker = program.getTypeChecker();
    const queue = [...marked];
    let done = files.length - marked.size;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const path = next;
      options.progress?.(done++, files.length);
      const raw = raws.get(path)!;
      const sf = program.getSourceFile(path);
      let result: FileResult;
      try {
        result = sf ? migrateFile(path, sf, checker, transforms, raw) : { after: raw, review: [], error: 'could not be parsed', typeFiles: new Set() };
      } catch (error) {
        result = { after: raw, review: [], error: `migrate-v2 could not migrate this file: ${(error as Error).message}`, typeFiles: new Set() };
      }
      const { typeFiles, ...outcome } = result;
      outcomes.set(path, { path, relative: relativeOf(path), before: raw, changed: outcome.after !== raw && !outcome.error, ...outcome });
      // A resource interface declared in a file of the selection is renamed with its uses.
      for (const declared of typeFiles) {
        const file = [...raws.keys()].find((p) => resolve(p) === resolve(declared.fileName));
        if (file && !outcomes.has(file) && !queue.includes(file)) queue.push(file);
      }
    }
  }
  for (const [path, raw] of raws) {
    if (!outcomes.has(path)) outcomes.set(path, { path, relative: relativeOf(path), before: raw, after: raw, changed: false, review: raw.includes(TODO_MARK) ? pendingReview(raw) : [] });
  }
  return { files: [...outcomes.values()].sort((a, b) => (a.relative < b.relative ? -1 : 1)), ms: performance.now() - started };
}
