/**
 * The codemod bench's floor: reads and parses every source file under a folder with the TypeScript
 * parser (parents set, as the codemod's programs parse), and nothing else. Prints one JSON line, as
 * codemod-child does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';

const dir = process.argv[2]!;
let scanned = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (!entry.isFile() || !/\.[cm]?[jt]sx?$/.test(entry.name) || path.includes('/node_modules/')) continue;
  ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  scanned += 1;
}
process.stdout.write(`${JSON.stringify({ summary: { scanned, changed: 0, review: 0 } })}\n`);
