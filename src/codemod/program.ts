/**
 * The compiler programs of a run: their options (a tsconfig's, or each file alone), a compiler host
 * that reads the run's texts in place of the files on disk, and the parses they share. A file is
 * parsed once per text: the program before the migration takes the candidates' trees from the typed
 * scope (a run in one batch), the program after it the unchanged files' trees from the program before
 * it, and the changed files' trees from the check that their new text parses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { ts } from 'ts-morph';
import { UsageError } from '../errors.js';

/** A file of the run an import specifier names, as the tsconfig's module resolution finds it (aliases, barrels, extensions). */
export interface ImportResolver {
  /** The file of the run an import names, as the tsconfig resolves it; undefined for any other. */
  (from: string, specifier: string): string | undefined;
  /** True when the import names a package: TypeScript finds it under node_modules, or nowhere. */
  isPackage(from: string, specifier: string): boolean;
}

/** One resolver, with one cache, for every import question a run asks: which analyses together, which files type-check after. */
export function importResolver(raws: ReadonlyMap<string, string>, options: ts.CompilerOptions): ImportResolver {
  const cache = ts.createModuleResolutionCache(process.cwd(), (name) => name, options);
  const resolved = (from: string, specifier: string) => ts.resolveModuleName(specifier, from, options, ts.sys, cache).resolvedModule;
  const resolver = (from: string, specifier: string) => {
    const found = resolved(from, specifier)?.resolvedFileName;
    const path = found && resolve(found);
    return path && raws.has(path) ? path : undefined;
  };
  return Object.assign(resolver, {
    isPackage: (from: string, specifier: string) => {
      const found = resolved(from, specifier);
      return !found || Boolean(found.isExternalLibraryImport);
    },
  });
}

export function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** A text parsed alone, by no program's rules (the latest syntax, the script kind its name tells), without parents. */
export function parseAlone(path: string, text: string): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(path));
}

/** Syntax errors of a text, by the same parser; empty when it parses. */
export function syntaxErrors(path: string, text: string): string[] {
  return parseErrors(parseAlone(path, text));
}

