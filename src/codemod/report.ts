/** The codemod's reports: a terminal summary, markdown fit for a pull request, JSON for machines. */
import type { Shard } from '../commands/options.js';
import { fitDocument, nameList, type Listing } from '../report/budget.js';
import { workflowCommand } from '../report/github-annotations.js';
import { cell, code, details, fenced, htmlCode, table, tableHead, tableRow } from '../report/markdown.js';
import type { CodemodRun, FileOutcome } from './engine.js';
import { unifiedDiff } from './diff.js';

export interface CodemodSummary {
  scanned: number;
  changed: number;
  unchanged: number;
  review: number;
  errors: number;
  ms: number;
  /**
   * With a tsconfig: type errors of the changed files and their importers before and after the
   * migration; `notInstalled`, when any, the packages they import that are not installed.
   */
  typeErrors?: { before: number; after: number; notInstalled?: string[] };
}

export function summarise(run: CodemodRun): CodemodSummary {
  const changed = run.files.filter((f) => f.changed).length;
  const errors = run.files.filter((f) => f.error).length;
  return {
    scanned: run.files.length,
    changed,
    unchanged: run.files.length - changed - errors,
    review: run.files.reduce((n, f) => n + f.review.length, 0),
    errors,
    ms: Math.round(run.ms),
    ...(run.typeCheck ? { typeErrors: typeErrors(run.typeCheck.before, run.typeCheck.after, run.typeCheck.notInstalled) } : {}),
  };
}

/** The summary's type errors: packages not installed are named only when there are some. */
export function typeErrors(before: number, after: number, notInstalled: readonly string[]): NonNullable<CodemodSummary['typeErrors']> {
  return { before, after, ...(notInstalled.length > 0 ? { notInstalled: [...notInstalled] } : {}) };
}

/**
 * What a type check without some of the project's packages is worth, in one sentence for the
 * terminal, the reports and an annotation; undefined when every import was found.
 */
export function notInstalledWarning(s: CodemodSummary): string | undefined {
  const names = s.typeErrors?.notInstalled;
  if (!names?.length) return undefined;
  const list = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `the type check cannot find packages the files it checks import (${list}): it reads them as any, so its errors after the migration may not be the migration's, and some that are may not show. Install the project's packages (npm ci) and run again.`;
}

/** A run that changes no file type-checks none (the self-check reads changed files): its counts of 0 say nothing of the project's errors. */
const NONE_CHECKED = 'no file changed, none type-checked';

/** `1 file`, `2 files`: the summary line is read by people first. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function summaryLine(s: CodemodSummary, wrote: boolean): string {
  const counts = s.typeErrors && (s.changed === 0 ? NONE_CHECKED : `type errors before ${s.typeErrors.before}, after ${s.typeErrors.after}`);
  const types = counts ? `, ${counts}` : '';
  return `${counted(s.scanned, 'file')} scanned, ${s.changed} ${wrote ? 'changed' : 'to change'}, ${s.unchanged} unchanged, ${counted(s.review, 'manual-review item')}, ${counted(s.errors, 'error')}${types}, ${(s.ms / 1000).toFixed(1)} s`;
}

/** The run's summary for the terminal: its line, and the warning when some packages are not installed. */
export function summaryLines(s: CodemodSummary, wrote: boolean): string[] {
  const warning = notInstalledWarning(s);
  return [summaryLine(s, wrote), ...(warning ? [`warning: ${warning}`] : [])];
}

export function reviewLines(files: readonly Pick<FileOutcome, 'relative' | 'error' | 'review'>[]): string[] {
  return files.flatMap((f) => [
    ...(f.error ? [`${f.relative}: error: ${f.error}`] : []),
    ...f.review.map((r) => `${f.relative}:${r.line}: ${r.why} [${r.transform}]`),
  ]);
}

/** A file the report lists: it changes, failed, or has manual-review items; every other file is as it was read. */
export function isReported(f: Pick<FileOutcome, 'changed' | 'error' | 'review'>): boolean {
  return f.changed || Boolean(f.error) || f.review.length > 0;
}

export interface CodemodReport {
  tool: 'migrate-v2';
  version: string;
  mode: 'dry-run' | 'write';
  /** Set on the report of one shard of a CI matrix; `merge-reports` puts the shards together. */
  shard?: Shard;
  summary: CodemodSummary;
  files: { path: string; changed: boolean; error?: string; review: { line: number; why: string; transform: string }[]; diff?: string }[];
}

