/**
 * `migrate-v2 [paths...]`: the codemod. A dry run by default (diffs and a summary, nothing written);
 * `--write` applies the changes. Options in, an outcome out; the CLI prints it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ts } from 'ts-morph';
import { TRANSFORMS } from '../../codemods/index.js';
import { findConfig, loadConfig } from '../codemod/config.js';
import { colourDiff, unifiedDiff } from '../codemod/diff.js';
import { findFiles, isDataFile } from '../codemod/files.js';
import { dataFileOutcomes } from '../codemod/data-file-paths.js';
import { reviewAsItWas } from '../codemod/line-changes.js';
import { runCodemodJobs } from '../codemod/parallel.js';
import { buildReport, githubAnnotations, renderMarkdown, reviewLines, summaryLines, summarise, type CodemodReport } from '../codemod/report.js';
import { CodemodShard } from '../codemod/shards.js';
import type { Transform } from '../codemod/transform.js';
import { refuseDirty } from '../codemod/write-files.js';
import { writeAll } from '../codemod/write-all.js';
import { writeAtomically } from '../atomic-write.js';
import { appendStepSummary } from '../report/step-summary.js';
import { jsonReport, writeReports } from '../report/report-files.js';
import { githubFormat, jobsOption, reportFiles, reportMaxChars, runRelative, shardOption } from './options.js';
import { UsageError } from '../errors.js';

export interface MigrateCommandOptions {
  tsconfig?: string;
  config?: string;
  write?: boolean;
  check?: boolean;
  allowDirty?: boolean;
  report?: string[];
  format?: string;
  reportMaxChars?: string;
  patch?: string;
  transforms?: string;
  include?: string[];
  exclude?: string[];
  quiet?: boolean;
  json?: boolean;
  shard?: string;
  jobs?: string;
}

export interface MigrateIo {
  version: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  colour: boolean;
  /** A one-line status, for a live progress line on a terminal. */
  progress?: (line: string) => void;
}

export interface MigrateOutcome {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
  report: CodemodReport;
}

export function listTransforms(): string {
  const width = Math.max(...TRANSFORMS.map((t) => t.name.length));
  return `${TRANSFORMS.map((t) => `${t.name.padEnd(width)}  ${t.description}`).join('\n')}\n`;
}

function chooseTransforms(names: string | undefined): Transform[] {
  if (!names) return [...TRANSFORMS];
  const wanted = names.split(',').map((n) => n.trim()).filter(Boolean);
  for (const name of wanted) {
    if (!TRANSFORMS.some((t) => t.name === name)) throw new UsageError(`--transforms: unknown transform "${name}" (see --list-transforms)`);
  }
  return TRANSFORMS.filter((t) => wanted.includes(t.name));
}

/** --tsconfig as given, else the nearest tsconfig.json (or a JavaScript project's jsconfig.json) at or above the first path; none outside a project. */
function findTsconfig(given: string | undefined, paths: readonly string[], cwd: string): string | undefined {
  if (given) {
    const path = resolve(cwd, given);
    if (!existsSync(path)) throw new UsageError(`--tsconfig ${given}: no such file`);
    return path;
  }
  const first = resolve(cwd, paths[0] ?? '.');
  const from = existsSync(first) && statSync(first).isDirectory() ? first : dirname(first);
  const nearest = [ts.findConfigFile(from, ts.sys.fileExists), ts.findConfigFile(from, ts.sys.fileExists, 'jsconfig.json')].filter((f): f is string => f !== undefined);
  return nearest.sort((a, b) => b.length - a.length)[0];
}

/** What the shards of one codemod run must share: what decides its files and what it does to them. */
function shardedRun(paths: readonly string[] | undefined, o: MigrateCommandOptions, transforms: readonly Transform[], cwd: string, tsconfig: string | undefined, config: string | undefined): Record<string, string> {
  const rel = (path: string) => runRelative(cwd, path);
  return {
    paths: (paths && paths.length > 0 ? paths : ['.']).map(rel).sort().join(' '),
    transforms: transforms.map((t) => t.name).join(','),
    ...(o.include ? { include: o.include.join(' ') } : {}),
    ...(o.exclude ? { exclude: o.exclude.join(' ') } : {}),
    tsconfig: tsconfig ? rel(tsconfig) : 'none',
    ...(config ? { config: rel(config) } : {}),
  };
}

