/**
 * A reference beside the codemod bench's floor: reads every source file under a folder, as a dry run
 * does, and type-checks whole the files that hold a v1 path (the codemod's prefilter), with the
 * folder's tsconfig, as `tsc --noEmit` would over them alone. It is the work of checking the files a
 * typed run changes, once, before any analysis or self-check. Prints one JSON line, as codemod-child does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import { hostWithTexts, readTsconfig } from '../src/codemod/program.js';
import { mayCallV1 } from '../src/contract/index.js';

const dir = process.argv[2]!;
const sources: string[] = [];
let scanned = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (!entry.isFile() || !/\.[cm]?[jt]sx?$/.test(entry.name) || path.includes('/node_modules/')) continue;
  scanned += 1;
  if (mayCallV1(readFileSync(path, 'utf8'))) sources.push(path);
}
// The codemod's compiler, lib files and tsconfig reading; the tsconfig's declaration files (global types) are roots, as in its programs.
const { options, declarations } = readTsconfig(join(dir, 'tsconfig.json'));
const program = ts.createProgram({ rootNames: [...sources, ...declarations], options, host: hostWithTexts(options, () => undefined) });
const errors = sources.reduce((n, path) => n + ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).length, 0);
process.stdout.write(`${JSON.stringify({ summary: { scanned, changed: 0, review: 0, checked: sources.length, errors } })}\n`);
