/**
 * Runs the codemod over files: a text prefilter keeps the files that hold a v1 path (with a
 * tsconfig, also the files that import them or the types they import), one program is built over
 * them (over each batch of them, in a large run), the analysis (calls, resource types, decisions,
 * path plan) is made once, then each file's edits are collected and applied in one pass and every
 * result is parsed again: a result that does not parse is an error, never written. With a tsconfig
 * the changed files and their importers are type-checked in memory after the migration (and before
 * it, where they have errors after); every error the migration brings is a review item.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ts } from 'ts-morph';
import { mayCallV1, rejectAssumptions } from '../contract/index.js';
import { Analysis } from './analysis.js';
import type { DataAccess, DataFile } from './data-files.js';
import type { CodemodConfig } from './config.js';
import { lineChanges, type LineChange } from './line-changes.js';
import { BARE_OPTIONS, hostWithTexts, importResolver, parseAlike, parseErrors, parsesAlike, readTsconfig, type DeclarationTrees, type ImportResolver, type ParseOptions, type ProgramConfig, ParsedAhead } from './program.js';
import { addTypeChecks, introducedErrors, type TypeCheckSummary } from './self-check.js';
import { applySorted, Lines, pendingReview, readSourceText, restore, Shift, sortedEdits, TODO_MARK } from './source-text.js';
import { TransformContext, type Transform } from './transform.js';
import { analysedTogether, importsOf, stemIndex, type ImportReader } from './imports.js';
import { TypedScope } from './typed-scope.js';

export { importsOf, stemIndex } from './imports.js';

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
  /** The lines the edits changed, for the diff. */
  changes?: LineChange[];
}

export interface CodemodRun {
  files: FileOutcome[];
  ms: number;
  /** With a tsconfig: type errors in the changed files and their importers, before and after. */
  typeCheck?: TypeCheckSummary;
  /** The files of the run the analysis read: its program's and the recordings it loaded (--jobs checks its parts read apart). */
  analysed?: string[];
}

export { syntaxErrors } from './program.js';

interface FileResult extends Pick<FileOutcome, 'after' | 'review' | 'error' | 'changes'> {
  /** The migrated text's tree, parsed as the program parses the file: the program after the migration takes it as it is. */
  tree?: ts.SourceFile;
}

function migrateFile(path: string, sf: ts.SourceFile, analysis: Analysis, transforms: readonly Transform[], raw: string, how?: ParseOptions): FileResult {
  const source = readSourceText(raw);
  // Input that does not parse is not ours to guess at: it is reported with its line and left alone.
  const broken = parseErrors(sf);
  if (broken.length > 0) return { after: raw, review: [], error: `does not parse (line ${broken[0]}); the file is left as it was` };
  const ctx = new TransformContext(sf, source, analysis.fileAnalysis(sf), analysis);
  for (const transform of transforms) {
    ctx.transform = transform.name;
    transform.apply(ctx);
  }
  const sorted = sortedEdits(ctx.edits);
  const output = applySorted(source.text, sorted);
  // Only a text that changed is parsed again: the input parsed already, by the same rules.
  const parsed = output === source.text && parsesAlike(how) ? undefined : parseAlike(path, output, how);
  const errors = parsed ? parseErrors(parsed.sf) : [];
  if (errors.length > 0) {
    return { after: raw, review: [], error: `the migrated text does not parse (${errors[0]}); the file is left as it was` };
  }
  const lines = new Lines(output);
  const shift = new Shift(sorted);
  const fresh = ctx.todos.map((t) => ({ line: lines.lineOf(shift.of(t.position)), why: t.why, transform: t.transform }));
  return { after: restore(source, output), review: pendingReview(output, fresh), changes: lineChanges(source.text, output, sorted), ...(parsed?.shared ? { tree: parsed.sf } : {}) };
}

/**
 * A JSON file a test loads as recorded answers: the transforms that edit data run over it, and the
 * result must parse as JSON again. Notes about it stand in the code that loads it.
 */
function migrateData(data: DataFile, analysis: Analysis, transforms: readonly Transform[]): FileResult {
  const source = readSourceText(data.raw);
  const ctx = new TransformContext(data.sf, source, { sf: data.sf, calls: [], unplaced: [], flow: undefined as never }, analysis);
  for (const transform of transforms) {
    ctx.transform = transform.name;
    transform.applyData?.(ctx);
  }
  const sorted = sortedEdits(ctx.edits);
  const output = applySorted(source.text, sorted);
  try {
    JSON.parse(output);
  } catch (error) {
    return { after: data.raw, review: [], error: `the migrated JSON does not parse (${(error as Error).message}); the file is left as it was` };
  }
  return { after: restore(source, output), review: [], changes: lineChanges(source.text, output, sorted) };
}

