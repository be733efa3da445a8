/**
 * JSON files a test loads as recorded platform answers. They join a run only through the code that
 * loads them, never by scanning: an `import x from './a.json' with { type: 'json' }`, a
 * `require('./a.json')`, or `JSON.parse(readFileSync(...))` of a path built beside the test
 * (`new URL('./a.json', import.meta.url)`, `join(__dirname, 'a.json')`). A recording keys answers
 * by request line (`"GET /iam/v1/groups?name=acme": { "status": 200, "body": {...} }`); each entry
 * is a stub of that route.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { READS_A_FILE } from './files-read-back.js';
import { apiPathPrefixes, hasV1Path, type HttpMethod } from '../contract/index.js';
import type { Reply } from './double-replies.js';
import { nodesOf } from './file-nodes.js';
import { unwrap, type StaticText } from './static-text.js';

/** What the engine lets the analysis read of JSON files. */
export interface DataAccess {
  read(path: string): string | undefined;
  /** Files of the run the analysis does not read that name the file (they may load it for something else). */
  otherLoaders(path: string): string[];
}

export const NO_DATA: DataAccess = { read: () => undefined, otherLoaders: () => [] };

export interface DataFile {
  path: string;
  raw: string;
  sf: ts.SourceFile;
  root: ts.Expression;
  /** The code that loads it, in the files the analysis reads. */
  loads: ts.Node[];
}

/** An entry of a recording: the route its key names, and the answer it holds. */
export interface RecordedRoute {
  kind: 'entry';
  node: ts.PropertyAssignment;
  key: ts.StringLiteral;
  method: HttpMethod;
  /** The request's path and query, as the key gives them. */
  target: string;
  replies: Reply[];
  data: DataFile;
}

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/;

/** The directory of the file a node stands in, as a `__dirname`, `import.meta.dirname` or `dirname(fileURLToPath(import.meta.url))` gives it. */
function isHere(e: ts.Expression): boolean {
  const n = unwrap(e);
  const source = n.getText();
  return source === '__dirname' || source === 'import.meta.dirname' || /^(path\.)?dirname\(\s*fileURLToPath\(\s*import\.meta\.url\s*\)\s*\)$/.test(source);
}

/** The file a path expression names, when it is built beside the loading file. */
function staticPath(e: ts.Expression, here: string): string | undefined {
  const n = unwrap(e);
  if (ts.isCallExpression(n) && /^(fileURLToPath|url\.fileURLToPath)$/.test(n.expression.getText()) && n.arguments[0]) return staticPath(n.arguments[0], here);
  if (ts.isNewExpression(n) && n.expression.getText() === 'URL' && n.arguments?.length === 2 && ts.isStringLiteralLike(n.arguments[0]!) && n.arguments[1]!.getText() === 'import.meta.url') {
    return fileURLToPath(new URL(n.arguments[0].text, `file://${here}/`));
  }
  if (ts.isCallExpression(n) && /^(path\.)?(join|resolve)$/.test(n.expression.getText())) {
    const [first, ...rest] = n.arguments;
    if (!first || !isHere(first) || !rest.every(ts.isStringLiteralLike)) return undefined;
    return join(here, ...rest.map((r) => (r as ts.StringLiteralLike).text));
  }
  return undefined;
}

/** The JSON file a call loads: `require('./a.json')`, `JSON.parse(readFileSync(path, ...))`, `import('./a.json', ...)`. */
function loadedBy(call: ts.CallExpression, here: string): string | undefined {
  const callee = call.expression.getText();
  const [first] = call.arguments;
  if (!first) return undefined;
  if ((callee === 'require' || call.expression.kind === ts.SyntaxKind.ImportKeyword) && ts.isStringLiteralLike(first) && first.text.startsWith('.')) return resolve(here, first.text);
  if (callee === 'JSON.parse') {
    const read = unwrap(first);
    const inner = ts.isCallExpression(read) && READS_A_FILE.test(read.expression.getText()) ? read : undefined;
    return inner?.arguments[0] ? staticPath(inner.arguments[0], here) : undefined;
  }
  return undefined;
}

