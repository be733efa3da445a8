/**
 * Verifier benchmark (issue: parity verifier): an audit of `large:100000` (100,000 groups and
 * 100,000 repos) beside a bare walk of the same endpoints, each in its own process, against one
 * emulator in a third; then `migrate-v2 verify` itself, as a user runs it, on `large:300000`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_TOKEN } from '../src/emulator/emulator.js';
import { CLI, fmt, PEAK_RSS_PROBE, startCliEmulator } from './support.js';

const run = promisify(execFile);
export const CHILD = fileURLToPath(new URL('./verify-child.js', import.meta.url));
const LARGE = 300_000;
const CONCURRENCY = 8;
const RUNS = 3;

interface Measured {
  mode: string;
  seconds: number;
  resources: number;
  requests: number;
  maxRssMiB: number;
  /** CPU time of the whole process, startup included. */
  cpuSeconds: number;
  verdict?: string;
}

/**
 * One run in its own process; `seconds` is timed inside it, `wall` from spawn to exit (startup
 * included). `child`: the verify-child.js of another build, to measure it side by side.
 */
export async function measure(mode: 'audit' | 'bare', url: string, child = CHILD): Promise<Measured & { wall: number }> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [child, mode, url, String(CONCURRENCY)], { maxBuffer: 1 << 20 });
  return { ...(JSON.parse(stdout.trim().split('\n').pop()!) as Measured), wall: (performance.now() - started) / 1000 };
}

export interface CliAudit {
  seconds: number;
  maxRssMiB: number;
  cpuSeconds: number;
  compared: number;
  requests: number;
  verdict: string;
}

/** One `migrate-v2 verify` child (of `cli`'s build), its wall time from spawn to exit and its own peak RSS (the probe's last stderr line). */
export async function cliAudit(args: string[], env: NodeJS.ProcessEnv = {}, cli = CLI): Promise<CliAudit> {
  const started = performance.now();
  const { stdout, stderr } = await run(process.execPath, ['--import', PEAK_RSS_PROBE, cli, 'verify', ...args, '--quiet', '--json'], {
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(stdout) as { verdict: string; stats: { requests: number }; summary: { compared: number }[] };
  const { maxRssMiB, cpuSeconds } = JSON.parse(stderr.trim().split('\n').pop()!) as { maxRssMiB: number; cpuSeconds: number };
  return { seconds, maxRssMiB, cpuSeconds, compared: report.summary.reduce((n, s) => n + s.compared, 0), requests: report.stats.requests, verdict: report.verdict };
}

/** The audit of `large:300000` (it once overflowed the stack), through the CLI: against an emulator in its own process, then the embedded one. */
async function benchLargeAudit(): Promise<string[]> {
  const emulator = await startCliEmulator(['--dataset', `large:${LARGE}`]);
  const remotes: CliAudit[] = [];
  try {
    for (let i = 0; i < RUNS; i++) remotes.push(await cliAudit(['--base-url', emulator.url], { MIGRATE_V2_TOKEN: DEFAULT_API_TOKEN }));
  } finally {
    await emulator.stop();
  }
  const remote = [...remotes].sort((a, b) => a.seconds - b.seconds)[Math.floor(RUNS / 2)]!;
  const embedded = await cliAudit(['--emulator-dataset', `large:${LARGE}`]);
  for (const r of [...remotes, embedded]) if (r.verdict !== 'parity') throw new Error(`the large audit did not find parity: ${r.verdict}`);
  const row = (label: string, r: CliAudit, rssMiB = r.maxRssMiB) => `| ${label} | ${fmt(r.seconds, 1)} s | ${fmt(rssMiB, 0)} MiB | ${r.compared} | ${r.requests} |`;
  return [
    '',
    `\`migrate-v2 verify\` through the CLI on \`large:${LARGE}\` (${LARGE.toLocaleString('en')} groups and ${LARGE.toLocaleString('en')} repos, every kind, defaults: concurrency 8, page_size 200); ` +
      'wall time from spawn to exit, peak RSS of the verify process itself (read at its exit by `bench/peak-rss-probe.ts`, loaded with `node --import`). ' +
      `Against a server: median wall of ${RUNS} runs (${remotes.map((r) => fmt(r.seconds, 1)).join(', ')} s) and the highest peak RSS of them; the embedded emulator: one run.`,
    '',
    '| command | wall | peak RSS | compared | requests |',
    '|---|---|---|---|---|',
    row(`\`migrate-v2 emulator --port 0 --dataset large:${LARGE}\` in one process, then \`MIGRATE_V2_TOKEN=${DEFAULT_API_TOKEN} migrate-v2 verify --base-url URL --quiet --json\``, remote, Math.max(...remotes.map((r) => r.maxRssMiB))),
    row(`\`migrate-v2 verify --emulator-dataset large:${LARGE} --quiet --json\` (the emulator and its store in the same process)`, embedded),
    '',
    'Target: peak RSS under 1 GB for the audit against a server (before the v1 fix this run ended with "Maximum call stack size exceeded").',
  ];
}

/** The audit beside a bare walk of the same endpoints, alternating, each in its own process. */
async function benchAuditAgainstBareWalk(): Promise<string[]> {
  const emulator = await startCliEmulator(['--dataset', 'large:100000']);
  try {
    await measure('bare', emulator.url); // warm the emulator's sorted views
    // Alternate the two, three times each, and keep each one's median run: single runs vary by 20%.
    const runs: { bare: Measured[]; audit: Measured[] } = { bare: [], audit: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.bare.push(await measure('bare', emulator.url));
      runs.audit.push(await measure('audit', emulator.url));
    }
    const median = (ms: Measured[]) => [...ms].sort((a, b) => a.seconds - b.seconds)[Math.floor(ms.length / 2)]!;
    const bare = median(runs.bare);
    const audit = median(runs.audit);
    const spread = (ms: Measured[]) => ms.map((m) => fmt(m.seconds, 2)).join(', ');
    if (audit.verdict !== 'parity') throw new Error(`the benchmark audit did not find parity: ${audit.verdict}`);
    const row = (m: Measured) =>
      `| ${m.mode} | ${fmt(m.seconds, 2)} s | ${fmt(m.resources / m.seconds, 0)} | ${m.requests} | ${fmt(m.requests / m.seconds, 0)} | ${fmt(m.maxRssMiB, 0)} MiB |`;
    return [
      '## Parity verifier',
      '',
      `Audit of \`large:100000\` (100,000 groups and 100,000 repos; v1 lists and every v2 page at page_size=200), concurrency ${CONCURRENCY}, ` +
        'beside a bare walk of the same endpoints (undici, same concurrency, nothing compared). Each in its own process; the emulator in a third.',
      '',
      '| run | wall | resources/s (v1 + v2 records read) | requests | requests/s | peak RSS |',
      '|---|---|---|---|---|---|',
      row(bare),
      row(audit),
      '',
      `Median of ${RUNS} alternating runs each (bare: ${spread(runs.bare)} s; audit: ${spread(runs.audit)} s).`,
      `Audit / bare walk: **${fmt(audit.seconds / bare.seconds, 2)}x** (target: within 1.5x). Audit peak RSS: **${fmt(Math.max(...runs.audit.map((m) => m.maxRssMiB)), 0)} MiB** at most (target: under 400 MB).`,
    ];
  } finally {
    await emulator.stop();
  }
}

export async function benchVerify(): Promise<string> {
  return [...(await benchAuditAgainstBareWalk()), ...(await benchLargeAudit()), ''].join('\n');
}
