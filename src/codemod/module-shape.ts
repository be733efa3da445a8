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
    else if (readRequire(statement, shape.imports)) continue;
    else {
      const names = declaredNames(statement);
      readExports(statement, shape, names);
      const declaresType = ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement);
      shape.statements.push({ names, declaresType, mentions: identifiersIn(statement, new Set()), text: statement.getText(sf) });
    }
  }
  const commonJs = shape.exports.size + shape.reexports.size + shape.reexportsAll.length === 0 && /\bmodule\.exports\b|\bexports\.[\w$]+\s*=/.test(sf.text);
  shape.opaque = commonJs && !readCommonJsExports(sf, shape.exports);
  return shape;
}

/**
 * `module.exports = { getJson, list: listAll }`, `exports.getJson = getJson`: a CommonJS module that
 * exports its own top-level names, each by name, as an ES module would. False (nothing read) where
 * any assignment to its exports is something else (a function written in place, `module.exports =
 * fn`, an export made in a function): what it exports then cannot be told by name.
 */
function readCommonJsExports(sf: ts.SourceFile, exports: Map<string, string>): boolean {
  const found = new Map<string, string>();
  let plain = true;
  const visit = (node: ts.Node): void => {
    if (!plain) return;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && exportsTarget(node.left)) {
      const top = ts.isExpressionStatement(node.parent) && node.parent.parent === sf;
      const target = exportsTarget(node.left)!;
      if (!top) plain = false;
      else if (target === 'module.exports' && ts.isObjectLiteralExpression(node.right)) {
        for (const p of node.right.properties) {
          if (ts.isShorthandPropertyAssignment(p)) found.set(p.name.text, p.name.text);
          else if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && ts.isIdentifier(p.initializer)) found.set(p.name.text, p.initializer.text);
          else plain = false;
        }
      } else if (target !== 'module.exports' && ts.isIdentifier(node.right)) found.set(target, node.right.text);
      else plain = false;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!plain || found.size === 0) return false;
  for (const [name, local] of found) exports.set(name, local);
  return true;
}

/**
 * `const { getJson, list: listAll } = require('./api')`, `const api = require('./api')`: CommonJS's
 * imports, read as an ES import of the same names. False for any other statement.
 */
export function readRequire(statement: ts.Statement, imports: Map<string, Imported>): boolean {
  if (!ts.isVariableStatement(statement) || statement.declarationList.declarations.length !== 1) return false;
  const d = statement.declarationList.declarations[0]!;
  const call = d.initializer;
  const specifier = call && ts.isCallExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === 'require' && call.arguments.length === 1 && ts.isStringLiteral(call.arguments[0]!) ? call.arguments[0].text : undefined;
  if (!specifier) return false;
  if (ts.isIdentifier(d.name)) {
    imports.set(d.name.text, { specifier, name: '*' });
    return true;
  }
  if (!ts.isObjectBindingPattern(d.name) || d.name.elements.some((e) => e.dotDotDotToken || !ts.isIdentifier(e.name) || (e.propertyName && !ts.isIdentifier(e.propertyName)))) return false;
  for (const e of d.name.elements) imports.set((e.name as ts.Identifier).text, { specifier, name: (e.propertyName ?? e.name).getText() });
  return true;
}

/** `module.exports` itself, or the name `exports.x` and `module.exports.x` export. */
export function exportsTarget(e: ts.Expression): string | undefined {
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  const owner = e.expression.getText();
  if (owner === 'module' && e.name.text === 'exports') return 'module.exports';
  return owner === 'exports' || owner === 'module.exports' ? e.name.text : undefined;
}
