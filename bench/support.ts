/** Helpers the benchmarks share: starting the CLI emulator, percentiles, peak memory, machine facts. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
/** Loaded with `node --import` ahead of a measured process: prints its peak RSS at exit. */
export const PEAK_RSS_PROBE = new URL('./peak-rss-probe.js', import.meta.url).href;

export interface BenchEmulator {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `cli`: the CLI of another build (a base checkout), to measure side by side. */
export function startCliEmulator(args: string[], cli = CLI): Promise<BenchEmulator> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'emulator', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) {
        resolve({
          url: line.replace('listening on ', ''),
          child,
          stop: () =>
            new Promise((done) => {
              child.once('close', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('close', (code) => reject(new Error(`emulator exited ${code}: ${err}`)));
  });
}

/** Peak resident set of a process, in MiB (Linux /proc). */
export function peakRssMiB(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export const median = (values: number[]): number => percentile(values, 50);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

export const fmt = (n: number | undefined, digits = 1): string => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
