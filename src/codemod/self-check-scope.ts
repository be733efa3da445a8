/**
 * How much of a changed file the self-check type-checks. An error the migration brings stands in a
 * top-level statement it edited, or in one whose types can follow from an edit: a statement that
 * names something an edited statement declares (or declared before the migration), something
 * imported from the project's own modules (they may have changed too), or something declared by a
 * statement so reached. The file's other statements name nothing the migration touched, so they
 * have the errors they had before and are not checked again: on the 5,000-file bench the check
 * of whole files was a third of the run.
 *
 * The whole file is checked where that reasoning does not hold: options whose errors only a whole
 * file's check gives (unused names), `@ts-expect-error` (an unused one is an error only a whole
 * check finds), JavaScript (types named in JSDoc are not in the tree the names are read from), a
 * file whose names reach others without an import (a script, `declare global`, a module
 * augmentation), and a file whose list of exports changed. TypeScript checks a list of statements
 * through a parameter of getSemanticDiagnostics its editors use for region diagnostics (5.6 on);
 * where that parameter is missing, whole files are checked.
 */
import { ts } from 'ts-morph';
import type { LineChange } from './line-changes.js';
import { declaredNames, identifiersIn, readExports, readImport, type Imported } from './module-shape.js';
import type { ImportResolver } from './program.js';

export interface ChangedFile {
  after: ts.SourceFile;
  /** The file as it was, for what its edited statements declared. */
  before: ts.SourceFile | undefined;
  changes: readonly LineChange[];
}

/**
 * The statements the self-check checks of each changed file it need not check whole. None when a
 * changed file's names reach other files without an import, or TypeScript cannot check by statement.
 */
export function statementScopes(program: ts.Program, files: readonly ChangedFile[], resolveImport: ImportResolver): Map<ts.SourceFile, readonly ts.Statement[]> {
  const scopes = new Map<ts.SourceFile, readonly ts.Statement[]>();
  if (!checksStatements(program) || files.some((f) => reachesOtherFiles(f.after))) return scopes;
  const options = program.getCompilerOptions();
  for (const file of files) {
    const statements = statementsToCheck(file, options, resolveImport);
    if (statements) scopes.set(file.after, statements);
  }
  return scopes;
}

/** The statements of a changed file the self-check must check; undefined when it must check the whole file. */
function statementsToCheck(file: ChangedFile, options: ts.CompilerOptions, resolveImport: ImportResolver): readonly ts.Statement[] | undefined {
  const { after, before, changes } = file;
  if (!checksByStatement(after, options) || (before && exportsOf(before) !== exportsOf(after))) return undefined;
  const statements = after.statements;
  const dirty = new Set<number>();
  const dirtyNames = new Set<string>();
  const mark = (i: number) => {
    dirty.add(i);
    for (const name of namesOf(statements[i]!)) dirtyNames.add(name);
  };
  const afterSpans = lineSpans(after);
  statements.forEach((s, i) => {
    if (changes.some((c) => touches(afterSpans[i]!, c.newFrom, c.newTo)) || readsProjectModule(after, s, resolveImport)) mark(i);
  });
  // What the edits replaced or removed: a statement that still reads it must be checked.
  const beforeSpans = before ? lineSpans(before) : [];
  before?.statements.forEach((s, i) => {
    if (changes.some((c) => c.oldFrom <= c.oldTo && touches(beforeSpans[i]!, c.oldFrom, c.oldTo))) for (const name of namesOf(s)) dirtyNames.add(name);
  });
  const names: (Set<string> | undefined)[] = [];
  // A statement whose text holds no dirty name cannot name one (unless it spells a name with \u escapes): its tree is not walked.
  const readsDirty = (i: number): boolean => {
    const text = after.text.slice(statements[i]!.pos, statements[i]!.end);
    if (!text.includes('\\u') && ![...dirtyNames].some((name) => text.includes(name))) return false;
    for (const id of (names[i] ??= identifiersIn(statements[i]!, new Set()))) if (dirtyNames.has(id)) return true;
    return false;
  };
  for (let grew = true; grew; ) {
    grew = false;
    statements.forEach((_, i) => {
      if (dirty.has(i) || !readsDirty(i)) return;
      mark(i);
      grew = true;
    });
  }
  return dirty.size === statements.length ? undefined : statements.filter((_, i) => dirty.has(i));
}

/** A file whose top-level names other files see without importing them: a script, a declaration file, `declare global`, a module augmentation. */
function reachesOtherFiles(sf: ts.SourceFile): boolean {
  if (sf.isDeclarationFile || !ts.isExternalModule(sf)) return true;
  return sf.statements.some((s) => ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0));
}

/** Whether TypeScript can check this file statement by statement and give every error the migration could bring. */
function checksByStatement(sf: ts.SourceFile, options: ts.CompilerOptions): boolean {
  if (options.noUnusedLocals || options.noUnusedParameters) return false;
  return /\.[cm]?tsx?$/.test(sf.fileName) && !sf.text.includes('@ts-expect-error');
}

/** True when a program's getSemanticDiagnostics takes the statements to check (TypeScript 5.6 on). */
function checksStatements(program: ts.Program): boolean {
  return program.getSemanticDiagnostics.length >= 3;
}

/** Each top-level statement's lines (0-based), the comments above it included; read once per file, not once per change. */
function lineSpans(sf: ts.SourceFile): { first: number; last: number }[] {
  return sf.statements.map((s) => {
    const comments = ts.getLeadingCommentRanges(sf.text, s.getFullStart());
    return { first: sf.getLineAndCharacterOfPosition(comments?.[0]?.pos ?? s.getStart(sf)).line, last: sf.getLineAndCharacterOfPosition(s.end).line };
  });
}

/** Lines `from..to` (0-based; an empty range, from = to + 1, is the gap where lines were removed) touch a statement's span. */
function touches(span: { first: number; last: number }, from: number, to: number): boolean {
  return Math.min(from, to) <= span.last && Math.max(from, to) >= span.first;
}

/** An import of the project's own modules, or a dynamic import or require of anything: what it names may have changed. */
function readsProjectModule(sf: ts.SourceFile, s: ts.Statement, resolveImport: ImportResolver): boolean {
  const specifier =
    ts.isImportDeclaration(s) ? s.moduleSpecifier
    : ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference) ? s.moduleReference.expression
    : undefined;
  if (specifier) return !ts.isStringLiteral(specifier) || !resolveImport.isPackage(sf.fileName, specifier.text);
  const text = sf.text.slice(s.pos, s.end);
  return text.includes('import(') || text.includes('require(');
}

/** The names a top-level statement declares in the file's scope, its imports' included. */
function namesOf(s: ts.Statement): string[] {
  if (!ts.isImportDeclaration(s)) return declaredNames(s);
  const imports = new Map<string, Imported>();
  readImport(s, imports);
  return [...imports.keys()];
}

/** What a module exports, as one key: an export added or lost is checked with the whole module. */
function exportsOf(sf: ts.SourceFile): string {
  const shape = { exports: new Map<string, string>(), reexports: new Map<string, Imported>(), reexportsAll: [] as string[] };
  for (const s of sf.statements) readExports(s, shape);
  return JSON.stringify([[...shape.exports].sort(), [...shape.reexports].sort(), shape.reexportsAll.sort()]);
}