/** Called as files are done: how many of how many. */
export type Progress = (done: number, total: number) => void;

export interface CodemodOptions {
  /** A tsconfig whose options (lib, paths, module resolution) the program takes; types then cross files. */
  tsconfig?: string;
  /** What migrate-v2.config.json declares (wrappers of packages the codemod cannot read). */
  config?: CodemodConfig;
  progress?: Progress;
  /** With --shard: of the prefilter's candidates (chosen over every file read), those this run analyses. */
  narrow?: (raws: ReadonlyMap<string, string>, candidates: ReadonlySet<string>) => ReadonlySet<string>;
  /** The files' texts by resolved path, read already (a --jobs run reads each file once, in the main thread). */
  texts?: ReadonlyMap<string, string>;
  /** A --jobs part's files to analyse, chosen by the main thread from the prefilter's candidates: the prefilter does not run again. */
  selected?: ReadonlySet<string>;
}

/** A test that stubs or mocks what a program sends: it may stand in for a marked file it imports. */
export const DOUBLES = /\b(?:nock|msw|MockAgent|mockResolvedValue|mockReturnValue|mockImplementation|stubGlobal|spyOn)\b/;

/** Files of the selection that another file of it imports. */
function importedFiles(raws: ReadonlyMap<string, string>): Set<string> {
  const byStem = stemIndex(raws);
  const out = new Set<string>();
  for (const [path, raw] of raws) for (const dep of importsOf(path, raw, byStem)) out.add(dep);
  return out;
}

/** With a tsconfig: how the typed scope reads the run's modules. */
interface TypedRun {
  options: ts.CompilerOptions;
  resolveImport: ImportResolver;
  /** Keeps the trees the typed scope parses for the run's program. */
  parsedAhead?: ParsedAhead;
}

/**
 * The files to analyse: those holding a v1 path and, with a tsconfig (types cross files), the files
 * typed-scope.ts adds: the modules their v1 code takes types or a transport from, and the files that
 * import from either what may carry a v1 value or a resource type, not every importer of those
 * modules. Without one, the tests that stub a marked file's calls.
 */
function candidates(raws: ReadonlyMap<string, string>, typed: TypedRun | undefined, baseNames: readonly string[] = []): Set<string> {
  // A declared base URL variable holds a v1 prefix the text does not show.
  const names = baseNames.length ? new RegExp(`\\b(?:${baseNames.join('|')})\\b`) : undefined;
  const holdsV1 = (text: string) => mayCallV1(text) || Boolean(names?.test(text));
  const marked = new Set([...raws].filter(([, raw]) => holdsV1(raw)).map(([path]) => path));
  if (marked.size === 0) return marked;
  // With types, a test joins as any file does: by calling what carries v1 (and it stubs those calls).
  if (typed) return new TypedScope(raws, typed.options, typed.resolveImport, holdsV1, typed.parsedAhead && ((path, text) => typed.parsedAhead!.parse(path, text))).roots(marked);
  const byStem = stemIndex(raws);
  // A test of a marked file stubs or mocks its v1 calls, whether or not it writes a v1 path itself.
  for (const [path, raw] of raws) if (!marked.has(path) && DOUBLES.test(raw) && importsOf(path, raw, byStem).some((d) => marked.has(d))) marked.add(path);
  return marked;
}

/** The prefilter's candidates among the files read (`raws`), as a run with these options chooses them (with the run's import resolver, when it has one). */
export function candidateFiles(
  raws: ReadonlyMap<string, string>,
  options: CodemodOptions,
  tsconfig = options.tsconfig ? readTsconfig(options.tsconfig) : undefined,
  resolveImport = tsconfig && importResolver(raws, tsconfig.options),
  parsedAhead?: ParsedAhead,
): Set<string> {
  return candidates(raws, tsconfig && resolveImport && { options: tsconfig.options, resolveImport, ...(parsedAhead ? { parsedAhead } : {}) }, (options.config?.baseUrls ?? []).map((b) => b.name));
}

/** The prefilter's candidates, narrowed to a shard's with --shard. */
function chosen(raws: ReadonlyMap<string, string>, options: CodemodOptions, tsconfig: ProgramConfig | undefined, resolveImport: ImportResolver | undefined, parsedAhead: ParsedAhead | undefined): ReadonlySet<string> {
  const every = candidateFiles(raws, options, tsconfig, resolveImport, parsedAhead);
  return options.narrow ? options.narrow(raws, every) : every;
}

