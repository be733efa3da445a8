/**
 * Codemod reports of the shards of one run put together into the report of the whole run: the same
 * files in the same order and the same counts. Only the time differs: the merged one is the slowest
 * shard's, the wall time of the matrix.
 */
import { UsageError } from '../errors.js';
import { checkShardSet, type NamedReport } from '../report/shard-set.js';
import { typeErrors, type CodemodReport, type CodemodSummary } from './report.js';

export function isCodemodReport(value: unknown): value is CodemodReport {
  const r = value as Partial<CodemodReport> | null;
  return typeof r === 'object' && r !== null && r.tool === 'migrate-v2' && Array.isArray(r.files) && typeof r.summary === 'object';
}

function mergeSummaries(summaries: readonly CodemodSummary[]): CodemodSummary {
  const sum = (pick: (s: CodemodSummary) => number) => summaries.reduce((n, s) => n + pick(s), 0);
  const typed = summaries.flatMap((s) => (s.typeErrors ? [s.typeErrors] : []));
  return {
    scanned: sum((s) => s.scanned),
    changed: sum((s) => s.changed),
    unchanged: sum((s) => s.unchanged),
    review: sum((s) => s.review),
    errors: sum((s) => s.errors),
    ms: Math.max(...summaries.map((s) => s.ms)),
    ...(typed.length > 0 ? { typeErrors: typeErrors(typed.reduce((n, t) => n + t.before, 0), typed.reduce((n, t) => n + t.after, 0), [...new Set(typed.flatMap((t) => t.notInstalled ?? []))].sort()) } : {}),
  };
}

export function mergeCodemodReports(reports: readonly NamedReport<CodemodReport>[]): CodemodReport {
  checkShardSet(reports);
  const first = reports[0]!;
  const other = reports.find((r) => r.report.mode !== first.report.mode);
  if (other) throw new UsageError(`merge-reports: ${first.path} is a ${first.report.mode} and ${other.path} a ${other.report.mode}: merge runs of one mode`);
  const owner = new Map<string, string>();
  for (const { path, report } of reports) {
    for (const f of report.files) {
      if (owner.has(f.path)) throw new UsageError(`merge-reports: ${f.path} is in both ${owner.get(f.path)} and ${path}: the runs overlap`);
      owner.set(f.path, path);
    }
  }
  return {
    tool: 'migrate-v2',
    version: first.report.version,
    mode: first.report.mode,
    summary: mergeSummaries(reports.map((r) => r.report.summary)),
    // The order of an unsharded run's report: by path, as JavaScript compares strings.
    files: reports.flatMap((r) => r.report.files).sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}