export function buildReport(run: CodemodRun, version: string, wrote: boolean, shard?: Shard): CodemodReport {
  return {
    tool: 'migrate-v2',
    version,
    mode: wrote ? 'write' : 'dry-run',
    ...(shard ? { shard } : {}),
    summary: summarise(run),
    files: run.files
      .filter(isReported)
      .map((f) => ({ path: f.relative, changed: f.changed, ...(f.error ? { error: f.error } : {}), review: f.review, ...(f.changed ? { diff: unifiedDiff(f) } : {}) })),
  };
}

export interface MarkdownOptions {
  maxChars: number;
  /** Files this run wrote with everything in them, named where the report leaves something out. */
  patch?: string;
  json?: string;
}

/** Markdown for a pull request, in at most `maxChars`: the summary, the review list, then diffs while they fit. */
export function renderMarkdown(report: CodemodReport, options: MarkdownOptions): string {
  const review = reviewRows(report);
  const changed = report.files.filter((f) => f.diff !== undefined);
  return fitDocument(
    [summaryTable(report), ...(review.length > 0 ? [reviewListing(review, options)] : []), ...(changed.length > 0 ? [changesListing(changed, options)] : [])],
    options.maxChars,
  );
}

function summaryTable(report: CodemodReport): string {
  const s = report.summary;
  const header = ['files scanned', report.mode === 'write' ? 'changed' : 'to change', 'unchanged', 'manual review', 'errors', 'type errors before / after'];
  const types = !s.typeErrors ? 'not checked (no tsconfig)' : s.changed === 0 ? NONE_CHECKED : `${s.typeErrors.before} / ${s.typeErrors.after}`;
  const part = report.shard ? ` (shard ${report.shard.index} of ${report.shard.count})` : '';
  const warning = notInstalledWarning(s);
  return `## migrate-v2: v1 to v2beta1${part}\n\n${table(header, [[String(s.scanned), String(s.changed), String(s.unchanged), String(s.review), String(s.errors), types]])}\n\n${warning ? `> **Warning:** ${warning}\n\n` : ''}`;
}

function reviewRows(report: CodemodReport): string[] {
  return report.files.flatMap((f) => [
    ...(f.error ? [tableRow([`[${code(f.path)}](${f.path})`, 'error', cell(f.error)])] : []),
    ...f.review.map((r) => tableRow([`[${code(`${f.path}:${r.line}`)}](${f.path}#L${r.line})`, r.transform, cell(r.why)])),
  ]);
}

function reviewListing(rows: string[], options: MarkdownOptions): Listing {
  const where = options.json ? `every item is in ${code(options.json)}` : 'run with `--json` or `--report migration.json` for every item';
  return {
    title: `### Manual review (${rows.length})\n\n`,
    open: tableHead(['where', 'transform', 'why']),
    close: '\n',
    entries: rows,
    leftOut: (omitted) => `${omitted.length} of ${rows.length} manual-review items left out to fit this report: ${where}.\n\n`,
  };
}

function changesListing(changed: CodemodReport['files'], options: MarkdownOptions): Listing {
  const everything = options.patch ?? options.json;
  const end = `. ${everything ? `Every diff is in ${code(everything)}.` : 'Run with `--patch migration.patch` or `--report migration.json` for every diff.'}\n\n`;
  const note = (omitted: readonly number[], room: number) => {
    const lead = `Diffs left out to fit this report (${omitted.length} of ${changed.length} files): `;
    return `${lead}${nameList(omitted.map((i) => changed[i]!.path), room - lead.length - end.length)}${end}`;
  };
  // The names of the files left out can run long: at most an eighth of the report is kept for them.
  const noteRoom = Math.min(Math.floor(options.maxChars / 8), note(changed.map((_, i) => i), Infinity).length);
  return {
    title: `### Changes (${changed.length} files)\n\n`,
    open: '',
    close: '',
    entries: changed.map((f) => `${details(htmlCode(f.path), fenced('diff', f.diff!.trimEnd()))}\n\n`),
    leftOut: (omitted) => note(omitted, noteRoom),
    noteRoom,
  };
}

/** `--format github`: a warning on each manual-review line, an error on each file that failed, and the run's own warning. */
export function githubAnnotations(report: CodemodReport): string {
  const warning = notInstalledWarning(report.summary);
  const files = report.files.flatMap((f) => [
    ...(f.error ? [workflowCommand({ level: 'error', file: f.path, title: 'migrate-v2', message: f.error })] : []),
    ...f.review.map((r) => workflowCommand({ level: 'warning', file: f.path, line: r.line, title: `migrate-v2 ${r.transform}`, message: r.why })),
  ]);
  return [...(warning ? [workflowCommand({ level: 'warning', title: 'migrate-v2 self-check', message: warning })] : []), ...files].join('');
}
