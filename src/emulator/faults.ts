/**
 * Fault injection for API calls (`--faults`): server errors, 429 with Retry-After, connection resets,
 * truncated bodies, latency, and empty pages that still carry a token. Seeded, so a run repeats.
 */
import { numberSetting, parseSwitchSpec } from './switch-spec.js';
import { seededRandom, type Random } from './seeded-random.js';

export interface FaultSpec {
  /** Each a probability per request, 0 to 1. */
  serverError: number;
  tooManyRequests: number;
  reset: number;
  truncate: number;
  emptyPage: number;
  latencyMs: readonly [number, number];
  retryAfterSeconds: number;
  seed: number;
}

export const NO_FAULTS: FaultSpec = {
  serverError: 0,
  tooManyRequests: 0,
  reset: 0,
  truncate: 0,
  emptyPage: 0,
  latencyMs: [0, 0],
  retryAfterSeconds: 1,
  seed: 1,
};

const FLAG = '--faults';
const SETTINGS = ['5xx', '429', 'reset', 'truncate', 'empty-page', 'latency', 'retry-after', 'seed'] as const;

/** `5xx=0.1,429=0.05,reset=0.02,truncate=0.01,empty-page=0.05,latency=0-20,retry-after=1,seed=7` */
export function parseFaultSpec(text: string): FaultSpec {
  const v = parseSwitchSpec(FLAG, text, SETTINGS);
  const latency = (v.get('latency') ?? '0').split('-').map((n) => numberSetting(FLAG, new Map([['latency', n]]), 'latency', 0, 60_000));
  return {
    serverError: numberSetting(FLAG, v, '5xx', 0, 1),
    tooManyRequests: numberSetting(FLAG, v, '429', 0, 1),
    reset: numberSetting(FLAG, v, 'reset', 0, 1),
    truncate: numberSetting(FLAG, v, 'truncate', 0, 1),
    emptyPage: numberSetting(FLAG, v, 'empty-page', 0, 1),
    latencyMs: [latency[0] ?? 0, latency[1] ?? latency[0] ?? 0],
    retryAfterSeconds: numberSetting(FLAG, v, 'retry-after', 1, 3600),
    seed: numberSetting(FLAG, v, 'seed', 1),
  };
}

export type FaultKind = 'none' | 'server-error' | 'too-many-requests' | 'reset' | 'truncate';

export interface FaultDecision {
  kind: FaultKind;
  emptyPage: boolean;
  delayMs: number;
}

export class FaultInjector {
  private readonly random: Random;
  constructor(readonly spec: FaultSpec) {
    this.random = seededRandom(spec.seed);
  }

  decide(): FaultDecision {
    const s = this.spec;
    const [min, max] = s.latencyMs;
    // One draw per setting in a fixed order keeps a seeded run repeatable.
    const draws = [this.random(), this.random(), this.random(), this.random(), this.random(), this.random()] as const;
    const delayMs = max > 0 ? Math.round(min + draws[5] * (max - min)) : 0;
    let kind: FaultKind = 'none';
    if (draws[0] < s.reset) kind = 'reset';
    else if (draws[1] < s.serverError) kind = 'server-error';
    else if (draws[2] < s.tooManyRequests) kind = 'too-many-requests';
    else if (draws[3] < s.truncate) kind = 'truncate';
    return { kind, emptyPage: draws[4] < s.emptyPage, delayMs };
  }
}