/**
 * JSON files join a run through the code that loads them: read on demand, and every other file of
 * the run that names one is taken for a loader of it (it may use the data as something else).
 */
function dataAccess(raws: ReadonlyMap<string, string>, analysed: ReadonlySet<string>): DataAccess {
  return {
    read(path) {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    otherLoaders(path) {
      const name = basename(path);
      return [...raws].filter(([file, raw]) => !analysed.has(file) && raw.includes(name)).map(([file]) => file);
    },
  };
}

/**
 * A run analysing more than WHOLE_RUN_FILES files goes in batches of about BATCH_FILES, a batch
 * never splitting files that import each other: each batch's program, analysis and self-check are
 * released before the next, so the run's memory follows the batch and not the tree. Each batch
 * after the first costs a new checker warming up on the lib (+15% CPU for the 5,000-file bench's
 * 500 files in two batches): smaller runs stay whole. The 20,000-file bench (2,000 files analysed),
 * since the self-check no longer holds the migration's program, two runs each: batches of 125 took
 * 88-89 s (CPU 128-130 s) and peaked at 760-790 MB; of 200, 72-81 s (CPU 104-118 s), 741-759 MB;
 * one run of 250, 79 s (CPU 109 s), 914 MB: too near the 1 GB the run must stay under.
 */
const BATCH_FILES = Number(process.env.MIGRATE_V2_BATCH_FILES) || 200;
const WHOLE_RUN_FILES = Number(process.env.MIGRATE_V2_WHOLE_RUN_FILES) || 600;

/**
 * A full garbage collection between batches. Left to itself V8 lets a finished batch's garbage
 * pile up beside the next batch's live trees (the 20,000-file run peaked at 1.7 GB in batches of
 * 250, 0.86 GB collecting between them). Node exposes no collector without a flag; the flag is
 * set at run time and the function read from a fresh context, as jest's leak detector does.
 */
function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
let gc: (() => void) | undefined;

/** The selected files in batches: the groups analysed together (sorted by their first path, so neighbours share a batch), gathered up to BATCH_FILES. */
function batches(raws: ReadonlyMap<string, string>, selected: ReadonlySet<string>, resolveImport: ImportResolver | undefined): string[][] {
  if (selected.size <= Math.max(WHOLE_RUN_FILES, BATCH_FILES)) return [[...selected]];
  // With a tsconfig, files join the analysis through path aliases and barrels too: they are linked as the program resolves them.
  const components = analysedTogether(raws, selected, resolveImport && resolvedImports(resolveImport)).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  const out: string[][] = [[]];
  for (const component of components) {
    if (out.at(-1)!.length > 0 && out.at(-1)!.length + component.length > BATCH_FILES) out.push([]);
    out.at(-1)!.push(...component);
  }
  return out;
}

/** The files of the run a file imports, as the tsconfig's module resolution finds them. */
function resolvedImports(resolveImport: ImportResolver): ImportReader {
  return (path, raw) => ts.preProcessFile(raw, true, true).importedFiles.flatMap((f) => resolveImport(path, f.fileName) ?? []);
}

/** What every batch of a run shares. */
interface BatchRun {
  raws: ReadonlyMap<string, string>;
  outcomes: Map<string, FileOutcome>;
  transforms: readonly Transform[];
  options: CodemodOptions;
  compilerOptions: ts.CompilerOptions;
  /** With a tsconfig: how its module resolution reads the run's imports. */
  resolveImport?: ImportResolver;
  declarations: readonly string[];
  imported: ReadonlySet<string>;
  data: DataAccess;
  /** The lib and .d.ts trees, parsed and bound once for every batch's program. */
  trees: DeclarationTrees;
  /** The candidates' trees the typed scope parsed, for a run in one batch: its program takes them. */
  parsedAhead?: ParsedAhead;
  outcomeOf: (path: string, result: Omit<FileResult, 'tree'>, before: string) => FileOutcome;
  /** The run's files some batch's program read (a --jobs run checks that no other part changes them). */
  analysed: Set<string>;
  /** A file's outcome so far, made unchanged if it has none: where the self-check puts an error the migration brought into a file it did not change. */
  outcomeFor: (path: string) => FileOutcome | undefined;
  done: number;
  total: number;
}

/** The trees a batch's self-check builds its programs from: none is parsed twice. */
interface BatchTrees {
  rootNames: readonly string[];
  /** Trees of the files the batch left as they were. */
  kept: Map<string, ts.SourceFile>;
  /** Trees of the migrated texts, parsed by the syntax check. */
  migrated: Map<string, ts.SourceFile>;
  /** Trees of the changed files as they were, for the errors they had before. */
  originals: Map<string, ts.SourceFile>;
  outcomes: ReadonlyMap<string, FileOutcome>;
}

/** One batch: its program, analysis and migration, and with a tsconfig its self-check; the outcomes join the run's. */
function migrateBatch(run: BatchRun, batch: readonly string[]): TypeCheckSummary | undefined {
  const trees = migrateBatchFiles(run, batch);
  // The program and analysis of the migration are gone by now: the self-check's checker does not
  // sit beside theirs (on the 5,000-file bench they held 350 MB the collector marked again and again).
  return trees && selfCheck(run, trees);
}

function selfCheck(run: BatchRun, trees: BatchTrees): TypeCheckSummary {
  const { raws, compilerOptions } = run;
  const afterTexts = (name: string) => {
    const o = run.outcomes.get(name);
    const raw = o?.changed ? o.after : raws.get(name);
    return raw === undefined ? undefined : readSourceText(raw).text;
  };
  const keptOr = (changed: Map<string, ts.SourceFile>) => (name: string) => changed.get(resolve(name)) ?? trees.kept.get(resolve(name));
  return introducedErrors({
    rootNames: trees.rootNames,
    options: compilerOptions,
    afterHost: hostWithTexts(compilerOptions, afterTexts, keptOr(trees.migrated), undefined, run.trees),
    beforeHost: hostWithTexts(compilerOptions, textsOf(raws), keptOr(trees.originals), undefined, run.trees),
    outcomes: trees.outcomes,
    originalOf: (path) => trees.originals.get(path),
    outcomeOf: run.outcomeFor,
    resolveImport: run.resolveImport!,
  });
}

/** The run's texts as a compiler host reads them (no BOM). */
function textsOf(raws: ReadonlyMap<string, string>): (name: string) => string | undefined {
  return (name) => {
    const raw = raws.get(name);
    return raw === undefined ? undefined : readSourceText(raw).text;
  };
}

/** A batch's program, analysis and migration; with a tsconfig, the trees its self-check needs. */
function migrateBatchFiles(run: BatchRun, batch: readonly string[]): BatchTrees | undefined {
  const { raws, options, compilerOptions } = run;
  const texts = textsOf(raws);
  // The parse options of each file, to parse its migrated text alike.
  const parses = new Map<string, ParseOptions>();
  const ahead = run.parsedAhead;
  const host = hostWithTexts(compilerOptions, texts, ahead && ((name, how) => ahead.take(name, how)), (name, how) => parses.set(resolve(name), how), run.trees);
  const program = ts.createProgram({ rootNames: [...batch, ...run.declarations], options: compilerOptions, host });
  // The modules the typed scope read and the program did not take are of no more use.
  ahead?.clear();
  const sourceFiles = batch.flatMap((p) => program.getSourceFile(p) ?? []);
  const analysis = new Analysis(program.getTypeChecker(), sourceFiles, (sf) => run.imported.has(resolve(sf.fileName)), options.config, run.data);
  // Files that declare resource types are migrated with the values they describe.
  const toMigrate = new Set(batch);
  for (const container of analysis.types.containers.keys()) {
    const file = resolve(container.getSourceFile().fileName);
    if (raws.has(file)) toMigrate.add(file);
  }
  const outcomes = new Map<string, FileOutcome>();
  const trees = new Map<string, ts.SourceFile>();
  for (const path of toMigrate) {
    options.progress?.(run.done++, run.total);
    const raw = raws.get(path)!;
    const sf = program.getSourceFile(path);
    let result: FileResult;
    try {
      result = sf ? migrateFile(path, sf, analysis, run.transforms, raw, parses.get(path)) : { after: raw, review: [], error: 'could not be parsed' };
    } catch (error) {
      result = { after: raw, review: [], error: `migrate-v2 could not migrate this file: ${(error as Error).message}` };
    }
    const { tree, ...outcome } = result;
    const migrated = run.outcomeOf(path, outcome, raw);
    // The program after the migration takes these trees: without a tsconfig there is none, and holding them took 170 MB more on the 5,000-file bench.
    if (tree && migrated.changed && options.tsconfig) trees.set(path, tree);
    outcomes.set(path, migrated);
  }
  for (const data of analysis.doubles.data.values()) {
    if (!data || outcomes.has(data.path) || run.outcomes.has(data.path)) continue;
    const result = migrateData(data, analysis, run.transforms);
    if (result.after !== data.raw || result.error) outcomes.set(data.path, run.outcomeOf(data.path, result, data.raw));
  }
  for (const [path, outcome] of outcomes) run.outcomes.set(path, outcome);
  for (const sf of program.getSourceFiles()) if (raws.has(resolve(sf.fileName))) run.analysed.add(resolve(sf.fileName));
  for (const path of analysis.doubles.data.keys()) run.analysed.add(path);
  if (!options.tsconfig) return undefined;
  const kept = new Map<string, ts.SourceFile>();
  const originals = new Map<string, ts.SourceFile>();
  for (const sf of program.getSourceFiles()) {
    const path = resolve(sf.fileName);
    (run.outcomes.get(path)?.changed ? originals : kept).set(path, sf);
  }
  return { rootNames: program.getRootFileNames(), kept, migrated: trees, originals, outcomes };
}

export function runCodemod(files: readonly string[], transforms: readonly Transform[], cwd: string, options: CodemodOptions = {}): CodemodRun {
  // Assumed rules the config rejects hold for this run only.
  const undo = rejectAssumptions(options.config?.rejectAssumptions ?? []);
  try {
    return runWithContract(files, transforms, cwd, options);
  } finally {
    undo();
  }
}

function runWithContract(files: readonly string[], transforms: readonly Transform[], cwd: string, options: CodemodOptions): CodemodRun {
  const started = performance.now();
  const relativeOf = (path: string) => relative(cwd, path).split(sep).join('/');
  const outcomes = new Map<string, FileOutcome>();
  const raws = new Map<string, string>();
  for (const [i, path] of files.entries()) {
    if (i % 500 === 0) options.progress?.(i, files.length);
    try {
      raws.set(resolve(path), options.texts?.get(resolve(path)) ?? readFileSync(path, 'utf8'));
    } catch (error) {
      outcomes.set(resolve(path), { path, relative: relativeOf(path), before: '', after: '', changed: false, review: [], error: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  const paths = new Map(files.map((p) => [resolve(p), p]));
  const outcomeOf = (path: string, result: Omit<FileResult, 'tree'>, before: string): FileOutcome => {
    const original = paths.get(path) ?? path;
    return { path: original, relative: relativeOf(original), before, changed: result.after !== before && !result.error, ...result };
  };
  const unchanged = (path: string, raw: string) => outcomeOf(path, { after: raw, review: raw.includes(TODO_MARK) ? pendingReview(raw) : [] }, raw);
  const fillUnchanged = (): void => {
    for (const [path, raw] of raws) if (!outcomes.has(path)) outcomes.set(path, unchanged(path, raw));
  };
  const config = options.tsconfig ? readTsconfig(options.tsconfig) : { options: BARE_OPTIONS, declarations: [] };
  const compilerOptions = config.options;
  const resolveImport = options.tsconfig ? importResolver(raws, compilerOptions) : undefined;
  const parsedAhead = options.tsconfig && !options.selected ? new ParsedAhead(compilerOptions, WHOLE_RUN_FILES) : undefined;
  const selected = options.selected ?? chosen(raws, options, options.tsconfig ? config : undefined, resolveImport, parsedAhead);
  let typeCheck: TypeCheckSummary | undefined;
  let analysed: string[] | undefined;
  if (selected.size > 0) {
    const run: BatchRun = {
      raws,
      outcomes,
      transforms,
      options,
      compilerOptions,
      ...(resolveImport ? { resolveImport } : {}),
      ...(parsedAhead ? { parsedAhead } : {}),
      declarations: config.declarations,
      // Without a tsconfig the program resolves no imports: a file another file imports has readers it cannot see.
      imported: options.tsconfig ? new Set<string>() : importedFiles(raws),
      data: dataAccess(raws, selected),
      trees: new Map(),
      outcomeOf,
      analysed: new Set(),
      outcomeFor: (path) => {
        const raw = raws.get(path);
        if (!outcomes.has(path) && raw !== undefined) outcomes.set(path, unchanged(path, raw));
        return outcomes.get(path);
      },
      done: files.length - selected.size,
      total: files.length,
    };
    const parts = batches(raws, selected, run.resolveImport);
    // A batch's trees would wait beside the others' until its turn: only a run in one batch takes them.
    if (parts.length > 1) parsedAhead?.clear();
    for (const [i, batch] of parts.entries()) {
      if (i > 0) collectGarbage();
      const checked = migrateBatch(run, batch);
      if (checked) typeCheck = addTypeChecks(typeCheck, checked);
    }
    analysed = [...run.analysed];
  }
  fillUnchanged();
  return { files: [...outcomes.values()].sort((a, b) => (a.relative < b.relative ? -1 : 1)), ms: performance.now() - started, ...(typeCheck ? { typeCheck } : {}), ...(analysed ? { analysed } : {}) };
}
