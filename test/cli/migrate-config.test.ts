/** migrate-v2.config.json: wrappers of packages the codemod cannot read, declared; a bad file is one line and exit 2. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const UNKNOWN = readFileSync(fileURLToPath(new URL('../../fixtures/codemods/paths/unknown-wrapper.input.ts', import.meta.url)), 'utf8');
const DECLARED = { wrappers: [{ function: 'callPlatform', from: './platform-client', path: 1, method: 0, returns: 'body' }] };

function project(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-config-'));
  writeFileSync(join(dir, 'client.ts'), UNKNOWN);
  if (config !== undefined) writeFileSync(join(dir, 'migrate-v2.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

describe('migrate-v2.config.json', () => {
  it('without it, a call through a package wrapper is noted and left on v1', async () => {
    const r = await runCli([project(), '--json']);
    expect(JSON.parse(r.stdout).review[0].why).toMatch(/no call migrate-v2 recognises/);
  });

  it('found beside the code, a declared wrapper migrates its calls whole', async () => {
    const dir = project(DECLARED);
    const r = await runCli([dir, '--write']);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, 'client.ts'), 'utf8');
    expect(text).toMatch(/callPlatform\('GET', `\/iam\/v2beta1\/groups\?\$\{page\}`\)/);
    expect(text).toMatch(/body\.groups\.map/);
    expect(text).not.toMatch(/migrate-v2-todo/);
  });

  it('a wrapper declared for another module does not match', async () => {
    const r = await runCli([project({ wrappers: [{ ...DECLARED.wrappers[0], from: '@other/sdk' }] }), '--json']);
    expect(JSON.parse(r.stdout).summary.review).toBe(1);
  });

  it.each([
    ['{"wrapers": []}', /unknown key "wrapers"/],
    ['{"wrappers": [{"function": "f", "path": -1, "returns": "body"}]}', /wrappers\[0\]\.path: expected the index/],
    ['{"wrappers": [{"function": "f", "path": 0, "returns": "json"}]}', /wrappers\[0\]\.returns: expected "body" or "response"/],
    ['{"wrappers": ', /not JSON/],
    ['{"baseUrls": [{"name": "IAM_URL", "path": "/iam/v2beta1"}]}', /baseUrls\[0\]\.path: expected the v1 prefix its value ends with, one of \/iam\/v1/],
    ['{"baseUrls": [{"name": "IAM URL", "path": "/iam/v1"}]}', /baseUrls\[0\]\.name: expected a variable name/],
    ['{"rejectAssumptions": ["Group.fields[name]"]}', /rejectAssumptions: "Group\.fields\[name\]" is not an assumed rule the codemod relies on \(it can do without: .*Role\.v2\.endpoints\.create/],
  ])('refuses %s with one line and exit 2', async (text, message) => {
    const dir = project(text);
    const r = await runCli([dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(UNKNOWN);
  });

  it('--config names a file; a missing one is exit 2', async () => {
    const dir = project();
    const config = join(dir, 'elsewhere.json');
    writeFileSync(config, JSON.stringify(DECLARED));
    expect((await runCli([dir, '--config', config, '--json'])).stdout).toMatch(/"review":\s*0/);
    const missing = await runCli([dir, '--config', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--config .*nope\.json: no such file/);
  });
});

const BASED = [
  "const IAM = process.env['IAM_URL']!;",
  '',
  'export async function groupIds(): Promise<string[]> {',
  '  const res = await fetch(`${IAM}/groups`);',
  '  const body = (await res.json()) as { items: { id: string }[] };',
  '  return body.items.map((g) => g.id);',
  '}',
  '',
].join('\n');

describe('migrate-v2.config.json: what the code cannot show', () => {
  function based(config: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'mv2-config-'));
    writeFileSync(join(dir, 'client.ts'), BASED);
    writeFileSync(join(dir, 'migrate-v2.config.json'), JSON.stringify(config));
    return dir;
  }

  it('without a declared base, a base URL from the environment hides the v1 call: the file is left alone', async () => {
    const r = await runCli([based({}), '--json']);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ changed: 0, review: 0 });
  });

  it('a declared base URL variable with its v2 counterpart: the call migrates whole, the variable read becomes the v2 one', async () => {
    const dir = based({ baseUrls: [{ name: 'IAM_URL', path: '/iam/v1', v2: 'IAM_V2_URL' }] });
    const r = await runCli([dir, '--write']);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, 'client.ts'), 'utf8');
    expect(text).toMatch(/process\.env\['IAM_V2_URL'\]/);
    expect(text).toMatch(/body\.groups\.map\(\(g\) => g\.uid\)/);
    expect(text).not.toMatch(/migrate-v2-todo/);
  });

  it('a declared base without a v2 counterpart: the call is recognised, and kept on v1 with a note saying what to declare', async () => {
    const r = await runCli([based({ baseUrls: [{ name: 'IAM_URL', path: '/iam/v1' }] }), '--json']);
    const review = JSON.parse(r.stdout).review;
    expect(review).toHaveLength(1);
    expect(review[0].why).toMatch(/its base URL comes from IAM_URL, which holds \/iam\/v1 .*name the variable that holds the v2 base/);
  });

  it('rejectAssumptions: a call that relies on a rejected assumption stays on v1 (and the rule is back for the next run)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mv2-config-'));
    const roles = "export async function make(base: string, parent: string): Promise<void> {\n  await fetch(`${base}/iam/v1/roles/${parent}`, { method: 'POST', body: JSON.stringify({ name: 'x' }) });\n}\n";
    writeFileSync(join(dir, 'roles.ts'), roles);
    const assumed = await runCli([dir, '--json']);
    expect(JSON.parse(assumed.stdout).summary).toMatchObject({ changed: 1, review: 0 });
    writeFileSync(join(dir, 'migrate-v2.config.json'), JSON.stringify({ rejectAssumptions: ['Role.v2.endpoints.create'] }));
    const rejected = await runCli([dir, '--json']);
    expect(JSON.parse(rejected.stdout).review[0].why).toMatch(/v2beta1 has no create for roles/);
  });
});