/** Syntax errors of a parsed file, each as `line: message`. */
export function parseErrors(sf: ts.SourceFile): string[] {
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => `${sf.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

/**
 * Without a tsconfig: each file alone (imports are not resolved), with the standard lib so that
 * arrays, promises and callbacks have types. Every file is a module, as Node runs a script of a
 * package of `"type": "module"`: its top-level `await` gives its value (as a script's, none).
 */
export const BARE_OPTIONS: ts.CompilerOptions = {
  moduleDetection: ts.ModuleDetectionKind.Force,
  allowJs: true,
  checkJs: false,
  noResolve: true,
  types: [],
  noEmit: true,
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.Latest,
};

export interface ProgramConfig {
  options: ts.CompilerOptions;
  /** Declaration files the tsconfig names (global types): roots of every program. */
  declarations: string[];
  /** The other files the tsconfig names: those outside the run may read what it changes. */
  sources: string[];
}

/** A tsconfig's compiler options and its declaration files (global types), for a program of our own roots. */
export function readTsconfig(tsconfig: string): ProgramConfig {
  let problem: string | undefined;
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => (problem = ts.flattenDiagnosticMessageText(d.messageText, ' ')) });
  if (!parsed || problem) throw new UsageError(`--tsconfig ${tsconfig}: ${problem ?? 'cannot be read'}`);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, allowJs: true, checkJs: false, incremental: false, composite: false, declaration: false };
  if ((projectTypeScriptMajor(dirname(resolve(tsconfig))) ?? 5) < 6) {
    for (const [name, value] of Object.entries({ ...BEFORE_SIX, ...interopBeforeSix(options) })) options[name] ??= value;
  }
  const declaration = (f: string) => /\.d\.[cm]?ts$/.test(f);
  return { options, declarations: parsed.fileNames.filter(declaration), sources: parsed.fileNames.filter((f) => !declaration(f)) };
}

/**
 * The defaults TypeScript 6 (the codemod's compiler) changed that decide what a file's check finds,
 * as TypeScript 5 had them: a project built with an older TypeScript and a tsconfig that leaves them
 * unset is checked as its own `tsc` checks it. Without this its `strict` was on, and a clean lax
 * project counted errors before the migration. Every package under node_modules/@types joined then
 * (a project built so reads `process` from @types/node), and a side-effect import went unchecked.
 * `target` and `module` changed too; they are left to TypeScript 6, which no longer takes ES5.
 */
const BEFORE_SIX: ts.CompilerOptions = { strict: false, types: ['*'], noUncheckedSideEffectImports: false };

/**
 * TypeScript 6 always takes `esModuleInterop` and `allowSyntheticDefaultImports`; TypeScript 5 took
 * them by `module` (on for Node's module kinds) and `moduleResolution`: `import * as picomatch from
 * 'picomatch'; picomatch(...)` compiles there without them. TypeScript 6 still honours `false`.
 */
function interopBeforeSix(options: ts.CompilerOptions): ts.CompilerOptions {
  const module = options.module;
  const nodeModules = module !== undefined && ((module >= ts.ModuleKind.Node16 && module <= ts.ModuleKind.NodeNext) || module === ts.ModuleKind.Preserve);
  const interop = options.esModuleInterop ?? nodeModules;
  return { esModuleInterop: interop, allowSyntheticDefaultImports: interop || module === ts.ModuleKind.System || options.moduleResolution === ts.ModuleResolutionKind.Bundler };
}

/** The major version of the TypeScript a project installs, as Node resolves it from the project's folder. */
function projectTypeScriptMajor(dir: string): number | undefined {
  try {
    const manifest = createRequire(join(dir, 'package.json')).resolve('typescript/package.json');
    return Number((JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version.split('.')[0]);
  } catch {
    return undefined;
  }
}

/** TypeScript's lib files as ts-morph ships them (its compiler has no lib folder on disk). */
const LIB_FILES = new Map(getLibFiles().map((f) => [`${libFolderInMemoryPath}/${f.fileName}`, f.text]));

/** A file system question asked once: files and folders do not come and go during a run. */
function remembered(ask: (name: string) => boolean): (name: string) => boolean {
  const answers = new Map<string, boolean>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) answers.set(name, (answer = ask(name)));
    return answer;
  };
}

/** Trees a host hands out in place of parsing (`how`: the program's parse options for the file). */
export type SourceFileSource = (name: string, how: ParseOptions) => ts.SourceFile | undefined;

/** How a program parses its files: TypeScript's own rules, which its declarations leave out. */
interface ParseRules {
  getEmitScriptTarget(options: ts.CompilerOptions): ts.ScriptTarget;
  getSetExternalModuleIndicator(options: ts.CompilerOptions): (file: ts.SourceFile) => void;
}

/**
 * Trees parsed before the program by the program's own rules (the typed scope reads the candidates'
 * modules), each handed once to the program in place of a second parse: on the 5,000-file bench the
 * candidates were parsed twice. A tree is taken only where the program asks for the same parse
 * (target, module format, JSDoc), else the program parses the file itself. At most `limit` trees are
 * kept: a larger run goes in batches, and its trees would wait for their batch beside the others.
 */
export class ParsedAhead {
  private readonly trees = new Map<string, ts.SourceFile>();
  private readonly packageJsons: ts.PackageJsonInfoCache;
  private readonly rules = ts as unknown as Partial<ParseRules>;
  /** False once the limit is passed or the program is built (and without the rules): from then on nothing is kept. */
  private keeping: boolean;

  constructor(
    private readonly options: ts.CompilerOptions,
    private readonly limit: number,
  ) {
    this.packageJsons = ts.createModuleResolutionCache(process.cwd(), (name) => name, options).getPackageJsonInfoCache();
    // Without the rules (a TypeScript that moved them), nothing is kept: the program parses alone.
    this.keeping = typeof this.rules.getEmitScriptTarget === 'function' && typeof this.rules.getSetExternalModuleIndicator === 'function';
  }

  /** A file's tree as the program will parse its text, kept for the program while there is room. */
  parse(path: string, text: string): ts.SourceFile {
    if (!this.keeping) return parseAlone(path, text);
    const { getEmitScriptTarget, getSetExternalModuleIndicator } = this.rules as ParseRules;
    const how: ts.CreateSourceFileOptions = {
      languageVersion: getEmitScriptTarget(this.options),
      impliedNodeFormat: ts.getImpliedNodeFormatForFile(path, this.packageJsons, ts.sys, this.options),
      setExternalModuleIndicator: getSetExternalModuleIndicator(this.options),
    };
    // As a compiler host parses: parents set, the script kind told by the file name.
    const sf = ts.createSourceFile(path, text, how, true);
    if (this.trees.size >= this.limit) this.clear();
    else this.trees.set(resolve(path), sf);
    return sf;
  }

  /** The tree of a file, once, when the program parses it as it was parsed here. */
  take(name: string, how: ParseOptions): ts.SourceFile | undefined {
    const sf = this.trees.get(resolve(name));
    if (!sf) return undefined;
    this.trees.delete(resolve(name));
    const asked = typeof how === 'number' ? { languageVersion: how } : how;
    const alike = sf.languageVersion === asked.languageVersion && sf.impliedNodeFormat === asked.impliedNodeFormat && (asked.jsDocParsingMode ?? ts.JSDocParsingMode.ParseAll) === ts.JSDocParsingMode.ParseAll;
    return alike ? sf : undefined;
  }

  /** Drops every tree kept, and keeps none from now on. */
  clear(): void {
    this.trees.clear();
    this.keeping = false;
  }
}

/**
 * The lib's trees, parsed once for the process by the parse options asked (its target): they never
 * change, and programs share bound declaration trees as TypeScript's language service does. A
 * command builds one program or a batch's; the suite builds hundreds, each parsing the lib anew.
 */
const libTrees = new Map<string, ts.SourceFile>();

function libTree(name: string, how: ParseOptions): ts.SourceFile {
  const { languageVersion, jsDocParsingMode } = typeof how === 'number' ? { languageVersion: how, jsDocParsingMode: undefined } : how;
  const key = `${languageVersion}\u0000${jsDocParsingMode}\u0000${name}`;
  let sf = libTrees.get(key);
  if (!sf) libTrees.set(key, (sf = ts.createSourceFile(name, LIB_FILES.get(name)!, how, true)));
  return sf;
}

/**
 * A compiler host that reads the run's texts (BOM removed) in place of the files on disk, and the
 * lib files from memory. `parsed` hands out trees made already; `onParse` is told the parse
 * options of each file the program asks for but the lib's (the program's, to parse a new text alike).
 */
export function hostWithTexts(
  options: ts.CompilerOptions,
  texts: (name: string) => string | undefined,
  parsed?: SourceFileSource,
  onParse?: (name: string, how: ParseOptions) => void,
  declarations?: DeclarationTrees,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const fileExists = remembered(host.fileExists.bind(host));
  const getSourceFile = host.getSourceFile.bind(host);
  if (host.directoryExists) host.directoryExists = remembered(host.directoryExists.bind(host));
  host.getDefaultLibLocation = () => libFolderInMemoryPath;
  host.getDefaultLibFileName = (o) => `${libFolderInMemoryPath}/${ts.getDefaultLibFileName(o)}`;
  host.fileExists = (name) => LIB_FILES.has(name) || fileExists(name);
  host.readFile = (name) => LIB_FILES.get(name) ?? texts(resolve(name)) ?? readFile(name);
  host.getSourceFile = (name, how, onError, fresh) => {
    const declared = declarations?.get(name);
    if (declared) return declared;
    const lib = LIB_FILES.has(name) ? libTree(name, how) : undefined;
    if (lib) {
      declarations?.set(name, lib);
      return lib;
    }
    onParse?.(name, how);
    const sf = parsed?.(name, how) ?? getSourceFile(name, how, onError, fresh);
    if (sf?.isDeclarationFile) declarations?.set(name, sf);
    return sf;
  };
  return host;
}

/**
 * Declaration files (the lib, the .d.ts of packages) parsed once for all the programs of a run: a
 * run in batches builds a program per batch, and TypeScript binds a tree once and lets every
 * program share it, as its language service does.
 */
export type DeclarationTrees = Map<string, ts.SourceFile>;

export type ParseOptions = ts.CreateSourceFileOptions | ts.ScriptTarget;

/** Whether a program's parse (`how`) reads a text as the syntax check does: by the identifier rules of ES2015 and later. */
export function parsesAlike(how: ParseOptions | undefined): boolean {
  const version = how === undefined ? ts.ScriptTarget.Latest : typeof how === 'number' ? how : how.languageVersion;
  return version >= ts.ScriptTarget.ES2015;
}

/**
 * Parses a migrated text as the program parses its file (`how`, recorded when it did), so that the
 * program after the migration can take the tree as it is (`shared`); as the syntax check alone
 * parses it where the two would read it differently.
 */
export function parseAlike(path: string, text: string, how: ParseOptions | undefined): { sf: ts.SourceFile; shared: boolean } {
  if (how === undefined || !parsesAlike(how)) return { sf: parseAlone(path, text), shared: false };
  return { sf: ts.createSourceFile(path, text, how, false, scriptKind(path)), shared: true };
}
