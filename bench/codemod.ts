/**
 * Codemod benchmark (issue: codemod): a dry run over a generated monorepo of 5,000 TypeScript files
 * of about 150 lines, 10% of them talking to v1, the rest using .id, .items and createdAt on their
 * own objects.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { fmt } from './support.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./codemod-child.js', import.meta.url));
const FILES = 5000;

function localFile(i: number): string {
  const lines = [`// generated module ${i}: no platform calls`, `export interface Order${i} { id: string; createdAt: string; items: { id: string; qty: number }[] }`, ''];
  for (let f = 0; lines.length < 145; f++) {
    lines.push(
      `export function total${f}(order: Order${i}): number {`,
      `  const ids = order.items.map((item) => item.id);`,
      `  const created = new Date(order.createdAt).getTime();`,
      `  if (ids.length === 0 || Number.isNaN(created)) return 0;`,
      `  return order.items.reduce((sum, item) => sum + item.qty, 0) + order.id.length;`,
      `}`,
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function apiFile(i: number): string {
  const lines = [
    `const BASE = process.env.PLATFORM_URL ?? 'https://platform.example.com';`,
    `export interface Group${i} { id: string; name: string; description: string }`,
    '',
    `export async function listGroups${i}(token: string): Promise<Group${i}[]> {`,
    "  const res = await fetch(`${BASE}/iam/v1/groups`, { headers: { authorization: `Bearer ${token}` } });",
    '  const body = await res.json();',
    '  return body.items;',
    '}',
    '',
    `export async function describe${i}(group: Group${i}, description: string) {`,
    "  await fetch(`${BASE}/iam/v1/groups/${group.id}`, { method: 'PUT', body: JSON.stringify({ ...group, description }) });",
    '}',
    '',
    `export async function bindings${i}() {`,
    "  const res = await fetch(`${BASE}/iam/v1/rolebindings`);",
    '  const { items } = await res.json();',
    '  return items.map((b: any) => `${b.identity} ${b.role.id} ${b.createdAt}`);',
    '}',
    '',
  ];
  return `${lines.join('\n')}${localFile(i).split('\n').slice(1).join('\n')}`;
}

export function generateMonorepo(files = FILES): string {
  const root = mkdtempSync(join(tmpdir(), 'mv2-bench-monorepo-'));
  // The monorepo type-checks before the migration, as a real one does: the self-check then has a clean baseline.
  writeFileSync(join(root, 'globals.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true } }));
  for (let i = 0; i < files; i++) {
    const dir = join(root, `packages/pkg-${Math.floor(i / 100)}/src`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `module-${i}.ts`), i % 10 === 0 ? apiFile(i) : localFile(i));
  }
  return root;
}

/** One generated client file of about `kb` KB: v1 calls, updates and local objects, over and over. */
function largeFile(kb: number): string {
  const parts = ["const BASE = 'https://platform.example.com';", ''];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const block = [
      `export async function listGroups${i}(): Promise<string[]> {`,
      '  const res = await fetch(`${BASE}/iam/v1/groups`);',
      '  const body = await res.json();',
      '  return body.items.map((g: any) => `${g.id} ${g.createdAt}`);',
      '}',
      `export async function describe${i}(group: { id: string }, description: string) {`,
      "  await fetch(`${BASE}/iam/v1/groups/${group.id}`, { method: 'PUT', body: JSON.stringify({ ...group, description }) });",
      '}',
      `export function local${i}(order: { id: number; items: { id: number }[] }) { return order.items.map((x) => x.id + order.id); }`,
      '',
    ].join('\n');
    parts.push(block);
    size += block.length + 1;
  }
  return parts.join('\n');
}

/** Dry runs of one large file and of one a tenth its size: the cost must grow with the size, not its square. */
async function benchLargeFile(): Promise<string[]> {
  const rows: string[] = [];
  const seconds: number[] = [];
  for (const kb of [250, 2500]) {
    const dir = mkdtempSync(join(tmpdir(), 'mv2-bench-large-'));
    try {
      writeFileSync(join(dir, 'client.ts'), largeFile(kb));
      const { stdout } = await run(process.execPath, [CHILD, dir], { maxBuffer: 1 << 20 });
      const r = JSON.parse(stdout.trim()) as { seconds: number; maxRssMiB: number; summary: { review: number } };
      seconds.push(r.seconds);
      rows.push(`| ${kb} KB | ${fmt(r.seconds, 2)} s | ${fmt(r.maxRssMiB, 0)} MiB | ${r.summary.review} |`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    '',
    'One large generated client file (no tsconfig), dry run in its own process: the cost grows with the size. Targets: 2.5 MB under 60 s and within 15x of 250 KB.',
    '',
    '| file | wall | peak RSS | review items |',
    '|---|---|---|---|',
    ...rows,
    '',
    `2.5 MB / 250 KB: **${fmt(seconds[1]! / seconds[0]!, 1)}x** (before: a 2.2 MB file did not finish in 300 s).`,
  ];
}

export async function benchCodemod(): Promise<string> {
  const root = generateMonorepo();
  try {
    const measure = async () => {
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const { stdout } = await run(process.execPath, [CHILD, root], { maxBuffer: 1 << 20 });
        runs.push(JSON.parse(stdout.trim()) as { seconds: number; maxRssMiB: number; summary: { scanned: number; changed: number; review: number } });
      }
      return { runs, median: [...runs].sort((a, b) => a.seconds - b.seconds)[1]! };
    };
    const typed = await measure();
    renameSync(join(root, 'tsconfig.json'), join(root, 'tsconfig.off.json'));
    const syntax = await measure();
    const row = (label: string, m: Awaited<ReturnType<typeof measure>>) =>
      `| ${label} | ${fmt(m.median.seconds, 2)} s (${m.runs.map((r) => fmt(r.seconds, 2)).join(', ')}) | ${fmt(m.median.summary.scanned / m.median.seconds, 0)} | ${fmt(Math.max(...m.runs.map((r) => r.maxRssMiB)), 0)} MiB | ${m.median.summary.changed} / ${m.median.summary.review} |`;
    return [
      '## Codemod',
      '',
      `Dry run over a generated monorepo of ${FILES} TypeScript files (about 150 lines each; every tenth calls v1, the rest use .id, .items and createdAt on their own objects), in its own process; median of 3 runs. ` +
        'The monorepo type-checks before the migration. With its tsconfig the files holding v1 paths (and their importers) are analysed with the type checker, and the changed files and their importers are type-checked in memory after the migration (the self-check); without one, each file is read alone with the standard lib and nothing is type-checked.',
      '',
      '| run | wall (runs) | files/s | peak RSS | to change / review items |',
      '|---|---|---|---|---|',
      row('with tsconfig (types)', typed),
      row('without tsconfig (syntax)', syntax),
      '',
      'Targets: under 20 s and under 1 GB peak RSS, self-check included. Before the one-analysis codemod (issue 7): 8.44 s / 538 MiB with types, 7.21 s / 478 MiB without, on a monorepo that did not type-check and with no self-check.',
      ...(await benchLargeFile()),
      '',
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
