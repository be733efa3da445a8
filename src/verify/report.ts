/**
 * The audit report in three forms: JSON with every finding (for machines and baselines), markdown
 * for a pull request or an audit record, and a terminal summary.
 */
import type { Shard } from '../commands/options.js';
import { assumptions, type LocatedRule } from '../contract/index.js';
import { fitDocument, type Listing } from '../report/budget.js';
import { workflowCommand } from '../report/github-annotations.js';
import { cell, code, DETAILS_CLOSE, detailsOpen, table, tableHead, tableRow } from '../report/markdown.js';
import type { AuditResult, KindSummary } from './audit.js';
import { fingerprint, isFailing, KIND_ORDER, type Finding, type FindingKind } from './findings.js';

export type Verdict = 'parity' | 'findings' | 'incomplete';

export interface AuditReport {
  tool: 'migrate-v2 verify';
  version: string;
  target: { baseUrl: string; embeddedEmulator: boolean; scope?: string };
  /** Set on the report of one shard of a CI matrix; `merge-reports` puts the shards together. */
  shard?: Shard;
  startedAt: string;
  finishedAt: string;
  stats: { requests: number; retries: number; pages: number; emptyPages: number; elapsedMs: number };
  verdict: Verdict;
  summary: KindSummary[];
  totals: { findings: number; failing: number; knownFromBaseline: number };
  findings: Finding[];
  /** The contract's assumptions this audit leaned on. */
  assumptions: LocatedRule[];
}

export function buildReport(
  result: AuditResult,
  meta: { version: string; baseUrl: string; embeddedEmulator: boolean; scope?: string; shard?: Shard; requests: number; retries: number; elapsedMs: number },
  audited: readonly string[],
): AuditReport {
  const failing = result.findings.filter(isFailing);
  const incomplete = result.summaries.some((s) => s.incomplete);
  const leaned = assumptions().filter((a) => audited.some((k) => a.where.startsWith(`${k}.`)) || /^(LIST_CONTRACT|TIMESTAMPS)\./.test(a.where));
  return {
    tool: 'migrate-v2 verify',
    version: meta.version,
    target: { baseUrl: meta.baseUrl, embeddedEmulator: meta.embeddedEmulator, ...(meta.scope ? { scope: meta.scope } : {}) },
    ...(meta.shard ? { shard: meta.shard } : {}),
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    stats: { requests: meta.requests, retries: meta.retries, pages: result.pages, emptyPages: result.emptyPages, elapsedMs: meta.elapsedMs },
    verdict: incomplete ? 'incomplete' : failing.length > 0 ? 'findings' : 'parity',
    summary: result.summaries,
    totals: { findings: result.findings.length, failing: failing.length, knownFromBaseline: result.findings.filter((f) => f.baseline).length },
    findings: result.findings,
    assumptions: leaned,
  };
}

/** Marks the findings a previous report already had; they no longer fail the audit. */
export function applyBaseline(findings: Finding[], baseline: AuditReport): void {
  const known = new Set(baseline.findings.map(fingerprint));
  for (const f of findings) if (known.has(fingerprint(f))) f.baseline = true;
}

const VERDICT_TEXT: Record<Verdict, string> = {
  parity: 'Parity holds: v1 and v2 agree, expected differences aside.',
  findings: 'Findings: v1 and v2 differ, or v2 breaks its list contract.',
  incomplete: 'Incomplete: some kinds could not be audited to the end; nothing is claimed about them.',
};

const KIND_TITLE: Record<FindingKind, string> = {
  'missing-in-v2': 'Missing in v2',
  'missing-in-v1': 'Missing in v1',
  'field-differs': 'Field differs',
  'contract-breach': 'v2 list contract breached',
  incomplete: 'Incomplete',
  'expected-difference': 'Expected differences (documented in the contract; not failing)',
  'changed-during-walk': 'Changed during the walk (equal when read again; not failing)',
  'not-in-contract': 'Fields the contract does not name (not compared; not failing)',
};

function summaryRows(summary: KindSummary[]): string[][] {
  return summary.map((s) => [
    s.kind,
    String(s.compared),
    String(s.equal),
    String(s.expected),
    String(s.differences),
    String(s.missingInV2),
    String(s.missingInV1),
    String(s.breaches),
    s.incomplete ? 'yes' : '',
  ]);
}

const SUMMARY_HEADER = ['kind', 'compared', 'equal', 'expected diffs', 'differences', 'missing in v2', 'missing in v1', 'contract breaches', 'incomplete'];

function findingRow(f: Finding): string[] {
  return [
    f.resource,
    f.uid ? code(f.uid) : '',
    f.path ? code(f.path) : f.breach ? code(f.breach) : '',
    f.v1 === undefined ? '' : code(f.v1),
    f.v2 === undefined ? '' : code(f.v2),
    cell(`${f.message}${f.count && f.count > 1 ? ` (×${f.count})` : ''}${f.rule ? ` [${f.rule.status}: ${f.rule.source}]` : ''}${f.baseline ? ' (in baseline)' : ''}`),
  ];
}

