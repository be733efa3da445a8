/**
 * Parses the `name=value,name=value` specs of `--faults` and `--drift`. A bare name means `1`.
 */
import { UsageError } from '../errors.js';

export function parseSwitchSpec(flag: string, text: string, known: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? '1' : part.slice(eq + 1).trim();
    if (!known.includes(name)) throw new UsageError(`${flag}: unknown setting "${name}" (known: ${known.join(', ')})`);
    values.set(name, value);
  }
  return values;
}

export function numberSetting(flag: string, values: Map<string, string>, name: string, fallback: number, max = Infinity): number {
  const raw = values.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw === '' || !Number.isFinite(n) || n < 0 || n > max) {
    throw new UsageError(`${flag}: ${name} must be a number from 0 to ${max === Infinity ? 'any' : max}, got "${raw}"`);
  }
  return n;
}
