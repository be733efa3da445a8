/**
 * Only the codemod may load TypeScript: `--version`, `--help`, `contract`, `verify` and `emulator`
 * must start without it (ts-morph costs most of a second and 90 MiB). The CLI runs as a child with a
 * module recorder loaded ahead of it (helpers/loaded-modules/record.mjs); nothing here is timed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_TOKEN } from '../../src/emulator/emulator.js';
import { runCli, startCli, stopChild, type CliOptions } from '../helpers/cli.js';
import { useEmulator } from '../helpers/emulator.js';

const RECORDER = fileURLToPath(new URL('../helpers/loaded-modules/record.mjs', import.meta.url));
const TYPESCRIPT = /[\\/]node_modules[\\/](typescript|ts-morph|@ts-morph)[\\/]/;
const tmp = mkdtempSync(join(tmpdir(), 'mv2-startup-'));
let runs = 0;

/** Options that make a CLI child record what it loads, and a reader of that record once it has exited. */
function recorded(env: NodeJS.ProcessEnv = {}): { options: CliOptions; loaded: () => string[] } {
  const file = join(tmp, `loaded-${++runs}.txt`);
  return {
    options: { nodeArgs: ['--import', RECORDER], env: { ...env, LOADED_MODULES_FILE: file } },
    loaded: () => readFileSync(file, 'utf8').split('\n').filter(Boolean),
  };
}

async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const { options, loaded } = recorded(env);
  const r = await runCli(args, options);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBeLessThanOrEqual(1);
  return loaded();
}

const typescriptIn = (paths: string[]) => paths.filter((p) => TYPESCRIPT.test(p));

describe('what each command loads', () => {
  it('the recorder sees TypeScript where the codemod loads it', async () => {
    const loaded = await loadedBy(['--list-transforms']);
    expect(loaded.some((p) => p.endsWith(join('dist', 'src', 'commands', 'migrate.js')))).toBe(true);
    expect(typescriptIn(loaded)).not.toEqual([]);
  });

  it.each(['--version', '--help', 'verify --help', 'emulator --help', 'contract', 'contract --json'])('%s loads no TypeScript', async (line) => {
    const loaded = await loadedBy(line.split(' '));
    expect(loaded.some((p) => p.endsWith(join('dist', 'src', 'cli.js')))).toBe(true);
    expect(typescriptIn(loaded)).toEqual([]);
  });

  it('verify loads no TypeScript, with the embedded emulator or against a server', async () => {
    const embedded = await loadedBy(['verify', '--quiet']);
    expect(embedded.some((p) => p.endsWith(join('dist', 'src', 'verify', 'audit.js')))).toBe(true);
    expect(embedded.some((p) => p.endsWith(join('dist', 'src', 'emulator', 'emulator.js')))).toBe(true);
    expect(typescriptIn(embedded)).toEqual([]);

    const server = await useEmulator();
    const remote = await loadedBy(['verify', '--quiet', '--base-url', server.url], { MIGRATE_V2_TOKEN: DEFAULT_API_TOKEN });
    expect(remote.some((p) => p.endsWith(join('dist', 'src', 'verify', 'audit.js')))).toBe(true);
    expect(typescriptIn(remote)).toEqual([]);
  });

  it('emulator loads no TypeScript while it serves', async () => {
    const { options, loaded } = recorded();
    const { child, firstLine } = await startCli(['emulator', '--port', '0'], options);
    const url = firstLine.slice('listening on '.length);
    const reply = await fetch(`${url}/iam/v2beta1/groups`, { headers: { authorization: `Bearer ${DEFAULT_API_TOKEN}` } });
    expect(reply.status).toBe(200);
    await stopChild(child);
    expect(loaded().some((p) => p.endsWith(join('dist', 'src', 'emulator', 'node-server.js')))).toBe(true);
    expect(typescriptIn(loaded())).toEqual([]);
  });
});
