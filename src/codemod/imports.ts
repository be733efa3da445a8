/**
 * Relative imports read from a file's text, without a program: which files of a selection a file
 * imports (`./lib/transport.js` naming `lib/transport.ts`). Used where no module resolution is at
 * hand: the prefilter, shards, and the files a test stubs the calls of.
 */
import { dirname, resolve } from 'node:path';

const IMPORT_SPECIFIER = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function withoutExtension(path: string): string {
  return path.replace(/\.(d\.)?[cm]?[jt]sx?$/, '').replace(/\/index$/, '');
}

/** The files of the selection by path without extension, as relative imports name them. */
export function stemIndex(raws: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...raws.keys()].map((p) => [withoutExtension(p), p]));
}

/** The files of the selection a file imports by a relative path. */
export function importsOf(path: string, raw: string, byStem: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const m of raw.matchAll(IMPORT_SPECIFIER)) {
    const target = byStem.get(withoutExtension(resolve(dirname(path), m[1]!)));
    if (target) out.push(target);
  }
  return out;
}
