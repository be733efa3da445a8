/**
 * `migrate-v2 merge-reports a.json b.json ...`: the JSON reports of a matrix's shards (codemod or
 * audit, not both) merged into the report of the whole run, written as markdown within the same
 * bound and as JSON, like the commands that wrote them.
 */
import { readFile } from 'node:fs/promises';
import { isCodemodReport, mergeCodemodReports } from '../codemod/merge-reports.js';
import { githubAnnotations as codemodAnnotations, renderMarkdown as codemodMarkdown, summaryLines, reviewLines, type CodemodReport } from '../codemod/report.js';
import { UsageError } from '../errors.js';
import { jsonReport, writeReports } from '../report/report-files.js';
import type { NamedReport } from '../report/shard-set.js';
import { appendStepSummary } from '../report/step-summary.js';
import { isAuditReport, mergeAuditReports } from '../verify/merge-reports.js';
import { githubAnnotations as auditAnnotations, renderMarkdown as auditMarkdown, renderTerminal, type AuditReport } from '../verify/report.js';
import { reportFiles, reportMaxChars } from './options.js';

export interface MergeReportsOptions {
  report?: string[];
  format?: string;
  reportMaxChars?: string;
}

export interface MergeReportsOutcome {
  merged: { kind: 'codemod'; report: CodemodReport } | { kind: 'audit'; report: AuditReport };
  stdout: string;
  written: string[];
}

type Read = NamedReport<unknown>;

async function readReport(path: string): Promise<Read> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`merge-reports: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return { path, report: JSON.parse(text) };
  } catch {
    throw new UsageError(`merge-reports: ${path} is not JSON: give the .json reports, not the markdown`);
  }
}

function kindOf({ path, report }: Read): 'codemod' | 'audit' {
  if (isCodemodReport(report)) return 'codemod';
  if (isAuditReport(report)) return 'audit';
  throw new UsageError(`merge-reports: ${path} is not a JSON report of migrate-v2 or migrate-v2 verify`);
}

/** The reports merged; one kind at a time, since a codemod report and an audit share nothing to add up. */
function merge(reads: readonly Read[]): MergeReportsOutcome['merged'] {
  const kinds = reads.map(kindOf);
  const mixed = kinds.findIndex((k) => k !== kinds[0]);
  if (mixed >= 0) throw new UsageError(`merge-reports: ${reads[0]!.path} is ${kinds[0] === 'audit' ? 'an audit' : 'a codemod'} report and ${reads[mixed]!.path} is not: merge one kind at a time`);
  return kinds[0] === 'audit'
    ? { kind: 'audit', report: mergeAuditReports(reads as NamedReport<AuditReport>[]) }
    : { kind: 'codemod', report: mergeCodemodReports(reads as NamedReport<CodemodReport>[]) };
}

export async function mergeReportsCommand(paths: readonly string[], o: MergeReportsOptions, io: { env: NodeJS.ProcessEnv }): Promise<MergeReportsOutcome> {
  if (paths.length === 0) throw new UsageError('merge-reports: name the JSON reports to merge (the --report FILE.json of each shard)');
  const reports = reportFiles(o.report, o.format);
  const maxChars = reportMaxChars(o.reportMaxChars);
  const merged = merge(await Promise.all(paths.map(readReport)));
  const json = jsonReport(reports);
  const markdown = (bound: number) =>
    merged.kind === 'audit' ? auditMarkdown(merged.report, { maxChars: bound, ...(json ? { json } : {}) }) : codemodMarkdown(merged.report, { maxChars: bound, ...(json ? { json } : {}) });
  const written = writeReports(reports, { json: () => `${JSON.stringify(merged.report, null, 2)}\n`, markdown: () => markdown(maxChars) });
  appendStepSummary(io.env, maxChars, markdown);
  let stdout: string;
  if (o.format === 'github') stdout = merged.kind === 'audit' ? auditAnnotations(merged.report) : codemodAnnotations(merged.report);
  else if (merged.kind === 'audit') stdout = renderTerminal(merged.report);
  else stdout = [...reviewLines(merged.report.files.map((f) => ({ ...f, relative: f.path }))), ...summaryLines(merged.report.summary, merged.report.mode === 'write'), ''].join('\n');
  return { merged, stdout, written };
}
