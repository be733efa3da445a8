/**
 * The migration's self-check, with a tsconfig: the changed files and the files that import them are
 * type-checked in memory after the migration, and those with errors before it too. An error present
 * after and not before (same file, code and message) is one the migration brought: it becomes a
 * review item on its line. `before` counts the errors, before the migration, of the files that have
 * errors after it. Of a changed file only the statements an error could come to are checked
 * (self-check-scope.ts).
 */
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { ts } from 'ts-morph';
import type { FileOutcome } from './engine.js';
import type { ImportResolver } from './program.js';
import { lineChangesOfTexts } from './line-changes.js';
import { statementScopes } from './self-check-scope.js';
import { applySorted, Lines, pendingReview, readSourceText, restore, sortedEdits, todoEdit } from './source-text.js';

export interface TypeCheckSummary {
  files: number;
  before: number;
  after: number;
  /**
   * Packages the checked files import that the compiler cannot find (not installed): their types
   * read as `any`, so errors before and after the migration are not what the project would show.
   */
  notInstalled: string[];
}

/** Two parts' (or batches') self-checks as one. */
export function addTypeChecks(a: TypeCheckSummary | undefined, b: TypeCheckSummary): TypeCheckSummary {
  if (!a) return b;
  return { files: a.files + b.files, before: a.before + b.before, after: a.after + b.after, notInstalled: [...new Set([...a.notInstalled, ...b.notInstalled])].sort() };
}

/** A program's diagnostics for some statements of a file: TypeScript's parameter for its editors' region checks, which its declarations leave out. */
type SemanticDiagnostics = (sf: ts.SourceFile, token?: ts.CancellationToken, statements?: readonly ts.Statement[]) => readonly ts.Diagnostic[];

/** The errors of files, each whole or in the statements `scopes` gives for it. */
function errorsOf(program: ts.Program, files: readonly string[], scopes?: ReadonlyMap<ts.SourceFile, readonly ts.Statement[]>): ts.Diagnostic[] {
  const semantic = program.getSemanticDiagnostics as SemanticDiagnostics;
  return files.flatMap((f) => {
    const sf = program.getSourceFile(f);
    return sf ? [...program.getSyntacticDiagnostics(sf), ...semantic(sf, undefined, scopes?.get(sf))].filter((d) => d.category === ts.DiagnosticCategory.Error) : [];
  });
}

/**
 * "Cannot find module 'x' or its corresponding type declarations", the same with a hint about
 * moduleResolution, and "Cannot find name 'node:fs'. Do you need to install type definitions for node?".
 */
const MODULE_NOT_FOUND = new Set([2307, 2792, 2580, 2591]);

/** The package a bare import specifier names; a Node built-in's types come from @types/node. */
function packageOf(specifier: string): string {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return '@types/node';
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The specifiers of a file's imports and re-exports that name a package, or a path the tsconfig maps. */
function bareSpecifiers(sf: ts.SourceFile): ts.StringLiteral[] {
  return sf.statements.flatMap((s) => {
    const specifier = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier : undefined;
    return specifier && !specifier.text.startsWith('.') && !specifier.text.startsWith('/') ? [specifier] : [];
  });
}

/**
 * The packages `files` import that the compiler cannot find, as the compiler says (so that a module
 * a declaration file declares counts as found). A specifier a tsconfig path maps to the project's
 * own files is not a package: not finding it is the project's error, not a missing install.
 */
function packagesNotFound(program: ts.Program, files: readonly string[]): string[] {
  const semantic = program.getSemanticDiagnostics as SemanticDiagnostics;
  const mapped = pathAliases(program.getCompilerOptions());
  const names = new Set<string>();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    const specifiers = sf ? bareSpecifiers(sf).filter((s) => !mapped(s.text)) : [];
    if (specifiers.length === 0) continue;
    // The statements are a hint: a file checked whole already answers every diagnostic of it.
    const missing = semantic(sf!, undefined, specifiers.map((s) => s.parent as ts.Statement)).filter((d) => MODULE_NOT_FOUND.has(d.code));
    for (const s of specifiers) if (missing.some((d) => d.start !== undefined && d.start >= s.getStart(sf) && d.start < s.end)) names.add(packageOf(s.text));
  }
  return [...names].sort();
}

/** Whether a specifier matches a tsconfig `paths` pattern that maps into the project rather than into node_modules. */
function pathAliases(options: ts.CompilerOptions): (specifier: string) => boolean {
  const patterns = Object.entries(options.paths ?? {})
    .filter(([, targets]) => !targets.every((t) => t.includes('node_modules/')))
    .map(([pattern]) => {
      const star = pattern.indexOf('*');
      return star < 0 ? (s: string) => s === pattern : (s: string) => s.length >= pattern.length - 1 && s.startsWith(pattern.slice(0, star)) && s.endsWith(pattern.slice(star + 1));
    });
  return (specifier) => patterns.some((matches) => matches(specifier));
}

