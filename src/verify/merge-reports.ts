/**
 * Audit reports of the shards of one matrix put together into the report of the whole audit: each
 * kind's counts and findings combined as the parts of one audit are. What differs from an unsharded
 * audit is the timing and the traffic (requests, retries, pages): a split walks more, shorter lists.
 */
import { UsageError } from '../errors.js';
import { checkShardSet, type NamedReport } from '../report/shard-set.js';
import type { AuditResult } from './audit.js';
import { combineKind, emptySummary } from './combine.js';
import { buildReport, type AuditReport } from './report.js';

export function isAuditReport(value: unknown): value is AuditReport {
  const r = value as Partial<AuditReport> | null;
  return typeof r === 'object' && r !== null && r.tool === 'migrate-v2 verify' && Array.isArray(r.findings) && Array.isArray(r.summary);
}

function checkSameTarget(reports: readonly NamedReport<AuditReport>[]): void {
  const [first, ...rest] = reports;
  // Each run of the embedded emulator listens on a port of its own; the same dataset is what matters.
  const key = (r: AuditReport) => JSON.stringify([r.target.embeddedEmulator, r.target.embeddedEmulator ? '' : r.target.baseUrl, r.target.scope ?? '']);
  const other = rest.find((r) => key(r.report) !== key(first!.report));
  if (other) throw new UsageError(`merge-reports: ${first!.path} and ${other.path} audited different targets or scopes`);
}

export function mergeAuditReports(reports: readonly NamedReport<AuditReport>[]): AuditReport {
  checkShardSet(reports);
  checkSameTarget(reports);
  const first = reports[0]!.report;
  const all = reports.map((r) => r.report);
  const kinds = [...new Set(all.flatMap((r) => r.summary.map((s) => s.kind)))];
  const combined = kinds.map((kind) =>
    combineKind(
      kind,
      all.map((r) => ({ summary: r.summary.find((s) => s.kind === kind) ?? emptySummary(kind), findings: r.findings.filter((f) => f.resource === kind) })),
    ),
  );
  const sum = (pick: (r: AuditReport) => number) => all.reduce((n, r) => n + pick(r), 0);
  const result: AuditResult = {
    summaries: combined.map((k) => k.summary),
    findings: combined.flatMap((k) => k.findings),
    pages: sum((r) => r.stats.pages),
    emptyPages: sum((r) => r.stats.emptyPages),
    startedAt: all.map((r) => r.startedAt).sort()[0]!,
    finishedAt: all.map((r) => r.finishedAt).sort().at(-1)!,
  };
  const meta = {
    version: first.version,
    ...first.target,
    requests: sum((r) => r.stats.requests),
    retries: sum((r) => r.stats.retries),
    elapsedMs: Math.max(...all.map((r) => r.stats.elapsedMs)),
  };
  return buildReport(result, meta, kinds);
}
