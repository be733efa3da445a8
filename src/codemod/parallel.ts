/**
 * `--jobs N`: a large codemod run split over worker threads, with the output of a run on one thread.
 * The main thread reads every file once and splits the prefilter's candidates as `--shard` does
 * (files that change together stay in one part); each worker runs the codemod over every file with
 * the texts it is sent, analysing its part only, and the main thread puts the parts' outcomes
 * together in the single run's order. A part that would change or note a file another part owns (its
 * types reached through the type checker, not a relative import) makes the run start again on one
 * thread: the output is the single run's either way. Nothing is written here: `--write` writes after
 * the run, every file or none, as without --jobs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TRANSFORMS } from '../../codemods/index.js';
import { UsageError } from '../errors.js';
import type { CodemodConfig } from './config.js';
import { candidateFiles, runCodemod, type CodemodOptions, type CodemodRun, type FileOutcome } from './engine.js';
import { addTypeChecks, type TypeCheckSummary } from './self-check.js';
import { isReported } from './report.js';
import { analysedTogether } from './imports.js';
import { assignShards } from './shards.js';
import type { Transform } from './transform.js';

/**
 * Fewer candidate files than this run on one thread. Measured on two cores over the bench's typed
 * monorepo, when each part still ran the prefilter: a part cost about 3 s of CPU before its first
 * file (the compiler loaded, the lib files parsed and bound, every text read; about 1 s since it
 * takes its files from the main thread), and a candidate about 40 ms; a second part paid for itself
 * from about 150 candidates (with 139 the run on two threads was slower).
 */
export const MIN_CANDIDATES_FOR_JOBS = 200;

/** What a worker is sent: every file of the run and its text, and the candidates its part analyses. */
export interface PartJob {
  files: readonly string[];
  texts: ReadonlyMap<string, string>;
  part: readonly string[];
  cwd: string;
  transforms: readonly string[];
  tsconfig?: string;
  config?: CodemodConfig;
}

/** What a worker sends back: progress as it goes, then the outcomes the report lists, or its error. */
export type PartMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; outcomes: FileOutcome[]; analysed: string[]; typeCheck?: TypeCheckSummary }
  | { kind: 'failed'; message: string; usage: boolean; stack?: string };

type PartDone = Extract<PartMessage, { kind: 'done' }>;

/** The worker's entry: beside this module once built; when this module runs from the sources (vitest), the build's. */
function workerEntry(): URL | undefined {
  const here = import.meta.url;
  const entry = here.endsWith('.ts') ? new URL('../../dist/src/codemod/parallel-worker.js', here) : new URL('./parallel-worker.js', here);
  return existsSync(fileURLToPath(entry)) ? entry : undefined;
}

/** The texts of the files that can be read; a file that cannot is reported by the run that owns it. */
function readTexts(files: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const path of files) {
    try {
      texts.set(resolve(path), readFileSync(path, 'utf8'));
    } catch {
      // Read again, and reported, by the part that owns it.
    }
  }
  return texts;
}

/** One part of a run, on this thread: what a part sends back. */
export function codemodPart(job: PartJob, progress: (done: number, total: number) => void): PartDone {
  const transforms = job.transforms.map((name) => TRANSFORMS.find((t) => t.name === name)!);
  const run = runCodemod(job.files, transforms, job.cwd, {
    texts: job.texts,
    selected: new Set(job.part),
    progress,
    ...(job.tsconfig ? { tsconfig: job.tsconfig } : {}),
    ...(job.config ? { config: job.config } : {}),
  });
  return { kind: 'done', outcomes: run.files.filter(isReported), analysed: run.analysed ?? [], ...(run.typeCheck ? { typeCheck: run.typeCheck } : {}) };
}

/** One part of a run in a worker thread of its own. */
function workerPart(entry: URL, job: PartJob, progress: (done: number, total: number) => void, started: (worker: Worker) => void): Promise<PartDone> {
  return new Promise((resolvePart, reject) => {
    // V8's default heap limits: on the 5,000-file bench a young generation of 16 or 96 MB (48 by
    // default) changed neither the peak RSS nor the CPU time, and an old generation of 350 MB ran out.
    const worker = new Worker(entry, { workerData: job });
    started(worker);
    let settled = false;
    worker.on('message', (message: PartMessage) => {
      if (message.kind === 'progress') return progress(message.done, message.total);
      settled = true;
      if (message.kind === 'done') return resolvePart(message);
      reject(partError(message));
    });
    worker.on('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`a --jobs worker stopped (exit code ${code}) before it finished its part`));
    });
  });
}

/** A worker's error as the single run would have thrown it: a user's mistake as one line, a bug with its stack. */
function partError(failed: Extract<PartMessage, { kind: 'failed' }>): Error {
  if (failed.usage) return new UsageError(failed.message);
  const error = new Error(failed.message);
  if (failed.stack) error.stack = failed.stack;
  return error;
}

