/** The codemod's reports: a terminal summary, markdown fit for a pull request, JSON for machines. */
import { code, details, fenced, htmlCode, table } from '../report/markdown.js';
import type { CodemodRun, FileOutcome } from './engine.js';
import { unifiedDiff } from './diff.js';

export interface CodemodSummary {
  scanned: number;
  changed: number;
  unchanged: number;
  review: number;
  errors: number;
  ms: number;
  /** With a tsconfig: type errors of the changed files and their importers before and after the migration. */
  typeErrors?: { before: number; after: number };
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
    ...(run.typeCheck ? { typeErrors: { before: run.typeCheck.before, after: run.typeCheck.after } } : {}),
  };
}

export function summaryLine(s: CodemodSummary, wrote: boolean): string {
  const types = s.typeErrors ? `, type errors before ${s.typeErrors.before}, after ${s.typeErrors.after}` : '';
  return `${s.scanned} files scanned, ${s.changed} ${wrote ? 'changed' : 'to change'}, ${s.unchanged} unchanged, ${s.review} manual-review items, ${s.errors} errors${types}, ${(s.ms / 1000).toFixed(1)} s`;
}

export function reviewLines(files: readonly FileOutcome[]): string[] {
  return files.flatMap((f) => [
    ...(f.error ? [`${f.relative}: error: ${f.error}`] : []),
    ...f.review.map((r) => `${f.relative}:${r.line}: ${r.why} [${r.transform}]`),
  ]);
}

export interface CodemodReport {
  tool: 'migrate-v2';
  version: string;
  mode: 'dry-run' | 'write';
  summary: CodemodSummary;
  files: { path: string; changed: boolean; error?: string; review: { line: number; why: string; transform: string }[]; diff?: string }[];
}

export function buildReport(run: CodemodRun, version: string, wrote: boolean): CodemodReport {
  return {
    tool: 'migrate-v2',
    version,
    mode: wrote ? 'write' : 'dry-run',
    summary: summarise(run),
    files: run.files
      .filter((f) => f.changed || f.error || f.review.length > 0)
      .map((f) => ({ path: f.relative, changed: f.changed, ...(f.error ? { error: f.error } : {}), review: f.review, ...(f.changed ? { diff: unifiedDiff(f) } : {}) })),
  };
}

export function renderMarkdown(report: CodemodReport): string {
  const s = report.summary;
  const parts = [
    '## migrate-v2: v1 to v2beta1',
    '',
    table(
      ['files scanned', report.mode === 'write' ? 'changed' : 'to change', 'unchanged', 'manual review', 'errors', 'type errors before / after'],
      [[String(s.scanned), String(s.changed), String(s.unchanged), String(s.review), String(s.errors), s.typeErrors ? `${s.typeErrors.before} / ${s.typeErrors.after}` : 'not checked (no tsconfig)']],
    ),
    '',
  ];
  const review = report.files.flatMap((f) => [
    ...(f.error ? [[`[${code(f.path)}](${f.path})`, 'error', f.error]] : []),
    ...f.review.map((r) => [`[${code(`${f.path}:${r.line}`)}](${f.path}#L${r.line})`, r.transform, r.why]),
  ]);
  if (review.length > 0) parts.push(`### Manual review (${review.length})`, '', table(['where', 'transform', 'why'], review), '');
  const changed = report.files.filter((f) => f.diff);
  if (changed.length > 0) {
    parts.push(`### Changes (${changed.length} files)`, '');
    for (const f of changed) parts.push(details(htmlCode(f.path), fenced('diff', f.diff!.trimEnd())), '');
  }
  return parts.join('\n');
}
