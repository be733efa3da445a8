/** The codemod's markdown report fits a pull-request comment, and says what it left out and where it is. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { diffsShown, leftOpen, namedIn } from '../helpers/markdown.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/codemods/', import.meta.url));
// One review item (updateMask=*) at line 12 of each file.
const V1 = readFileSync(join(FIXTURES, 'updates/explicit-and-unknown.input.ts'), 'utf8');
const COMMENT_MAX = 65_536;

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-bound-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A list read whose loop body is `body` times `times`: one review item, a diff as long as asked. */
function identityReport(body: string, times: number): string {
  return [
    "const BASE = 'https://platform.example.com';",
    'export async function report(token: string): Promise<string[]> {',
    '  const res = await fetch(`${BASE}/iam/v1/identities`, { headers: { authorization: `Bearer ${token}` } });',
    '  const body = await res.json();',
    '  const lines: string[] = [];',
    '  for (const identity of body.items) {',
    ...Array.from({ length: times }, () => `    ${body}`),
    '  }',
    '  return lines;',
    '}',
    '',
  ].join('\n');
}

const small = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`client-${String(i).padStart(3, '0')}.ts`, V1]));

const read = (path: string) => readFileSync(path, 'utf8');

describe('the markdown report of the codemod, by default within a comment (65,536 characters)', () => {
  const dir = tree(small(200));
  const files = Object.keys(small(200));

  it('200 files: the summary, every review item, diffs while they fit, then the files left out and where every diff is', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mv2-bound-out-'));
    const r = await runCli(['.', '--report', join(out, 'r.md'), '--patch', join(out, 'all.patch'), '--quiet'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(out, 'summary.md') } });
    expect(r.code, r.stderr).toBe(0);
    const md = read(join(out, 'r.md'));
    expect(md.length).toBeLessThanOrEqual(COMMENT_MAX);
    expect(md).toMatch(/^## migrate-v2: v1 to v2beta1\n\n\| files scanned .*\n.*\n\| 200 \| 200 \| 0 \| 200 \| 0 \|/);
    expect(md.indexOf('### Manual review (200)')).toBeLessThan(md.indexOf('### Changes (200 files)'));
    expect(md.match(/^\| \[`client-\d+\.ts:11`\]/gm)).toHaveLength(200);
    const shown = diffsShown(md);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual(files.slice(0, shown.length));
    const note = new RegExp(`\\nDiffs left out to fit this report \\(${200 - shown.length} of 200 files\\): (.*)\\. Every diff is in \`${join(out, 'all.patch')}\`\\.\\n\\n$`).exec(md);
    expect(note, md.slice(-500)).not.toBeNull();
    expect(namedIn(note![1]!)).toEqual(files.slice(shown.length));
    expect(leftOpen(md)).toEqual([]);
    expect(read(join(out, 'summary.md'))).toBe(md);
  });

  it('without a patch, the note says how to get every diff; in the step summary it names the JSON report the run wrote', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mv2-bound-out-'));
    const r = await runCli(['.', '--report', join(out, 'r.md'), '--quiet'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(read(join(out, 'r.md'))).toMatch(/ Run with `--patch migration\.patch` or `--report migration\.json` for every diff\.\n\n$/);
    const json = await runCli(['.', '--report', join(out, 'r.json'), '--quiet'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(out, 'summary.md') } });
    expect(json.code).toBe(0);
    const summary = read(join(out, 'summary.md'));
    expect(summary.length).toBeLessThanOrEqual(COMMENT_MAX);
    expect(summary).toMatch(new RegExp(` Every diff is in \`${join(out, 'r.json')}\`\\.\\n\\n$`));
    expect(JSON.parse(read(join(out, 'r.json'))).files).toHaveLength(200);
  });

  it('--report-max-chars: a review list too long for the bound is cut with a count; every diff is then left out and named', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mv2-bound-out-'));
    const r = await runCli(['.', '--report', join(out, 'r.md'), '--report-max-chars', '20000', '--quiet'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(out, 'summary.md') } });
    expect(r.code).toBe(0);
    const md = read(join(out, 'r.md'));
    expect(md.length).toBeLessThanOrEqual(20_000);
    const rows = md.match(/^\| \[`client-\d+\.ts:11`\]/gm)!.length;
    expect(rows).toBeGreaterThan(50);
    expect(md).toContain(`\n${200 - rows} of 200 manual-review items left out to fit this report: run with \`--json\` or \`--report migration.json\` for every item.\n\n### Changes (200 files)\n\nDiffs left out to fit this report (200 of 200 files): \`client-000.ts\`, `);
    expect(diffsShown(md)).toEqual([]);
    expect(md).toMatch(/, and \d+ more\. Run with `--patch migration\.patch`/);
    expect(leftOpen(md)).toEqual([]);
    expect(read(join(out, 'summary.md'))).toBe(md);
  });
});

it('pathological content: a huge diff is left out and named, a long line and backtick runs come through whole, within the bound', async () => {
  const fenceInside = V1.replace('export async function', '/*\n```\n``````````\n*/\nexport async function');
  const dir = tree({
    ...small(20),
    'a-huge.ts': identityReport('lines.push(`${identity.id} ${identity.createdAt}`);', 2500),
    'long-line.ts': identityReport(`lines.push([${Array.from({ length: 1000 }, () => 'identity.id').join(', ')}].join(' '));`, 1),
    'backticks.ts': fenceInside,
  });
  const out = mkdtempSync(join(tmpdir(), 'mv2-bound-out-'));
  const r = await runCli(['.', '--report', join(out, 'r.md'), '--patch', join(out, 'all.patch'), '--quiet'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  expect(read(join(out, 'all.patch')).length).toBeGreaterThan(3 * COMMENT_MAX);
  const md = read(join(out, 'r.md'));
  expect(md.length).toBeLessThanOrEqual(COMMENT_MAX);
  expect(md).toMatch(/\nDiffs left out to fit this report \(1 of 23 files\): `a-huge\.ts`\. Every diff is in /);
  expect(diffsShown(md)).toEqual(['backticks.ts', ...Object.keys(small(20)), 'long-line.ts']);
  expect(md).toContain(`+    lines.push([${Array.from({ length: 1000 }, () => 'identity.uid').join(', ')}].join(' '));\n`);
  expect(md).toMatch(/\n```````````diff\n--- a\/backticks\.ts\n[^]*?\n ``````````\n \*\/\n export async function[^]*?\n```````````\n/);
  expect(leftOpen(md)).toEqual([]);
});

it('refuses a bad --report-max-chars in one line with exit 2, before reading any file', async () => {
  for (const value of ['abc', '65,536', '9999', '100000001', '-1', '']) {
    const r = await runCli(['/no/such/dir', '--report-max-chars', value]);
    expect(r.code, value).toBe(2);
    expect(r.stderr).toBe(`migrate-v2: --report-max-chars must be a whole number from 10000 to 100000000, got "${value}"\n`);
  }
});
