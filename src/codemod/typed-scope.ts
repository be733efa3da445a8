/**
 * Which files join the typed program, with a tsconfig: the files the prefilter marks (a v1 path, a
 * test of one), the modules their v1 code takes record types or a transport from, and the files that
 * import, from any of these, a name that may carry a v1 value or a resource type. A file that imports
 * such a module for something else is not analysed: it cannot read a v1 record by that import.
 *
 * A name carries v1 when its top-level statement holds a v1 path, uses a statement that does (it
 * may return its values), or is a type such a statement uses (a record type may be one); a type
 * imported by that code carries it in its own module. Read by the parser and module resolution
 * alone, before the program is made; declarations the roots reference join through the program's
 * own resolution, without being analysed.
 */
import { basename, dirname } from 'node:path';
import { ts } from 'ts-morph';
import { migratingMemberNames } from '../contract/index.js';
import { readModuleShape, type Imported, type ModuleShape } from './module-shape.js';
import { parseAlone, scriptKind, type ImportResolver } from './program.js';
import { readSourceText } from './source-text.js';

/** A type with a member a migration renames (as the contract stands for this run): it may be the record type of v1 code that imports it. */
const renamableType = () => new RegExp(`\\b(?:interface|type)\\s+\\w+[\\s\\S]*?\\b(?:${[...migratingMemberNames()].join('|')})\\??\\s*:`);
/** A module that makes HTTP calls: it may hold the transport the v1 code calls through. */
const TRANSPORT = /\b(?:fetch|request|axios|got|ky)\s*[.(<]/;
/** Every name of a module whose exports cannot be told by name (CommonJS). */
const EVERY_NAME = '*';

/** `import a, { b as c } from 'x'`: the clause and the module. */
const IMPORT_CLAUSE = /\bimport\s+(?:type\s+)?([\w$\s,{}*]*?)\s*from\s*['"]([^'"]+)['"]/g;
/** `require('x')`, `import('x')`: what the importer takes is told by what it reads of the module. */
const WHOLE_IMPORT = /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
/** `export ... from 'x'`: a barrel hands names on. */
const REEXPORT = /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+[\w$]+)?\s+from\s*['"]([^'"]+)['"]/g;

interface ModuleState {
  shape: ModuleShape;
  /** Local names other modules' v1 code takes as types. */
  seeded: Set<string>;
  /** Indexes of the statements that carry v1. */
  carrying: Set<number>;
}

/** The last segment of the specifiers a module is imported by: its file name, and its folder's for an index. */
function stemsOf(path: string): string[] {
  const name = basename(path).replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
  return name === 'index' ? [name, basename(dirname(path))] : [name];
}

/** A binding that names a whole module: `* as ns`, `ns = require(...)`, `ns = await import(...)`. */
function wholeModuleBinding(node: ts.StringLiteral): ts.Identifier | ts.BindingName | undefined {
  const p = node.parent;
  if (ts.isImportDeclaration(p)) {
    const bindings = p.importClause?.namedBindings;
    return bindings && ts.isNamespaceImport(bindings) ? bindings.name : undefined;
  }
  if (ts.isExternalModuleReference(p) && ts.isImportEqualsDeclaration(p.parent)) return p.parent.name;
  if (!ts.isCallExpression(p)) return undefined;
  const holder = ts.isAwaitExpression(p.parent) ? p.parent.parent : p.parent;
  return ts.isVariableDeclaration(holder) ? holder.name : undefined;
}

/** A declaration's own name: not a use of what it binds. */
const isBindingSite = (id: ts.Identifier) => (ts.isVariableDeclaration(id.parent) || ts.isNamespaceImport(id.parent) || ts.isImportEqualsDeclaration(id.parent) || ts.isImportClause(id.parent) || ts.isImportSpecifier(id.parent)) && (id.parent as { name?: ts.Node }).name === id;

/**
 * The members a file reads of a module it takes whole (`ns.member`, `{ member } = await import(...)`),
 * or undefined when it uses the module otherwise (hands it on, spreads it, calls `.then` on the import).
 */
function membersRead(path: string, raw: string, specifier: string): Set<string> | undefined {
  const sf = ts.createSourceFile(path, raw, ts.ScriptTarget.Latest, true, scriptKind(path));
  const out = new Set<string>();
  const names = new Set<string>();
  let whole = false;
  const findBindings = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) && node.text === specifier && !ts.isExportDeclaration(node.parent)) {
      const binding = wholeModuleBinding(node);
      if (binding && ts.isIdentifier(binding)) names.add(binding.text);
      else if (binding && ts.isObjectBindingPattern(binding)) for (const e of binding.elements) e.dotDotDotToken ? (whole = true) : out.add((e.propertyName ?? e.name).getText(sf));
      else if (!ts.isImportDeclaration(node.parent)) whole = true;
    }
    ts.forEachChild(node, findBindings);
  };
  const readUses = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && names.has(node.text) && !isBindingSite(node)) {
      const p = node.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === node) out.add(p.name.text);
      else if (ts.isQualifiedName(p) && p.left === node) out.add(p.right.text);
      else whole = true;
    }
    ts.forEachChild(node, readUses);
  };
  findBindings(sf);
  if (names.size > 0) readUses(sf);
  return whole ? undefined : out;
}

