/**
 * `migrate-v2 emulator`: typed options in, a running server out. Flag text is checked here and
 * turned into UsageErrors; the CLI prints them.
 */
import type { ApiVersion } from '../contract/index.js';
import { UsageError } from '../errors.js';
import { datasetJson, loadDataset } from '../emulator/datasets.js';
import { parseDriftSpec } from '../emulator/drift.js';
import { parseFaultSpec } from '../emulator/faults.js';
import type { EmulatorOptions } from '../emulator/emulator.js';
import { startEmulator, type RunningEmulator } from '../emulator/node-server.js';
import { fileRequestLog, type FileRequestLog } from '../emulator/request-log.js';
import { httpUrl, wholeNumber } from './options.js';

export interface EmulatorCommandOptions {
  port: string;
  host: string;
  publicUrl?: string;
  token?: string;
  dataset: string;
  disable?: string[];
  pageTokenTtl?: string;
  requestLog?: string;
  faults?: string;
  drift?: string;
  seed?: string;
}

function versions(flag: string, values: readonly string[]): ApiVersion[] {
  const out = values.map((v) => {
    const version = v === 'v2beta1' ? 'v2' : v;
    if (version !== 'v1' && version !== 'v2') throw new UsageError(`${flag} takes v1 or v2, got "${v}"`);
    return version;
  });
  if (out.includes('v1') && out.includes('v2')) throw new UsageError(`${flag}: disabling both versions leaves nothing to serve`);
  return out;
}

export interface StartedEmulator {
  running: RunningEmulator;
  /** Lines for stderr: what was loaded and what was injected. Never a token. */
  notes: string[];
  stop(): Promise<void>;
}

/** `tuning`: what a caller that embeds the emulator sets beyond the flags. */
export async function startEmulatorCommand(options: EmulatorCommandOptions, tuning: Pick<EmulatorOptions, 'cacheRenderings'> = {}): Promise<StartedEmulator> {
  const port = wholeNumber('--port', options.port, 0, 65535);
  const publicUrl = options.publicUrl === undefined ? undefined : httpUrl('--public-url', options.publicUrl);
  const seed = options.seed === undefined ? 1 : wholeNumber('--seed', options.seed, 0, 2 ** 31);
  let ttl: number | undefined;
  if (options.pageTokenTtl !== undefined) {
    ttl = Number(options.pageTokenTtl);
    if (!Number.isFinite(ttl) || ttl <= 0) throw new UsageError(`--page-token-ttl must be a positive number of seconds, got "${options.pageTokenTtl}"`);
  }
  if (options.token !== undefined && !/^[\x21-\x7e]+$/.test(options.token)) throw new UsageError('--token must be printable ASCII without spaces');
  const faults = options.faults ? parseFaultSpec(options.faults) : undefined;
  const drift = options.drift ? parseDriftSpec(options.drift) : undefined;
  const disable = versions('--disable', options.disable ?? []);
  const store = loadDataset(options.dataset, seed);
  let log: FileRequestLog | undefined;
  if (options.requestLog) log = fileRequestLog(options.requestLog);
  let running: RunningEmulator;
  try {
    running = await startEmulator({
      store,
      port,
      host: options.host,
      ...(publicUrl ? { publicUrl } : {}),
      seed,
      disable,
      ...(options.token ? { token: options.token } : {}),
      ...(ttl ? { pageTokenTtlSeconds: ttl } : {}),
      ...(faults ? { faults } : {}),
      ...(drift ? { drift } : {}),
      ...(log ? { requestLog: log.sink } : {}),
      ...tuning,
    });
  } catch (error) {
    await log?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new UsageError(`cannot listen on ${options.host}:${port}: ${code}`);
    }
    throw error;
  }
  const counts = ['Group', 'Identity', 'Role', 'RoleBinding', 'Repo', 'Tag', 'Advisory'] as const;
  const notes = [
    `dataset ${options.dataset}: ${counts.map((k) => `${store.count(k)} ${k}`).join(', ')}`,
    `serving ${disable.includes('v1') ? '' : 'v1 '}${disable.includes('v2') ? '' : 'v2beta1 '}and the token exchange as ${running.baseUrl} (the audience it takes)`,
  ];
  // A wildcard address is where it listens, not where anyone reaches it: tokens name an audience no client calls.
  if (!publicUrl && (options.host === '0.0.0.0' || options.host === '::')) {
    notes.push(`warning: listening on every interface (${options.host}) without --public-url: the token exchange takes ${running.baseUrl} as its audience, an address no client calls; give the URL clients use with --public-url`);
  }
  if (drift) notes.push(`drift plan: ${JSON.stringify(running.emulator.drift.plan)}`);
  if (faults) notes.push(`faults: ${JSON.stringify(faults)}`);
  return {
    running,
    notes,
    stop: async () => {
      await running.close();
      await log?.close();
    },
  };
}

export function printDataset(dataset: string, seed?: string): string {
  return datasetJson(loadDataset(dataset, seed === undefined ? 1 : wholeNumber('--seed', seed, 0, 2 ** 31)));
}
