/** Runs the built CLI as a child process, as a user would. */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Flags for node itself, before the CLI's path (`--import`, say). */
  nodeArgs?: string[];
}

function spawnCli(args: string[], options: CliOptions): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
}

export function runCli(args: string[], options: CliOptions & { timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command and resolves once its first stdout line is out. */
export function startCli(args: string[], options: CliOptions = {}): Promise<{ child: ChildProcessWithoutNullStreams; firstLine: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve({ child, firstLine: out.slice(0, newline), stderr: () => err });
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before printing a line: ${err}`)));
  });
}

/** Waits, on the stream's data events and no timer, until what a child wrote so far (`written()`) contains `text`. */
export async function untilWritten(stream: Readable, written: () => string, text: string): Promise<string> {
  while (!written().includes(text)) await once(stream, 'data');
  return written();
}

/** Stops a long-running child with SIGTERM and waits until it is gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}
