/**
 * A module's top level as the typed scope needs it, read by the parser alone: what each top-level
 * statement declares and names, what the module exports (its own declarations, re-exports) and where
 * each imported binding comes from. No program and no checker: it is read before the program is made.
 */
import { ts } from 'ts-morph';

export interface TopLevelStatement {
  /** The local names it declares; `export default <expression>` declares DEFAULT_EXPORT. */
  names: string[];
  /** It declares a type (interface, type alias, class, enum): a resource type may be one. */
  declaresType: boolean;
  /** Every identifier written in it: which of the module's names it uses. */
  mentions: Set<string>;
  text: string;
}

/** Where a name comes from in another module: `name` is `default`, `*` (the whole module) or an exported name. */
export interface Imported {
  specifier: string;
  name: string;
}

export interface ModuleShape {
  statements: TopLevelStatement[];
  /** Exported name -> the local name behind it. */
  exports: Map<string, string>;
  /** Local binding -> the module and name it imports. */
  imports: Map<string, Imported>;
  /** Exported name -> the module and name it hands on (`export { a as b } from`, `export * as ns from`). */
  reexports: Map<string, Imported>;
  /** `export * from`: every name of these modules but their default. */
  reexportsAll: string[];
  /** CommonJS (`module.exports`, `exports.x`) and no ES exports: what it exports cannot be told by name. */
  opaque: boolean;
}

export const DEFAULT_EXPORT = '#default';

/** Every identifier written in a node. */
export function identifiersIn(node: ts.Node, out: Set<string>): Set<string> {
  if (ts.isIdentifier(node)) out.add(node.text);
  ts.forEachChild(node, (child) => void identifiersIn(child, out));
  return out;
}

function bindingNames(name: ts.BindingName, out: string[] = []): string[] {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, out);
  return out;
}

/** Whether a declaration is written with a modifier (`export`, `static`, `private`, ...). */
export const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** The local names a top-level statement (other than an import) declares. */
export function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => bindingNames(d.name));
  if (ts.isExportAssignment(statement)) return [DEFAULT_EXPORT];
  const name = (statement as { name?: ts.Node }).name;
  if (name && ts.isIdentifier(name)) return [name.text];
  // `export default class {}`: the default export is the statement itself.
  return hasModifier(statement, ts.SyntaxKind.DefaultKeyword) ? [DEFAULT_EXPORT] : [];
}

/** Each local binding of an import, with the module and name it takes. */
export function readImport(statement: ts.ImportDeclaration, imports: Map<string, Imported>): void {
  const clause = statement.importClause;
  if (!clause || !ts.isStringLiteral(statement.moduleSpecifier)) return;
  const specifier = statement.moduleSpecifier.text;
  if (clause.name) imports.set(clause.name.text, { specifier, name: 'default' });
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) imports.set(bindings.name.text, { specifier, name: '*' });
  if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) imports.set(e.name.text, { specifier, name: (e.propertyName ?? e.name).text });
}

type Exports = Pick<ModuleShape, 'exports' | 'reexports' | 'reexportsAll'>;

function readExportList(statement: ts.ExportDeclaration, shape: Exports): void {
  const specifier = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
  const clause = statement.exportClause;
  if (!clause) {
    if (specifier) shape.reexportsAll.push(specifier);
    return;
  }
  if (ts.isNamespaceExport(clause)) {
    if (specifier) shape.reexports.set(clause.name.text, { specifier, name: '*' });
    return;
  }
  for (const e of clause.elements) {
    const local = (e.propertyName ?? e.name).text;
    if (specifier) shape.reexports.set(e.name.text, { specifier, name: local });
    else shape.exports.set(e.name.text, local);
  }
}

/** What a top-level statement adds to its module's exports (`names`: what it declares). */
export function readExports(statement: ts.Statement, shape: Exports, names = declaredNames(statement)): void {
  if (ts.isExportDeclaration(statement)) readExportList(statement, shape);
  else if (ts.isExportAssignment(statement)) shape.exports.set('default', DEFAULT_EXPORT);
  else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) for (const name of names) shape.exports.set(hasModifier(statement, ts.SyntaxKind.DefaultKeyword) ? 'default' : name, name);
}

/** The shape of a module, from its tree. */
export function readModuleShape(sf: ts.SourceFile): ModuleShape {
  const shape: ModuleShape = { statements: [], exports: new Map(), imports: new Map(), reexports: new Map(), reexportsAll: [], opaque: false };
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement)) readImport(statement, shape.imports);
    else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) && ts.isStringLiteral(statement.moduleReference.expression)) {
      shape.imports.set(statement.name.text, { specifier: statement.moduleReference.expression.text, name: '*' });
    }
    else if (ts.isExportDeclaration(statement)) readExports(statement, shape);
    else {
      const names = declaredNames(statement);
      readExports(statement, shape, names);
      const declaresType = ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement);
      shape.statements.push({ names, declaresType, mentions: identifiersIn(statement, new Set()), text: statement.getText(sf) });
    }
  }
  shape.opaque = shape.exports.size + shape.reexports.size + shape.reexportsAll.length === 0 && /\bmodule\.exports\b|\bexports\.[\w$]+\s*=/.test(sf.text);
  return shape;
}