/** Empty pages that carry a token are allowed, so they are only counted; said where there were any. */
function emptyPagesNote(report: AuditReport): string {
  return report.stats.emptyPages > 0 ? ` (${report.stats.emptyPages} empty with a token to go on, allowed)` : '';
}

export interface MarkdownOptions {
  maxChars: number;
  /** The JSON report this run wrote, named where the markdown leaves findings out. */
  json?: string;
}

/** Markdown for a pull request or an audit record, in at most `maxChars`: the verdict and summary, then the findings kind by kind. */
export function renderMarkdown(report: AuditReport, options: MarkdownOptions): string {
  const where = options.json ? `every one is in ${code(options.json)}` : 'run with `--report audit.json` for every one';
  const kinds = KIND_ORDER.map((kind) => report.findings.filter((f) => f.kind === kind)).filter((found) => found.length > 0);
  return fitDocument(
    [summarySection(report), ...kinds.map((found) => findingsListing(found, where)), ...(report.assumptions.length > 0 ? [assumptionsListing(report.assumptions, where)] : [])],
    options.maxChars,
  );
}

function summarySection(report: AuditReport): string {
  const target = `Target ${code(report.target.baseUrl)}${report.target.embeddedEmulator ? ' (the embedded emulator)' : ''}${report.target.scope ? `, scope ${code(report.target.scope)}` : ''}`;
  return [
    `# migrate-v2 parity audit${report.shard ? ` (shard ${report.shard.index} of ${report.shard.count})` : ''}`,
    `**${VERDICT_TEXT[report.verdict]}**`,
    `${target}; ${report.stats.requests} requests, ${report.stats.retries} retries, ${report.stats.pages} v2 pages${emptyPagesNote(report)}.`,
    table(SUMMARY_HEADER, summaryRows(report.summary)),
    '',
  ].join('\n\n');
}

/** One kind's findings as a table; a long one folded. */
function findingsListing(found: Finding[], where: string): Listing {
  const folded = found.length > 20;
  return {
    title: `## ${KIND_TITLE[found[0]!.kind]} (${found.length})\n\n`,
    open: `${folded ? detailsOpen(`${found.length} findings`) : ''}${tableHead(['kind', 'uid', 'field / breach', 'v1', 'v2', 'what'])}`,
    close: folded ? `${DETAILS_CLOSE}\n\n` : '\n',
    entries: found.map((f) => tableRow(findingRow(f))),
    leftOut: (omitted) => `${omitted.length} of ${found.length} findings of this kind left out to fit this report: ${where}.\n\n`,
  };
}

function assumptionsListing(assumed: LocatedRule[], where: string): Listing {
  return {
    title: '## Assumptions this audit relies on\n\n',
    open: `${detailsOpen(`${assumed.length} assumptions of the contract`)}${tableHead(['rule', 'why it is assumed'])}`,
    close: `${DETAILS_CLOSE}\n\n`,
    entries: assumed.map((a) => tableRow([code(a.where), cell(a.source)])),
    leftOut: (omitted) => `${omitted.length} of ${assumed.length} assumptions left out to fit this report: ${where}.\n\n`,
  };
}

/** A finding in one line, after its kind and resource: uid, field, both values, or what it says. */
function findingLine(f: Finding): string {
  const values = f.v1 !== undefined || f.v2 !== undefined ? `: v1 ${JSON.stringify(f.v1)} / v2 ${JSON.stringify(f.v2)}` : '';
  const head = [f.uid, f.path].filter(Boolean).join(' ');
  return `${head}${values}${f.kind === 'field-differs' ? '' : ` - ${f.message}`}`.trim();
}

export function renderTerminal(report: AuditReport, firstFindings = 10): string {
  const rows = [SUMMARY_HEADER, ...summaryRows(report.summary)];
  const widths = SUMMARY_HEADER.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd());
  const failing = report.findings.filter(isFailing);
  const shown = failing.slice(0, firstFindings).map((f) => `  ${f.kind} ${f.resource} ${findingLine(f)}`);
  const expected = report.findings.filter((f) => f.kind === 'expected-difference').length;
  // A baseline written from an earlier report holds its expected differences too: counted once, above.
  const known = report.findings.filter((f) => f.baseline && f.kind !== 'expected-difference').length;
  return [
    ...lines,
    '',
    ...(shown.length > 0 ? [`first ${shown.length} of ${failing.length} failing findings:`, ...shown, ''] : []),
    `${VERDICT_TEXT[report.verdict]} ${expected} expected differences, ${known} other findings known from the baseline. ` +
      `${report.stats.requests} requests, ${report.stats.retries} retries, ${report.stats.pages} v2 pages${emptyPagesNote(report)}, ${(report.stats.elapsedMs / 1000).toFixed(1)} s.`,
    '',
  ].join('\n');
}

/** `--format github`: an error for each failing finding (a baseline's are not failing). */
export function githubAnnotations(report: AuditReport): string {
  return report.findings
    .filter(isFailing)
    .map((f) => workflowCommand({ level: 'error', title: `migrate-v2 verify: ${f.kind} ${f.resource}`, message: findingLine(f).replace(/^- /, '') }))
    .join('');
}
