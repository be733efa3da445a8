/** The audit's markdown report within its bound, whatever the findings hold. */
import { describe, expect, it } from 'vitest';
import { assumptions } from '../../src/contract/index.js';
import type { Finding, FindingKind } from '../../src/verify/findings.js';
import { renderMarkdown, type AuditReport } from '../../src/verify/report.js';
import { leftOpen } from '../helpers/markdown.js';

const KINDS: FindingKind[] = ['incomplete', 'contract-breach', 'missing-in-v2', 'missing-in-v1', 'field-differs', 'changed-during-walk', 'expected-difference', 'not-in-contract'];

function report(findings: Finding[]): AuditReport {
  return {
    tool: 'migrate-v2 verify',
    version: '0.0.0',
    target: { baseUrl: 'https://api.example.com', embeddedEmulator: false },
    startedAt: '2024-01-01T00:00:00.000Z',
    finishedAt: '2024-01-01T00:01:00.000Z',
    stats: { requests: 10, retries: 0, pages: 5, emptyPages: 0, elapsedMs: 60_000 },
    verdict: 'findings',
    summary: [{ kind: 'Group', compared: 1, equal: 0, expected: 0, differences: 1, missingInV1: 0, missingInV2: 0, breaches: 0, changedDuringWalk: 0, incomplete: false, pages: 1, emptyPages: 0 }],
    totals: { findings: findings.length, failing: findings.length, knownFromBaseline: 0 },
    findings,
    assumptions: assumptions(),
  };
}

const differs = (i: number, v1: unknown = `old ${i}`): Finding => ({ kind: 'field-differs', resource: 'Group', uid: `g/${i}`, path: '$.description', v1, v2: `new ${i}`, message: 'differs' });

describe('the markdown audit report', () => {
  it('leaves out a finding too big for the report, counts it, and shows the others whole', () => {
    const odd = ['```', '`'.repeat(40), 'a | b', 'two\nlines', 'y'.repeat(5_000)];
    const findings = [differs(0, 'x'.repeat(200_000)), ...Array.from({ length: 29 }, (_, i) => differs(i + 1, odd[i % odd.length]))];
    const md = renderMarkdown(report(findings), { maxChars: 65_536, json: 'audit.json' });
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).not.toContain('x'.repeat(1000));
    expect(md.match(/^\| Group \| `g\/\d+` \|/gm)).toHaveLength(29);
    expect(md).toContain('\n1 of 30 findings of this kind left out to fit this report: every one is in `audit.json`.\n');
    expect(md).toContain(`| \`${'y'.repeat(5_000)}\` |`);
    expect(md).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(leftOpen(md)).toEqual([]);
  });

  it('thousands of findings of every kind: within the bound, every kind named with its count, at the default and the least bound', () => {
    const findings = KINDS.flatMap((kind) => Array.from({ length: 2_000 }, (_, i): Finding => ({ ...differs(i), kind })));
    for (const maxChars of [65_536, 10_000]) {
      const md = renderMarkdown(report(findings), { maxChars });
      expect(md.length).toBeLessThanOrEqual(maxChars);
      expect(md).toMatch(/^# migrate-v2 parity audit\n\n\*\*Findings/);
      expect(md.match(/^## .* \(2000\)$/gm)).toHaveLength(KINDS.length);
      expect(md.match(/^\d+ of 2000 findings of this kind left out to fit this report: run with `--report audit\.json` for every one\.$/gm)).toHaveLength(KINDS.length);
      expect(md).toMatch(new RegExp(`## Assumptions this audit relies on\\n\\n[^]*\\d+ of ${assumptions().length} assumptions left out`));
      expect(leftOpen(md)).toEqual([]);
    }
  });
});
