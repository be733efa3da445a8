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

/** What a file imports of the selection: by default its relative imports. */
export type ImportReader = (path: string, raw: string) => string[];

/** Groups of candidate files connected by imports among them (relative ones, unless `importsOfFile` says otherwise), each sorted, in no particular order. */
export function importComponents(raws: ReadonlyMap<string, string>, candidates: ReadonlySet<string>, importsOfFile?: ImportReader): string[][] {
  const parent = new Map([...candidates].map((p) => [p, p]));
  const root = (p: string): string => {
    let r = p;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(p, r);
    return r;
  };
  const byStem = stemIndex(raws);
  for (const path of candidates) {
    const deps = importsOfFile ? importsOfFile(path, raws.get(path)!) : importsOf(path, raws.get(path)!, byStem);
    for (const dep of deps) if (candidates.has(dep)) parent.set(root(dep), root(path));
  }
  const groups = new Map<string, string[]>();
  for (const path of candidates) {
    const group = groups.get(root(path));
    if (group) group.push(path);
    else groups.set(root(path), [path]);
  }
  return [...groups.values()].map((g) => g.sort());
}

/** A file that names a JSON file: it may load a recording. */
const JSON_FILE_NAME = /\.json['"`]/;

/**
 * The groups of candidates that are analysed together (in one batch, one part of a --jobs run):
 * import components, and every candidate that names a JSON file in one group, since a recording is
 * migrated by all the code that loads it and a loader analysed apart would be taken for code the
 * run does not read.
 */
export function analysedTogether(raws: ReadonlyMap<string, string>, candidates: ReadonlySet<string>, importsOfFile?: ImportReader): string[][] {
  const groups = importComponents(raws, candidates, importsOfFile);
  const loadsData = (group: readonly string[]) => group.some((path) => JSON_FILE_NAME.test(raws.get(path)!));
  const loaders = groups.filter(loadsData).flat().sort();
  return [...groups.filter((g) => !loadsData(g)), ...(loaders.length > 0 ? [loaders] : [])];
}
