/**
 * Records a program writes to a file and reads back itself (a snapshot, a cache, a lock file):
 * `writeFileSync(FILE, JSON.stringify(groups))` and, in the same run of the program or the next,
 * `JSON.parse(readFileSync(FILE, 'utf8'))`. The file holds the keys the records were written with,
 * so once their call migrates a file written before it holds v1's and one written after v2's, and
 * the reads of it (which the flow does not follow: parsed text is no API answer) keep one of them.
 */
import { ts } from 'ts-morph';
import type { DataFlow, Shape } from './data-flow.js';
import { nodesOf } from './file-nodes.js';
import { unwrap } from './static-text.js';
import type { V1Call } from './v1-calls.js';

const WRITES = /(^|\.)(writeFileSync|writeFile|appendFileSync|appendFile)$/;
/** A call that reads a file: `readFileSync`, `fs.promises.readFile`. */
export const READS_A_FILE = /(^|\.)(readFileSync|readFile)$/;

export interface ReadBack {
  call: V1Call;
  /** The write, and a read of the same file. */
  write: ts.CallExpression;
  read: ts.CallExpression;
  /** The path the write is handed. */
  path: ts.Expression;
}

/** What names a file: the declaration of the constant or variable holding its path, or the text of the path written in place. */
function fileKey(path: ts.Expression | undefined, declarationOf: (n: ts.Node) => ts.Declaration | undefined): ts.Node | string | undefined {
  const n = path && unwrap(path);
  if (!n) return undefined;
  return (ts.isIdentifier(n) ? declarationOf(n) : undefined) ?? n.getText().replace(/\s+/g, '');
}

/** The records a write's data holds: `JSON.stringify(groups)`, `JSON.stringify({ savedAt, groups })`, `groups` itself. */
function recordsInWrite(data: ts.Expression | undefined, shapeOf: (e: ts.Expression) => Shape | undefined): Shape | undefined {
  let n = data && unwrap(data);
  if (n && ts.isCallExpression(n) && n.expression.getText() === 'JSON.stringify') n = n.arguments[0] && unwrap(n.arguments[0]);
  if (!n) return undefined;
  const shape = shapeOf(n);
  if (shape && 'resource' in shape && shape.call) return shape;
  if (!ts.isObjectLiteralExpression(n)) return undefined;
  for (const p of n.properties) {
    const value = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
    const held = value && shapeOf(value);
    if (held && 'resource' in held && held.call) return held;
  }
  return undefined;
}

/** Every write of a call's records to a file that one of `files` reads back. */
export function recordsReadBack(files: readonly { sf: ts.SourceFile; flow: DataFlow }[], declarationOf: (n: ts.Node) => ts.Declaration | undefined): ReadBack[] {
  const reads = new Map<ts.Node | string, ts.CallExpression>();
  // Most files read and write no file: their calls are not looked at.
  for (const { sf } of files.filter(({ sf }) => sf.text.includes('readFile'))) {
    for (const call of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
      const key = READS_A_FILE.test(call.expression.getText(sf)) ? fileKey(call.arguments[0], declarationOf) : undefined;
      if (key !== undefined && !reads.has(key)) reads.set(key, call);
    }
  }
  if (reads.size === 0) return [];
  const out: ReadBack[] = [];
  for (const { sf, flow } of files.filter(({ sf }) => /writeFile|appendFile/.test(sf.text))) {
    for (const write of nodesOf(sf).of<ts.CallExpression>(ts.SyntaxKind.CallExpression)) {
      if (!WRITES.test(write.expression.getText(sf))) continue;
      const key = fileKey(write.arguments[0], declarationOf);
      const read = key === undefined ? undefined : reads.get(key);
      const shape = read && recordsInWrite(write.arguments[1], (e) => flow.shapeOf(e));
      if (read && shape && 'call' in shape && shape.call) out.push({ call: shape.call, write, read, path: write.arguments[0]! });
    }
  }
  return out;
}
