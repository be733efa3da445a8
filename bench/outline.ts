/**
 * Codemod on a real application (issue 10, item 3): outline/outline, taken from its mirror, with v1
 * functions added to the 40 files of its models and presenters that most files import
 * (test/generators/widely-imported.ts). Each build's CLI makes a dry run of it with outline's
 * tsconfig, in its own process; the builds take turns, and their outputs (diffs, review list,
 * summary) are compared. Skipped, with a line saying so, where the mirror is absent.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findFiles } from '../src/codemod/files.js';
import { addV1ToWidelyImported } from '../test/generators/widely-imported.js';
import { alternately, builds, fmt, median, PEAK_RSS_PROBE, verdict, type Build } from './support.js';

const run = promisify(execFile);
const MIRROR = process.env['MIGRATE_V2_OUTLINE_MIRROR'] ?? '/work/.mirror/outline+outline/repo';
const HEADING = '## Codemod on a real application (outline)';
const MODEL_FOLDERS = ['server/models', 'server/presenters', 'app/models'];
const FILES_WITH_V1 = 40;
const RUNS = 3;
const TARGET_SECONDS = 8;

/** outline's tree at the mirror's HEAD, in a fresh temporary folder (no node_modules: the dry run needs none). */
function extractOutline(): string {
  const root = mkdtempSync(join(tmpdir(), 'mv2-bench-outline-'));
  const tar = join(root, 'outline.tar');
  execFileSync('git', ['--git-dir', MIRROR, 'archive', '--output', tar, 'HEAD']);
  execFileSync('tar', ['-xf', tar, '-C', root]);
  rmSync(tar);
  return root;
}

interface OutlineRun {
  wall: number;
  /** User and system time, every thread: less moved than wall time by other work on the machine. */
  cpuSeconds: number;
  maxRssMiB: number;
  /** The summary line, without its time. */
  summary: string;
  /** Of the diffs and the review list: equal hashes, equal migration (the summary is shown beside it). */
  output: string;
}

/** One dry run of `root` by a build's CLI, measured by the peak RSS probe. */
async function dryRun(build: Build, root: string): Promise<OutlineRun> {
  const started = performance.now();
  const { stdout, stderr } = await run(process.execPath, ['--import', PEAK_RSS_PROBE, build.cli, root, '--tsconfig', join(root, 'tsconfig.json')], { cwd: root, maxBuffer: 256 << 20 });
  const wall = (performance.now() - started) / 1000;
  const lines = stderr.trimEnd().split('\n');
  const { maxRssMiB, cpuSeconds } = JSON.parse(lines.pop()!) as { maxRssMiB: number; cpuSeconds: number };
  // Warnings (packages not installed) may follow the summary line.
  const summaryLine = lines.findLast((l) => / files? scanned, /.test(l)) ?? '';
  const summary = summaryLine.replace(/, [\d.]+ s$/, '');
  const output = createHash('sha256').update(stdout).update(lines.filter((l) => l !== summaryLine).join('\n')).digest('hex').slice(0, 12);
  return { wall, cpuSeconds, maxRssMiB, summary, output };
}

export async function benchOutline(): Promise<string> {
  if (!existsSync(MIRROR)) return `${HEADING}\n\nSkipped: no mirror of outline/outline at ${MIRROR} (MIGRATE_V2_OUTLINE_MIRROR names another).\n`;
  const all = await builds();
  const root = extractOutline();
  const load = loadavg()[0]!;
  let runs: Map<Build, OutlineRun[]>;
  let files: number;
  try {
    const found = findFiles([root], {}, root);
    files = found.length;
    addV1ToWidelyImported(root, found, join(root, 'tsconfig.json'), { count: FILES_WITH_V1, under: MODEL_FOLDERS });
    runs = await alternately(all, RUNS, (build) => dryRun(build, root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const current = runs.get(all.at(-1)!)!;
  const outputs = new Set(current.map((r) => r.output));
  const base = all.length > 1 ? runs.get(all[0]!)! : undefined;
  const baseAgrees = base && base.every((r) => current.every((c) => c.output === r.output));
  const rows = all.map((build) => {
    const r = runs.get(build)!;
    return `| ${build.label} | ${fmt(median(r.map((x) => x.wall)), 2)} s (${r.map((x) => fmt(x.wall, 2)).join(', ')}) | ${fmt(median(r.map((x) => x.cpuSeconds)), 2)} s | ${fmt(median(r.map((x) => x.maxRssMiB)), 0)} MiB | ${r[0]!.output} | ${r[0]!.summary} |`;
  });
  return [
    HEADING,
    '',
    `outline/outline (${files} files the codemod reads) with v1 functions (a resource type, a list and an update) appended to the ${FILES_WITH_V1} files under ${MODEL_FOLDERS.map((f) => `\`${f}\``).join(', ')} that most files import (\`test/generators/widely-imported.ts\`; tsconfig \`paths\` and barrels counted). ` +
      `Each build's dry run (\`node --import bench/peak-rss-probe.js dist/src/cli.js DIR --tsconfig DIR/tsconfig.json\`), wall time from spawn to exit and peak RSS, median of ${RUNS} runs, the builds taking turns (\`node dist/bench/run.js outline\`; MIGRATE_V2_BENCH_BASE=/path/to/built/checkout adds a base build). ` +
      'The output hash covers the diffs and the review list; the summary line (without its time) stands beside it: its type-error counts are those of the files the self-check checks, the changed files and their importers in the program.',
    '',
    `Load average of the machine (${cpus().length} cores) when the runs began: ${fmt(load, 1)} (${fmt(loadavg()[0], 1)} at the end).`,
    '',
    '| build | wall (runs) | CPU | peak RSS | output hash | summary |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Target: under ${TARGET_SECONDS} s with the same output: ${verdict(median(current.map((x) => x.wall)) < TARGET_SECONDS && outputs.size === 1)} (${outputs.size === 1 ? "this build's runs gave the same diffs and review list" : "**this build's runs differ in their diffs or review lists**"}${base ? `; ${baseAgrees ? 'the same as the base' : "the base's differ: a base with other migration rules migrates the same files otherwise, so compare the diffs"}` : ''}).`,
    '',
  ].join('\n');
}
