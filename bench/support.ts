/** Helpers the benchmarks share: starting the CLI emulator, percentiles, peak memory, machine facts. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
/** The built checkout (its `dist/` parent) these benchmarks come from. */
const HERE = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(HERE, 'dist', 'src', 'cli.js');
/** Loaded with `node --import` ahead of a measured process: prints its peak RSS at exit. */
export const PEAK_RSS_PROBE = new URL('./peak-rss-probe.js', import.meta.url).href;

/** A built checkout to measure: this one, or a base build side by side with it (MIGRATE_V2_BENCH_BASE). */
export interface Build {
  label: string;
  cli: string;
  /** Its bench/verify-child.js: the audit in process. */
  verifyChild: string;
  /** Its bench/codemod-child.js: one dry run in process. */
  codemodChild: string;
}

function buildAt(root: string, label: string): Build {
  const dist = join(root, 'dist');
  return { label, cli: join(dist, 'src', 'cli.js'), verifyChild: join(dist, 'bench', 'verify-child.js'), codemodChild: join(dist, 'bench', 'codemod-child.js') };
}

/** The commit a checkout is at, and whether its code differs from it. */
async function commitOf(root: string): Promise<string> {
  const { stdout } = await run('git', ['-C', root, 'rev-parse', '--short', 'HEAD']);
  const { stdout: changes } = await run('git', ['-C', root, 'status', '--porcelain', '--', 'src', 'codemods']);
  return `${stdout.trim()}${changes.trim() ? ' with uncommitted changes' : ''}`;
}

/** This build, after the base build MIGRATE_V2_BENCH_BASE names (a built checkout), when it names one. */
export async function builds(): Promise<Build[]> {
  const current = buildAt(HERE, `this build (${await commitOf(HERE)})`);
  const base = process.env['MIGRATE_V2_BENCH_BASE'];
  if (!base) return [current];
  return [buildAt(base, `base ${await commitOf(base)}`), current];
}

/** Runs `measureOnce` for every build, `runs` times, the builds taking turns. */
export async function alternately<T>(all: Build[], runs: number, measureOnce: (build: Build) => Promise<T>): Promise<Map<Build, T[]>> {
  const out = new Map(all.map((b) => [b, [] as T[]]));
  for (let i = 0; i < runs; i++) for (const build of all) out.get(build)!.push(await measureOnce(build));
  return out;
}

export const verdict = (met: boolean): string => (met ? 'met' : '**not met**');

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
