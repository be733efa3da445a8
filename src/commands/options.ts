/** Reading the flags the commands share: whole numbers in a range, http(s) URLs, the format of a report file and its bound. */
import { availableParallelism } from 'node:os';
import { extname, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import type { ReportFile } from '../report/report-files.js';

/** An http(s) URL without credentials and without its trailing slashes. */
export function httpUrl(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http(s) URL, got "${text}"`);
  if (url.username || url.password) throw new UsageError(`${flag} must not carry credentials; tokens have flags of their own`);
  return text.replace(/\/+$/, '');
}

export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

/** `md` or `json`, by --format or the file name's extension. */
export function reportFormat(path: string, format: string | undefined): 'md' | 'json' {
  const named = extname(path).slice(1);
  // JSON written into a .md (or markdown into a .json) is a mistake to refuse, not to carry out.
  if (format && /^(md|markdown|json)$/.test(named) && (named === 'json') !== (format === 'json')) {
    throw new UsageError(`--report ${path} --format ${format}: the file name says ${named}; name a .${format} file or drop --format`);
  }
  const chosen = format ?? named;
  if (chosen === 'md' || chosen === 'markdown') return 'md';
  if (chosen === 'json') return 'json';
  throw new UsageError(`--report ${path}: name a .md or .json file, or give --format md|json`);
}

/** Where `migrate-v2 emulator` listens unless --port says otherwise. */
export const DEFAULT_EMULATOR_PORT = 4780;

/** GitHub refuses a pull-request comment longer than this: the default bound of a markdown report. */
export const COMMENT_MAX_CHARS = 65_536;

/** --report-max-chars; the least leaves room for a report's summary and every note on what was cut. */
export function reportMaxChars(text: string | undefined): number {
  return wholeNumber('--report-max-chars', text ?? String(COMMENT_MAX_CHARS), 10_000, 100_000_000);
}

/** One part of a run split for a CI matrix: `index` of `count`, counted from 1 as matrices count. */
export interface Shard {
  index: number;
  count: number;
  /**
   * What every shard of one run shares, as the command was given it (paths, transforms, kinds...):
   * merge-reports refuses shards that differ, whose union would not be any run.
   */
  run?: Record<string, string>;
}

/** A path as a shard's report records it: relative to where the command runs, with forward slashes. */
export function runRelative(cwd: string, path: string): string {
  return relative(cwd, resolve(cwd, path)).split(sep).join('/') || '.';
}

/** --shard I/N, as a matrix writes it (`--shard 2/4`). */
export function shardOption(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard must be I/N with 1 <= I <= N (such as 2/4), got "${text}"`);
  return { index, count };
}

/** More threads than this gain nothing on any machine the codemod runs on, and each costs memory. */
const MAX_JOBS = 64;

/**
 * --jobs N: the threads a large codemod run may use; by default one per core, on three cores or
 * more. On two cores a second thread saved under 10% of the wall time of the bench's 5,000- and
 * 20,000-file runs for 25% more CPU and 250-400 MB more memory (a compiler and a lib program per
 * thread), which took the 20,000-file run over 1 GB: there the default is one thread.
 */
export function jobsOption(text: string | undefined): number {
  const cores = availableParallelism();
  return text === undefined ? (cores > 2 ? Math.min(cores, MAX_JOBS) : 1) : wholeNumber('--jobs', text, 1, MAX_JOBS);
}

/** True for --format github: annotations on stdout, which --json would also write. */
export function githubFormat(format: string | undefined, json: boolean | undefined): boolean {
  if (format === 'github' && json) throw new UsageError('--format github and --json both write stdout: choose one');
  return format === 'github';
}

/** --report FILE (repeatable) with --format: each file's format. `--format github` is for stdout, so the file names say theirs. */
export function reportFiles(paths: readonly string[] | undefined, format: string | undefined): ReportFile[] {
  return (paths ?? []).map((path) => ({ path, format: reportFormat(path, format === 'github' ? undefined : format) }));
}
