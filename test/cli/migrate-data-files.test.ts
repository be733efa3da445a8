/**
 * v1 paths kept in data and settings files: the code that reads them cannot be connected to them,
 * so the run notes each such file (its first v1 path's line) and changes none; a recording a test
 * names is the test's, lock files the package manager's, its config and reports migrate-v2's. With
 * --shard each file is one shard's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const FILES: Record<string, string> = {
  'app.mjs': [
    "import { readFileSync } from 'node:fs';",
    "const paths = JSON.parse(readFileSync(new URL('./endpoints.json', import.meta.url), 'utf8'));",
    'const res = await fetch(`${process.env.PLATFORM_URL}${paths.groups}`);',
    'console.log((await res.json()).items.length);',
    '',
  ].join('\n'),
  'endpoints.json': '{\n  "timeoutMs": 5000,\n  "groups": "/iam/v1/groups",\n  "repos": "/registry/v1/repos"\n}\n',
  '.env': 'PLATFORM_URL=http://localhost:8080\nTAGS_PATH=/registry/v1/tags\n',
  'settings.yaml': 'retries: 3\nbase: /iam/v2beta1\n',
  'client.test.mjs': "import answers from './recorded.json' with { type: 'json' };\nconsole.log(answers);\n",
  'recorded.json': '{ "/iam/v1/groups": { "items": [] } }\n',
  'package-lock.json': '{ "note": "/iam/v1/groups" }\n',
  'migrate-v2.config.json': '{ "baseUrls": [{ "name": "IAM_URL", "path": "/iam/v1" }] }\n',
  'last-run.json': '{\n  "tool": "migrate-v2",\n  "files": [{ "path": "a.ts", "review": [{ "why": "/iam/v1/groups stays" }] }]\n}\n',
};

function project(): { dir: string; before: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-data-files-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  return { dir, before: FILES };
}

interface Item {
  path: string;
  line: number;
  why: string;
}

async function review(args: string[]): Promise<Item[]> {
  const r = await runCli([...args, '--json']);
  return (JSON.parse(r.stdout) as { review: Item[] }).review;
}

it('notes each data file that holds v1 paths at its first one, and changes none', async () => {
  const { dir, before } = project();
  const r = await runCli([dir]);
  expect(r.stderr).toMatch(/endpoints\.json:3: this file holds v1 paths \(first: \/iam\/v1\/groups, on 2 lines\), which the code reading it from here goes on asking for: .*move them to v2 \(\/iam\/v2beta1\/groups\)/);
  expect(r.stderr).toMatch(/\.env:2: this file holds v1 paths \(first: \/registry\/v1\/tags\)/);
  expect(r.stderr).not.toMatch(/recorded\.json|package-lock\.json|settings\.yaml|migrate-v2\.config\.json|last-run\.json/);
  expect(r.code).toBe(0);
  expect((await runCli([dir, '--check', '--quiet'])).code).toBe(1);
  await runCli([dir, '--write']);
  for (const [name, text] of Object.entries(before)) if (name !== 'app.mjs') expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
});

it('gives each noted data file to one shard: the shards are disjoint and together the unsharded run', async () => {
  const { dir } = project();
  const whole = await review([dir]);
  const shards = [await review([dir, '--shard', '1/2']), await review([dir, '--shard', '2/2'])];
  const data = (items: Item[]) => items.filter((i) => /\.(?:json|env)$/.test(i.path)).map((i) => `${i.path}:${i.line}`);
  expect(data(whole)).toHaveLength(2);
  expect(data(shards[0]!).filter((p) => data(shards[1]!).includes(p))).toEqual([]);
  expect([...data(shards[0]!), ...data(shards[1]!)].sort()).toEqual(data(whole).sort());
});
