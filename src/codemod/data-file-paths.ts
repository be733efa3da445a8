/**
 * v1 paths kept in data and settings files (`endpoints.json`, `.env`, a YAML config): the code that
 * reads them there cannot be connected to them, so nothing of the run migrates them, and on v2 their
 * requests fail. Each such file gets one review item, on the line of its first v1 path, saying how
 * many lines hold one. A file a test names is a recording of answers: the run migrates it with the
 * test that loads it (data-files.ts), and notes that test's calls where it cannot. migrate-v2's
 * own files (its config, the reports it wrote) are not the program's.
 */
import { readFileSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import { hasV1Path, rewriteV1Paths, v1Prefixes } from '../contract/index.js';
import type { Shard } from '../commands/options.js';
import { CONFIG_FILE } from './config.js';
import { DOUBLES, type FileOutcome } from './engine.js';

/** The path a line names, from its v1 prefix on (`/iam/v1/groups`). */
function v1PathIn(line: string): string {
  for (const prefix of v1Prefixes()) {
    const at = line.indexOf(prefix.slice(1));
    if (at >= 0) return (line.slice(at).match(/^[\w./{}=*-]+/)?.[0] ?? prefix).replace(/^(?!\/)/, '/');
  }
  return v1Prefixes()[0]!;
}

function reviewOf(raw: string): FileOutcome['review'] {
  const lines = raw.split('\n').flatMap((text, i) => (hasV1Path(text) ? [{ text, line: i + 1 }] : []));
  if (lines.length === 0) return [];
  const first = v1PathIn(lines[0]!.text);
  const count = lines.length === 1 ? '' : `, on ${lines.length} lines`;
  const why = `this file holds v1 paths (first: ${first}${count}), which the code reading it from here goes on asking for: migrate-v2 does not connect that code to this file; move them to v2 (${rewriteV1Paths(first)}) together with the code that reads them`;
  return [{ line: lines[0]!.line, why, transform: 'paths' }];
}

const TEST_NAME = /(?:\.(?:test|spec)\.[cm]?[jt]sx?$)|(?:^|[/\\])__tests__[/\\]/;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** migrate-v2's config, or a report it wrote (which quotes v1 paths in its notes). */
function isOwnFile(path: string, raw: string): boolean {
  return basename(path) === CONFIG_FILE || /^\s*\{\s*"tool":\s*"migrate-v2"/.test(raw.slice(0, 200));
}

/** The shard (1 to `count`) of a file by its path relative to the run: the same in every shard, whatever else the tree holds. */
function shardOf(relativePath: string, count: number): number {
  let hash = 2166136261;
  for (let i = 0; i < relativePath.length; i++) hash = Math.imul(hash ^ relativePath.charCodeAt(i), 16777619);
  return ((hash >>> 0) % count) + 1;
}

/**
 * The outcomes of the data files given that hold v1 paths and that no test of `sources` names; with
 * --shard, each file is one shard's, by a hash of its relative path, so every shard decides alike.
 */
export function dataFileOutcomes(files: readonly string[], sources: readonly string[], cwd: string, shard?: Shard): FileOutcome[] {
  let tests: string[] | undefined;
  const namedByATest = (path: string) => {
    tests ??= sources.flatMap((s) => {
      const raw = read(s);
      return raw !== undefined && (TEST_NAME.test(s) || DOUBLES.test(raw)) ? [raw] : [];
    });
    return tests.some((raw) => raw.includes(basename(path)));
  };
  return files.flatMap((path) => {
    const rel = relative(cwd, path).split(sep).join('/');
    if (shard && shardOf(rel, shard.count) !== shard.index) return [];
    const raw = read(path);
    const review = raw !== undefined && hasV1Path(raw) && !isOwnFile(path, raw) ? reviewOf(raw) : [];
    if (review.length === 0 || namedByATest(path)) return [];
    return [{ path, relative: rel, before: '', after: '', changed: false, review }];
  });
}