export async function migrateCommand(paths: readonly string[] | undefined, o: MigrateCommandOptions, io: MigrateIo): Promise<MigrateOutcome> {
  const began = performance.now();
  if (o.write && o.check) throw new UsageError('--write and --check do not go together: --check only reports');
  const transforms = chooseTransforms(o.transforms);
  const annotate = githubFormat(o.format, o.json);
  const reports = reportFiles(o.report, o.format);
  const maxChars = reportMaxChars(o.reportMaxChars);
  const shard = shardOption(o.shard);
  const jobs = jobsOption(o.jobs);
  const searched = paths && paths.length > 0 ? paths : ['.'];
  const selection = { ...(o.include ? { include: o.include } : {}), ...(o.exclude ? { exclude: o.exclude } : {}) };
  const files = findFiles(searched, selection, io.cwd);
  const sharding = shard ? new CodemodShard(shard, files, io.cwd) : undefined;
  const started = performance.now();
  let drawn = 0;
  // Only for runs that last, and at most ten times a second: a progress line for a short run is noise.
  const tsconfig = findTsconfig(o.tsconfig, paths ?? [], io.cwd);
  const configFile = findConfig(o.config, paths ?? [], io.cwd);
  const run = await runCodemodJobs(files, transforms, io.cwd, {
    ...(tsconfig ? { tsconfig } : {}),
    ...(configFile ? { config: loadConfig(configFile) } : {}),
    ...(sharding ? { narrow: sharding.narrow } : {}),
    progress: (done, total) => {
      const now = performance.now();
      if (!io.progress || now - started < 1000 || now - drawn < 100) return;
      drawn = now;
      io.progress(`${done}/${total} files · ${((now - started) / 1000).toFixed(1)} s`);
    },
  }, jobs);
  if (sharding) run.files = sharding.keepOwned(run.files);
  // v1 paths in data and settings files (endpoints.json, .env): nothing migrates them; each such file is noted.
  run.files.push(...dataFileOutcomes(findFiles(searched, selection, io.cwd, isDataFile), files, io.cwd, shard));
  // A file that could not be migrated may hold what the others' migration relies on (a type they
  // share): writing the others would leave the project half migrated, so --write writes none.
  const failed = run.files.filter((f) => f.error).length;
  const writing = Boolean(o.write) && failed === 0;
  // A dry run leaves every file as it was: its review items name the lines as they are on disk.
  if (!writing) run.files = run.files.map(reviewAsItWas);
  const changed = run.files.filter((f) => f.changed);
  if (writing) {
    if (!o.allowDirty) refuseDirty(changed.map((f) => f.path));
    writeAll(changed);
  }
  const patch = changed.map(unifiedDiff).join('');
  // The time a user waited: reading, analysis, diffs and writes, not the engine's part alone.
  run.ms = performance.now() - began;
  const report = buildReport(run, io.version, writing, shard && { ...shard, run: shardedRun(paths, o, transforms, io.cwd, tsconfig, configFile) });
  const json = jsonReport(reports);
  const markdown = (bound: number) => renderMarkdown(report, { maxChars: bound, ...(o.patch ? { patch: o.patch } : {}), ...(json ? { json } : {}) });
  if (o.patch) writeAtomically(o.patch, patch);
  writeReports(reports, { json: () => `${JSON.stringify(report, null, 2)}\n`, markdown: () => markdown(maxChars) });
  appendStepSummary(io.env, maxChars, markdown);

  const summary = summarise(run);
  let stdout = '';
  if (o.json) stdout = `${JSON.stringify({ summary, review: report.files.flatMap((f) => f.review.map((r) => ({ path: f.path, ...r }))) }, null, 2)}\n`;
  else if (annotate) stdout = githubAnnotations(report);
  else if (!o.quiet && !o.write) stdout = io.colour ? colourDiff(patch) : patch;
  const review = reviewLines(run.files);
  const unwritten = o.write && !writing ? [`no file was written: ${failed} could not be migrated (above), and the others may rely on what they hold; fix those or leave them out with --exclude, then run again`] : [];
  const stderr = o.json ? '' : [...(o.quiet ? [] : review), ...summaryLines(summary, writing), ...unwritten, ''].join('\n');
  const exitCode = summary.errors > 0 ? 2 : o.check && (summary.changed > 0 || summary.review > 0) ? 1 : 0;
  return { exitCode, stdout, stderr, report };
}
