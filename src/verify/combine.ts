/**
 * One kind's results put together from its parts: the parts of one audit, or the shards of a CI
 * matrix (`merge-reports`). Records fall in exactly one part, so their findings are kept as they
 * are; the findings that count over a whole walk (an expected difference on every record compared,
 * a field the contract does not name, a breach, an incomplete walk) are added up per fingerprint.
 * Findings come out in one order whatever the split, so a merged report reads as an unsharded one.
 */
import type { KindSummary } from './audit.js';
import { fingerprint, KIND_ORDER, type Finding } from './findings.js';

export interface KindResult {
  summary: KindSummary;
  findings: Finding[];
}

const COUNTED: ReadonlySet<Finding['kind']> = new Set(['expected-difference', 'not-in-contract', 'contract-breach', 'incomplete']);

export function emptySummary(kind: string): KindSummary {
  return { kind, compared: 0, equal: 0, expected: 0, differences: 0, missingInV1: 0, missingInV2: 0, breaches: 0, changedDuringWalk: 0, incomplete: false, pages: 0, emptyPages: 0 };
}

function compareFindings(a: Finding, b: Finding): number {
  const keys = (f: Finding) => [String(KIND_ORDER.indexOf(f.kind)).padStart(2, '0'), f.uid ?? '', f.path ?? '', f.breach ?? ''];
  const [x, y] = [keys(a), keys(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/** The findings of one kind's parts, counted ones added up, in a stable order. */
function combineFindings(parts: readonly Finding[][]): Finding[] {
  const counted = new Map<string, Finding>();
  const out: Finding[] = [];
  for (const f of parts.flat()) {
    if (!COUNTED.has(f.kind)) {
      out.push(f);
      continue;
    }
    const key = fingerprint(f);
    const seen = counted.get(key);
    if (seen) seen.count = (seen.count ?? 1) + (f.count ?? 1);
    else counted.set(key, { ...f });
  }
  return [...out, ...counted.values()].sort(compareFindings);
}

export function combineKind(kind: string, parts: readonly KindResult[]): KindResult {
  const summary = emptySummary(kind);
  for (const { summary: s } of parts) {
    for (const key of ['compared', 'equal', 'differences', 'missingInV1', 'missingInV2', 'changedDuringWalk', 'pages', 'emptyPages'] as const) summary[key] += s[key];
    summary.incomplete ||= s.incomplete;
  }
  const findings = combineFindings(parts.map((p) => p.findings));
  summary.expected = findings.filter((f) => f.kind === 'expected-difference').length;
  summary.breaches = findings.filter((f) => f.kind === 'contract-breach').length;
  return { summary, findings };
}
