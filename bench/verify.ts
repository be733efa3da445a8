/**
 * Verifier benchmark (issue: parity verifier): an audit of `large:100000` (100,000 groups and
 * 100,000 repos) beside a bare walk of the same endpoints, each in its own process, against one
 * emulator in a third.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { fmt, startCliEmulator } from './support.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./verify-child.js', import.meta.url));
const CONCURRENCY = 8;
const RUNS = 3;

interface Measured {
  mode: string;
  seconds: number;
  resources: number;
  requests: number;
  maxRssMiB: number;
  verdict?: string;
}

async function measure(mode: 'audit' | 'bare', url: string): Promise<Measured> {
  const { stdout } = await run(process.execPath, [CHILD, mode, url, String(CONCURRENCY)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Measured;
}

export async function benchVerify(): Promise<string> {
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
      '',
    ].join('\n');
  } finally {
    await emulator.stop();
  }
}