/** The names an import clause takes: `default`, `*` or exported names. */
function clauseNames(clause: string): string[] {
  const out: string[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  for (const element of braces?.[1]?.split(',') ?? []) {
    const name = element.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
    if (name) out.push(name);
  }
  if (/\*\s*as\s/.test(clause)) out.push('*');
  if (/^\s*[\w$]+\s*(?:,|$)/.test(clause)) out.push('default');
  return out;
}

export class TypedScope {
  private readonly modules = new Map<string, ModuleState>();
  private readonly exactPaths: Set<string>;
  /** Modules the v1 code takes names from. */
  private readonly dependencies = new Set<string>();

  constructor(
    private readonly raws: ReadonlyMap<string, string>,
    options: ts.CompilerOptions,
    private readonly resolveFrom: ImportResolver,
    private readonly holdsV1: (text: string) => boolean,
    /** Parses a module's text (BOM removed): the run's program may take the tree (program.ts, ParsedAhead). */
    private readonly parse: (path: string, text: string) => ts.SourceFile = parseAlone,
  ) {
    // A `paths` key without a wildcard names a module by an alias its file name does not show.
    this.exactPaths = new Set(Object.keys(options.paths ?? {}).filter((key) => !key.includes('*')));
  }

  /** The files to analyse with the checker, given the files the prefilter marked. */
  roots(marked: ReadonlySet<string>): Set<string> {
    for (const path of marked) this.settle(path);
    const out = new Set(marked);
    // An importer's own functions that use what it takes carry v1 in turn (`listGroups()` calling
    // `apiRequest(GROUPS)` with GROUPS imported): their importers join too, until none is added.
    for (let added = [...marked]; added.length > 0; ) {
      const exposing = this.exposingModules();
      const stems = new Set([...exposing.keys()].flatMap(stemsOf));
      added = [...this.raws].filter(([path, raw]) => !out.has(path) && this.takesV1(path, raw, exposing, stems)).map(([path]) => path);
      for (const path of added) {
        out.add(path);
        this.settleImporter(path, exposing);
      }
    }
    const renamable = renamableType();
    for (const dep of this.dependencies) if (renamable.test(this.raws.get(dep)!) || TRANSPORT.test(this.raws.get(dep)!)) out.add(dep);
    return out;
  }

  /** The statements of an importer that use a name it takes that carries v1, and what they carry on in the module. */
  private settleImporter(path: string, exposing: ReadonlyMap<string, ReadonlySet<string>>): void {
    const { shape, carrying } = this.state(path);
    const carried = (name: string) => {
      const imported = shape.imports.get(name);
      const names = imported && exposing.get(this.resolveFrom(path, imported.specifier) ?? '');
      return names !== undefined && (names.has(EVERY_NAME) || names.has(imported!.name) || imported!.name === '*');
    };
    shape.statements.forEach((s, i) => {
      if ([...s.mentions].some(carried)) carrying.add(i);
    });
    this.settle(path);
  }

  /** Whether a specifier may name one of the modules of `stems`: only those are resolved. */
  private mayName(specifier: string, stems: ReadonlySet<string>): boolean {
    const last = specifier.replace(/\/$/, '').split('/').pop()!.replace(/\.[cm]?[jt]sx?$/, '');
    return stems.has(last) || last === '.' || last === '..' || this.exactPaths.has(specifier);
  }

  private state(path: string): ModuleState {
    let state = this.modules.get(path);
    if (!state) this.modules.set(path, (state = { shape: readModuleShape(this.parse(path, readSourceText(this.raws.get(path)!).text)), seeded: new Set(), carrying: new Set() }));
    return state;
  }

  /** The statements of a module that carry v1, and the names its v1 code takes from other modules. */
  private settle(path: string): void {
    const { shape, seeded, carrying } = this.state(path);
    const declaring = new Map(shape.statements.flatMap((s, i) => s.names.map((n) => [n, i] as const)));
    shape.statements.forEach((s, i) => {
      if (this.holdsV1(s.text) || s.names.some((n) => seeded.has(n))) carrying.add(i);
    });
    for (let grew = true; grew; ) {
      grew = false;
      shape.statements.forEach((s, i) => {
        if (carrying.has(i)) return;
        // It uses what carries v1 (and may return it), or it is a type that v1 code uses.
        const uses = [...s.mentions].some((n) => carrying.has(declaring.get(n) ?? -1));
        const usedAsType = s.declaresType && [...carrying].some((c) => s.names.some((n) => shape.statements[c]!.mentions.has(n)));
        if (!uses && !usedAsType) return;
        carrying.add(i);
        grew = true;
      });
    }
    // The v1 code and everything of the module it uses: the names it imports may be its record types.
    const needed = new Set(carrying);
    for (const i of needed) for (const n of shape.statements[i]!.mentions) if (declaring.has(n)) needed.add(declaring.get(n)!);
    for (const i of needed) for (const n of shape.statements[i]!.mentions) if (shape.imports.has(n)) this.seedImport(path, shape.imports.get(n)!);
  }

  private seedImport(from: string, imported: Imported): void {
    const target = this.resolveFrom(from, imported.specifier);
    if (!target || target === from) return;
    this.dependencies.add(target);
    this.seedExport(target, imported.name, new Set());
  }

  /** A name v1 code takes from `path`: the type behind it carries v1 there (found through re-exports). */
  private seedExport(path: string, name: string, seen: Set<string>): void {
    if (seen.has(`${path}\u0000${name}`)) return;
    seen.add(`${path}\u0000${name}`);
    const { shape, seeded } = this.state(path);
    const locals = name === '*' ? [...shape.exports.values()] : [shape.exports.get(name) ?? []].flat();
    const types = locals.filter((local) => !seeded.has(local) && shape.statements.some((s) => s.declaresType && s.names.includes(local)));
    for (const local of types) seeded.add(local);
    if (types.length > 0) this.settle(path);
    for (const [exported, from] of shape.reexports) if (name === '*' || exported === name) this.follow(path, from, seen);
    for (const specifier of shape.reexportsAll) this.follow(path, { specifier, name }, seen);
  }

  private follow(path: string, imported: Imported, seen: Set<string>): void {
    const target = this.resolveFrom(path, imported.specifier);
    if (target) this.seedExport(target, imported.name, seen);
  }

  /** The names each module exports that carry v1, the barrels that hand them on included. */
  private exposingModules(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const [path, { shape, carrying }] of this.modules) {
      const carried = new Set([...carrying].flatMap((i) => shape.statements[i]!.names));
      // An opaque module may export what any of its statements holds: `module.exports = { GROUPS: '/iam/v1/groups' }` declares no name.
      const names = shape.opaque ? (carrying.size > 0 ? [EVERY_NAME] : []) : [...shape.exports].filter(([, local]) => carried.has(local)).map(([exported]) => exported);
      if (names.length > 0) out.set(path, new Set(names));
    }
    // A barrel of a barrel: rounds until no barrel hands on more.
    for (let grew = out.size > 0; grew; ) {
      grew = false;
      const stems = new Set([...out.keys()].flatMap(stemsOf));
      for (const [path, raw] of this.raws) {
        if (![...raw.matchAll(REEXPORT)].some((m) => this.mayName(m[1]!, stems))) continue;
        const names = this.handedOn(path, out);
        const known = out.get(path) ?? new Set<string>();
        if ([...names].some((n) => !known.has(n))) grew = Boolean(out.set(path, new Set([...known, ...names])));
      }
    }
    return out;
  }

  /** The names a barrel re-exports from modules that carry v1, and that carry it there. */
  private handedOn(path: string, exposing: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
    const { shape } = this.state(path);
    const out = new Set<string>();
    const carries = (target: string | undefined, name: string) => target !== undefined && [name, EVERY_NAME].some((n) => exposing.get(target)?.has(n));
    for (const [exported, from] of shape.reexports) {
      const target = this.resolveFrom(path, from.specifier);
      if (from.name === '*' ? exposing.has(target ?? '') : carries(target, from.name)) out.add(exported);
    }
    for (const specifier of shape.reexportsAll) {
      const target = this.resolveFrom(path, specifier);
      for (const name of (target && exposing.get(target)) ?? []) if (name !== 'default') out.add(name);
    }
    return out;
  }

  /** Whether a file imports a name that carries v1, or a whole module that exports one. */
  private takesV1(path: string, raw: string, exposing: ReadonlyMap<string, ReadonlySet<string>>, stems: ReadonlySet<string>): boolean {
    const names = (specifier: string) => (this.mayName(specifier, stems) ? exposing.get(this.resolveFrom(path, specifier) ?? '') : undefined);
    const takes = (carried: ReadonlySet<string>, taken: Iterable<string>) => carried.has(EVERY_NAME) || [...taken].some((n) => carried.has(n));
    const readsOf = (specifier: string, carried: ReadonlySet<string>) => {
      const members = membersRead(path, raw, specifier);
      return !members || takes(carried, members);
    };
    for (const m of raw.matchAll(WHOLE_IMPORT)) {
      const carried = names(m[1]!);
      if (carried && readsOf(m[1]!, carried)) return true;
    }
    for (const m of raw.matchAll(IMPORT_CLAUSE)) {
      const carried = names(m[2]!);
      if (!carried) continue;
      const taken = clauseNames(m[1]!);
      if (takes(carried, taken) || (taken.includes('*') && readsOf(m[2]!, carried))) return true;
    }
    return false;
  }
}