/** What a part says of a file: two parts that say the same of it agree. */
const verdict = (o: FileOutcome) => JSON.stringify([o.changed, o.error, o.review, o.after]);

/**
 * Whether the parts ran apart, as the single run would have: no part read a file that another part
 * changes (a type it reads, a module it type-checks, a recording it loads).
 */
function apart(done: readonly PartDone[]): boolean {
  const changer = new Map<string, number>();
  done.forEach((d, i) => d.outcomes.forEach((o) => o.changed && changer.set(resolve(o.path), i)));
  return done.every((d, i) => d.analysed.every((path) => (changer.get(path) ?? i) === i));
}

/**
 * The outcomes of the whole run: of each file, what the parts that report it say (they report the
 * files the report lists). Undefined when the parts did not run apart, or two say different things
 * of a file: then the single run might say a third.
 */
function mergeParts(files: readonly string[], texts: ReadonlyMap<string, string>, done: readonly PartDone[], cwd: string): FileOutcome[] | undefined {
  if (!apart(done)) return undefined;
  const outcomes = new Map<string, FileOutcome>();
  for (const outcome of done.flatMap((d) => d.outcomes)) {
    const path = resolve(outcome.path);
    const said = outcomes.get(path);
    if (said && verdict(said) !== verdict(outcome)) return undefined;
    outcomes.set(path, outcome);
  }
  // Every other file is as it was read: the parts send only the files the report lists.
  for (const path of files) {
    const raw = texts.get(resolve(path));
    if (!outcomes.has(resolve(path)) && raw !== undefined) outcomes.set(resolve(path), { path, relative: relative(cwd, path).split(sep).join('/'), before: raw, after: raw, changed: false, review: [] });
  }
  return [...outcomes.values()].sort((a, b) => (a.relative < b.relative ? -1 : 1));
}

/**
 * The codemod run over `jobs` threads when it is large enough to pay for them, else on this one.
 * Its outcomes are those of `runCodemod` with the same arguments.
 */
export async function runCodemodJobs(files: readonly string[], transforms: readonly Transform[], cwd: string, options: CodemodOptions, jobs: number): Promise<CodemodRun> {
  const entry = workerEntry();
  // Transforms are sent by name: a worker can only run the registered ones.
  const known = transforms.every((t) => TRANSFORMS.includes(t));
  if (jobs < 2 || !entry || !known) return runCodemod(files, transforms, cwd, options);
  const started = performance.now();
  const texts = readTexts(files);
  const candidates = candidateFiles(texts, options);
  const selected = options.narrow ? options.narrow(texts, candidates) : candidates;
  const groups = analysedTogether(texts, selected);
  const single = () => runCodemod(files, transforms, cwd, { ...options, texts });
  if (selected.size < MIN_CANDIDATES_FOR_JOBS || groups.length < 2) return single();
  const count = Math.min(jobs, groups.length);
  const owner = assignShards(files, texts, selected, cwd, count, groups);
  const parts = Array.from({ length: count }, (_, i) => [...selected].filter((p) => owner.get(p) === i + 1));
  const remaining = parts.map((part) => part.length);
  // Each part counts its own files down: the run is done with what no part has left.
  const progress = (i: number) => (done: number, total: number) => {
    remaining[i] = total - done;
    options.progress?.(files.length - remaining.reduce((n, r) => n + r, 0), files.length);
  };
  const jobOf = (part: string[]): PartJob => ({
    files,
    texts,
    part,
    cwd,
    transforms: transforms.map((t) => t.name),
    ...(options.tsconfig ? { tsconfig: options.tsconfig } : {}),
    ...(options.config ? { config: options.config } : {}),
  });
  // This thread runs the first part itself: a thread of its own would load the compiler once more, and hold it.
  const workers: Worker[] = [];
  const others = parts.slice(1).map((part, i) => workerPart(entry, jobOf(part), progress(i + 1), (w) => workers.push(w)));
  // Should this thread's part fail, the workers are stopped and what they say then is of no use.
  for (const other of others) other.catch(() => undefined);
  let done: PartDone[];
  try {
    const first = codemodPart(jobOf(parts[0]!), progress(0));
    done = [first, ...(await Promise.all(others))];
  } finally {
    // Settled already unless a part failed: then the others stop where they are.
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const outcomes = mergeParts(files, texts, done, cwd);
  if (!outcomes) return single();
  const typeCheck = done.reduce<TypeCheckSummary | undefined>((sum, d) => (d.typeCheck ? addTypeChecks(sum, d.typeCheck) : sum), undefined);
  return { files: outcomes, ms: performance.now() - started, ...(typeCheck ? { typeCheck } : {}) };
}