const isJson = (path: string | undefined): path is string => Boolean(path?.endsWith('.json'));

/**
 * The JSON file a name or a call of a test gives, when it gives one: the name of an import of it,
 * a constant holding a load, or the load itself.
 */
export function jsonLoadOf(node: ts.Node, text: StaticText): { path: string; load: ts.Node } | undefined {
  const here = dirname(node.getSourceFile().fileName);
  if (ts.isCallExpression(node)) {
    const path = loadedBy(node, here);
    return isJson(path) ? { path, load: node } : undefined;
  }
  if (!ts.isIdentifier(node)) return undefined;
  let imported: ts.Node | undefined = text.importOf(node);
  while (imported && !ts.isImportDeclaration(imported)) imported = imported.parent;
  if (imported && ts.isStringLiteral(imported.moduleSpecifier) && imported.moduleSpecifier.text.startsWith('.')) {
    const path = resolve(here, imported.moduleSpecifier.text);
    return isJson(path) ? { path, load: imported } : undefined;
  }
  const d = text.declarationOf(node);
  const init = d && ts.isVariableDeclaration(d) && d.initializer ? unwrap(d.initializer) : undefined;
  return init && ts.isCallExpression(init) ? jsonLoadOf(init, text) : undefined;
}

/** Every JSON load of a file: imports of a `.json` module, and load calls. */
export function jsonLoadsIn(sf: ts.SourceFile): { path: string; load: ts.Node }[] {
  const here = dirname(sf.fileName);
  const out: { path: string; load: ts.Node }[] = [];
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('.') && s.moduleSpecifier.text.endsWith('.json')) out.push({ path: resolve(here, s.moduleSpecifier.text), load: s });
  }
  for (const node of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
    const path = loadedBy(node, here);
    if (isJson(path)) out.push({ path, load: node });
  }
  return out;
}

/** Parses a JSON file with positions, as the codemod edits it; undefined when it is no JSON value. */
export function parseData(path: string, raw: string): DataFile | undefined {
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JSON);
  const statement = sf.statements[0];
  if ((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length > 0 || !statement || !ts.isExpressionStatement(statement)) return undefined;
  return { path, raw, sf, root: statement.expression, loads: [] };
}

/** The recorded routes of a JSON file: members keyed by a request line with a v1 path, anywhere in it. */
export function recordedRoutes(data: DataFile): RecordedRoute[] {
  const out: RecordedRoute[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name)) {
      const line = REQUEST_LINE.exec(node.name.text);
      if (line && hasV1Path(line[2]!)) {
        out.push({ kind: 'entry', node, key: node.name, method: line[1] as HttpMethod, target: line[2]!, replies: [recordedReply(node.initializer)], data });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(data.root);
  return out;
}

/** Whether a JSON file keys answers by request lines of the platform, in either version: a recording. */
export function isRecording(data: DataFile): boolean {
  const prefixes = apiPathPrefixes();
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    const line = ts.isPropertyAssignment(node) && ts.isStringLiteral(node.name) ? REQUEST_LINE.exec(node.name.text) : null;
    if (line && prefixes.some((p) => line[2]!.startsWith(p))) found = true;
    else ts.forEachChild(node, visit);
  };
  visit(data.root);
  return found;
}

/** `{ "status": 200, "body": ... }`, or the body alone. */
function recordedReply(value: ts.Expression): Reply {
  if (ts.isObjectLiteralExpression(value)) {
    const member = (name: string) => value.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isStringLiteral(p.name) && p.name.text === name)?.initializer;
    const status = member('status');
    const body = member('body');
    if (status && ts.isNumericLiteral(status)) return { status, code: Number(status.text), ...(body ? { body } : {}), form: { kind: 'entry', entry: value } };
  }
  return { body: value, code: 200, form: { kind: 'entry' } };
}