const keyOf = (d: ts.Diagnostic) => `${d.file?.fileName}\u0000${d.code}\u0000${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;

/** Files of the program that import one of `changed`, as the tsconfig resolves their imports. */
function importersOf(program: ts.Program, changed: ReadonlySet<string>, resolveImport: ImportResolver): string[] {
  const out: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/') || changed.has(resolve(sf.fileName))) continue;
    const specifiers = sf.statements.flatMap((s) => ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? [s.moduleSpecifier.text] : []));
    if (specifiers.some((spec) => changed.has(resolveImport(sf.fileName, spec) ?? ''))) out.push(sf.fileName);
  }
  return out;
}

export interface SelfCheckInput {
  rootNames: readonly string[];
  options: ts.CompilerOptions;
  /** Reads the migrated texts (and hands out the trees the run parsed already). */
  afterHost: ts.CompilerHost;
  /** Reads the texts as they were, for the errors of a file before the migration. */
  beforeHost: ts.CompilerHost;
  /** The files this batch migrated. */
  outcomes: ReadonlyMap<string, FileOutcome>;
  /** How the tsconfig resolves an import to a file of the run. */
  resolveImport: ImportResolver;
  /** The tree of a changed file as it was. */
  originalOf: (path: string) => ts.SourceFile | undefined;
  /** Finds (or makes) the outcome of any file of the run, for an error the migration brings into a file it did not change (an importer). */
  outcomeOf: (path: string) => FileOutcome | undefined;
}

/**
 * Writes the errors the migration brought into the file as notes above their statements, as the
 * transforms write theirs: listed only, they were gone from the next `--check`, which then passed a
 * project that no longer compiled. The lines such a file changed are worked out from its texts.
 */
function writeNotes(outcome: FileOutcome, found: readonly { at: number; why: string }[]): void {
  const source = readSourceText(outcome.after);
  const unique = [...new Map(found.map((f) => [`${f.at}\u0000${f.why}`, f])).values()];
  const written = unique.flatMap((f) => {
    const edit = todoEdit(source, f.at, f.why);
    return edit ? [{ ...f, edit }] : [];
  });
  const text = applySorted(source.text, sortedEdits(written.map((w) => w.edit)));
  const before = new Lines(source.text);
  const insertedAbove = (line: number) => written.filter((w) => before.lineOf(w.edit.start) <= line).length;
  // The items the file had move down by the notes written above them; a new one stands at its statement.
  const fresh = [
    ...outcome.review.map((r) => ({ ...r, line: r.line + insertedAbove(r.line) })),
    ...written.map((w) => ({ line: before.lineOf(w.at) + insertedAbove(before.lineOf(w.at)), why: w.why, transform: 'self-check' })),
  ];
  outcome.after = restore(source, text);
  outcome.review = pendingReview(text, fresh);
  outcome.changed = outcome.after !== outcome.before;
  outcome.changes = lineChangesOfTexts(outcome.before, outcome.after);
}

/** Where the statement holding `position` starts: a note goes above a whole statement, never inside one (a template's lines). */
function statementStart(sf: ts.SourceFile, position: number): number {
  let at = position;
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(sf) || position >= node.end) return;
    if (ts.isSourceFile(node.parent) || ts.isBlock(node.parent) || ts.isModuleBlock(node.parent) || ts.isCaseOrDefaultClause(node.parent)) at = node.getStart(sf);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return at;
}

export function introducedErrors(input: SelfCheckInput): TypeCheckSummary {
  const { outcomes, outcomeOf } = input;
  const changed = new Set([...outcomes].filter(([, o]) => o.changed).map(([p]) => p));
  if (changed.size === 0) return { files: 0, before: 0, after: 0, notInstalled: [] };
  const after = ts.createProgram({ rootNames: input.rootNames, options: input.options, host: input.afterHost });
  const checked = [...new Set([...changed, ...importersOf(after, changed, input.resolveImport).map((f) => resolve(f))])];
  // A file whose changed lines are not known is checked whole.
  const changedFiles = [...changed].flatMap((path) => {
    const sf = after.getSourceFile(path);
    const changes = outcomes.get(path)!.changes;
    return sf && changes ? [{ after: sf, before: input.originalOf(path), changes }] : [];
  });
  const afterErrors = errorsOf(after, checked, statementScopes(after, changedFiles, input.resolveImport));
  // A file with no error after the migration cannot hold one it brought: only the others are
  // checked before it too, which halves the cost on a project that type-checks. The program before
  // is built only then, from the trees the migration's program had.
  const erring = [...new Set(afterErrors.map((d) => resolve(d.file!.fileName)))];
  const before = erring.length === 0 ? [] : errorsOf(ts.createProgram({ rootNames: input.rootNames, options: input.options, host: input.beforeHost, oldProgram: after }), erring);
  const seen = new Map<string, number>();
  for (const d of before) seen.set(keyOf(d), (seen.get(keyOf(d)) ?? 0) + 1);
  const notes = new Map<FileOutcome, { at: number; why: string }[]>();
  for (const d of afterErrors) {
    const key = keyOf(d);
    const left = seen.get(key) ?? 0;
    if (left > 0) {
      seen.set(key, left - 1);
      continue;
    }
    const outcome = d.file && outcomeOf(resolve(d.file.fileName));
    if (!outcome || d.start === undefined) continue;
    const why = `type error after migration: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')} (TS${d.code})`;
    notes.set(outcome, [...(notes.get(outcome) ?? []), { at: statementStart(d.file!, d.start), why }]);
  }
  for (const [outcome, found] of notes) writeNotes(outcome, found);
  return { files: checked.length, before: before.length, after: afterErrors.length, notInstalled: packagesNotFound(after, checked) };
}
