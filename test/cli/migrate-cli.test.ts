/** `migrate-v2 [paths...]` as a user runs it: dry run, --write, --check, reports, safety. */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TRANSFORMS } from '../../codemods/index.js';
import { runCli } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/codemods/', import.meta.url));

function project(files: Record<string, string>, git = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-migrate-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  if (git) {
    const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    run('init', '-q');
    run('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
    run('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'start');
  }
  return dir;
}

const V1 = readFileSync(join(FIXTURES, 'updates/explicit-and-unknown.input.ts'), 'utf8');
const V2 = readFileSync(join(FIXTURES, 'updates/explicit-and-unknown.output.ts'), 'utf8');

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).filter((f) => !f.startsWith('.')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('migrate-v2 (CLI)', () => {
  it('dry run: prints a plain unified diff and a summary, changes nothing, exits 0', async () => {
    const dir = project({ 'client.ts': V1, 'other.ts': 'export const x = 1;\n' });
    const before = snapshot(dir);
    const r = await runCli([dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^--- a\/.*client\.ts\n\+\+\+ b\/.*client\.ts/m);
    expect(r.stdout).toMatch(/^\+  return axios\.patch\(/m);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    expect(r.stderr).toMatch(/client\.ts:11: the fields this update sets are not known/);
    expect(r.stderr).toMatch(/2 files scanned, 1 to change, 1 unchanged, 1 manual-review item, 0 errors, [\d.]+ s/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('--write applies the changes; a second run finds nothing to do', async () => {
    const dir = project({ 'client.ts': V1 });
    const r = await runCli([dir, '--write']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(V2);
    expect(readdirSync(dir)).toEqual(['client.ts']);
    const again = await runCli([dir, '--write']);
    expect(again.stderr).toMatch(/1 file scanned, 0 changed, 1 unchanged, 1 manual-review item/);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(V2);
  });

  it('keeps a BOM, CRLF line endings and untouched lines byte for byte', async () => {
    const crlf = `\uFEFF${V1.replace(/\n/g, '\r\n')}`;
    const dir = project({ 'client.ts': crlf });
    await runCli([dir, '--write']);
    const after = readFileSync(join(dir, 'client.ts'), 'utf8');
    expect(after).toBe(`\uFEFF${V2.replace(/\n/g, '\r\n')}`);
  });

  it('refuses to write over uncommitted changes unless --allow-dirty', async () => {
    const dir = project({ 'client.ts': V1 }, true);
    writeFileSync(join(dir, 'client.ts'), `${V1}// local edit\n`);
    const r = await runCli([dir, '--write']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/uncommitted changes .*client\.ts.*--allow-dirty/);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(`${V1}// local edit\n`);
    const forced = await runCli([dir, '--write', '--allow-dirty']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(`${V2}// local edit\n`);
  });

  it('--check exits 1 while work is pending and 0 on a tree with no v1 usage, which it leaves alone', async () => {
    expect((await runCli([project({ 'client.ts': V1 }), '--check', '--quiet'])).code).toBe(1);
    const clean = project({ 'a.ts': 'export const users = "/api/v1/users";\n', 'b.js': 'module.exports = { id: 1, items: [] };\n' });
    const before = snapshot(clean);
    const r = await runCli([clean, '--check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/2 files scanned, 0 to change, 2 unchanged, 0 manual-review items, 0 errors/);
    expect(snapshot(clean)).toEqual(before);
  });

  it('writes markdown and JSON reports, a patch, and the GitHub step summary', async () => {
    const dir = project({ 'client.ts': V1 });
    const out = mkdtempSync(join(tmpdir(), 'mv2-out-'));
    const summary = join(out, 'summary.md');
    const r = await runCli([dir, '--report', join(out, 'r.md'), '--patch', join(out, 'p.diff')], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, 'r.md'), 'utf8');
    expect(md).toMatch(/^## migrate-v2: v1 to v2beta1/);
    expect(md).toMatch(/### Manual review \(1\)/);
    expect(md).toMatch(/\]\(.*client\.ts#L11\)/);
    expect(md).toMatch(/<details><summary><code>[^<`]*client\.ts<\/code><\/summary>\n\n```diff/);
    expect(readFileSync(join(out, 'p.diff'), 'utf8')).toBe(r.stdout);
    expect(readFileSync(summary, 'utf8')).toBe(md);
    await runCli([dir, '--report', join(out, 'r.json')]);
    const json = JSON.parse(readFileSync(join(out, 'r.json'), 'utf8'));
    expect(json.summary).toMatchObject({ scanned: 1, changed: 1, review: 1, errors: 0 });
    expect(json.files[0].review[0]).toMatchObject({ line: 11, transform: 'updates' });
  });

  it('keeps the markdown report whole around a source line of three backticks, and times out of its body', async () => {
    const doc = ['/*', 'Usage:', '```ts', 'await countGroups(token);', '```', '*/'].join('\n');
    const dir = project({ 'client.ts': V1.replace('export async function', `${doc}\nexport async function`) });
    const out = mkdtempSync(join(tmpdir(), 'mv2-out-'));
    const r = await runCli([dir, '--report', join(out, 'r.md')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/, [\d.]+ s\n$/);
    const md = readFileSync(join(out, 'r.md'), 'utf8');
    const diff = /\n(`{3,})diff\n([\s\S]*?)\n\1\n/.exec(md);
    expect(diff?.[1]).toBe('````');
    expect(diff?.[2]).toMatch(/^ ```\n \*\/\n export async function/m);
    expect(diff?.[2]).toMatch(/^\+  return axios\.patch\(/m);
    expect(md).not.toMatch(/\btime\b|\d s\b/);
  });

  it('--json prints the summary and review items; --transforms runs a subset; --list-transforms lists them', async () => {
    const dir = project({ 'client.ts': V1 });
    const json = await runCli([dir, '--json']);
    expect(JSON.parse(json.stdout).summary.changed).toBe(1);
    const onlyPaths = await runCli([dir, '--transforms', 'paths', '--write']);
    expect(onlyPaths.code).toBe(0);
    const text = readFileSync(join(dir, 'client.ts'), 'utf8');
    expect(text).toMatch(/\/iam\/v2beta1\/groups/);
    expect(text).toMatch(/method: "PUT"/);
    const list = await runCli(['--list-transforms']);
    expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split(' ')[0])).toEqual(TRANSFORMS.map((t) => t.name));
  });

  it('--patch applies with git apply and gives what --write writes, also where a helper is added at the end', async () => {
    const files = { 'plain.js': readFileSync(join(FIXTURES, 'file-kinds/plain.input.js'), 'utf8'), 'not-found.ts': readFileSync(join(FIXTURES, 'get-by-list/not-found.input.ts'), 'utf8') };
    const dir = project(files);
    const r = await runCli(['.', '--patch', 'p.diff'], { cwd: dir });
    expect(r.code).toBe(0);
    execFileSync('git', ['apply', 'p.diff'], { cwd: dir });
    const applied = snapshot(dir);
    const written = project(files);
    await runCli(['.', '--write'], { cwd: written });
    expect({ ...applied, 'p.diff': undefined }).toEqual({ ...snapshot(written), 'p.diff': undefined });
    expect(applied['plain.js']).not.toBe(files['plain.js']);
  });

  it('skips node_modules, build output and git-ignored files; honours --include and --exclude', async () => {
    const dir = project({ 'a.ts': V1, 'b.ts': V1, '.gitignore': 'ignored.ts\n', 'ignored.ts': V1 }, true);
    for (const sub of ['node_modules', 'dist']) {
      cpSync(join(dir, 'a.ts'), join(dir, `${sub}-a.ts`));
    }
    execFileSync('mkdir', ['-p', join(dir, 'node_modules/pkg'), join(dir, 'dist')]);
    writeFileSync(join(dir, 'node_modules/pkg/index.ts'), V1);
    writeFileSync(join(dir, 'dist/out.js'), V1);
    const r = await runCli([dir, '--exclude', '**/b.ts', '--json']);
    const paths = JSON.parse(r.stdout).review.map((x: { path: string }) => x.path.split('/').pop());
    expect(paths.sort()).toEqual(['a.ts', 'dist-a.ts', 'node_modules-a.ts']);
    const included = await runCli([dir, '--include', '**/a.ts', '--json']);
    expect(JSON.parse(included.stdout).summary.scanned).toBe(1);
  });

  it('refuses bad flags and missing paths with exit 2, no stack trace', async () => {
    for (const args of [['/no/such/dir'], ['.', '--transforms', 'nope'], ['.', '--report', 'x.txt'], ['.', '--write', '--check']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^migrate-v2: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
