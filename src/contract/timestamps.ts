/**
 * Timestamp forms of each version (platform.ts TIMESTAMPS). The emulator stores microseconds since
 * the epoch; v1 shows six fraction digits, v2 three, and the verifier compares at three.
 */
import { TIMESTAMPS } from './platform.js';
import type { ApiVersion } from './types.js';

export function formatTimestamp(micros: number, version: ApiVersion): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // always ...sss Z
  if (TIMESTAMPS[version].fractionDigits === 3) return iso;
  const extra = String(micros - millis * 1000).padStart(3, '0');
  return `${iso.slice(0, -1)}${extra}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Microseconds since the epoch of an RFC 3339 string; `undefined` when it is not one. */
export function parseTimestamp(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const millis = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(millis)) return undefined;
  const fraction = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return millis * 1000 + Number(fraction);
}

const UTC_FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * Whether two times are the same instant at the precision both versions share. The usual pair, UTC
 * times with at least three fraction digits, agree exactly when their text agrees up to the
 * milliseconds; that is read without building either comparable form.
 */
export function sameComparableTime(a: string, b: string): boolean {
  if (a.length >= 24 && b.length >= 24 && a.charCodeAt(19) === 46 && b.charCodeAt(19) === 46 && UTC_FRACTION.test(a) && UTC_FRACTION.test(b)) {
    return a.startsWith(b.slice(0, 23));
  }
  const comparable = comparableTimestamp(a);
  return comparable !== undefined && comparable === comparableTimestamp(b);
}

/** The same instant at the precision both versions share, for comparison. */
export function comparableTimestamp(text: string): string | undefined {
  // The usual case, a UTC time, is cut to milliseconds as text; offsets go through the parser.
  const utc = UTC_FRACTION.exec(text);
  if (utc) return `${utc[1]}.${(utc[2] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const micros = parseTimestamp(text);
  return micros === undefined ? undefined : formatTimestamp(Math.floor(micros / 1000) * 1000, 'v2');
}

/** The change of precision between the versions, as notes say it: "v2 timestamps have 3 fraction digits where v1's had 6 (assumed)". */
export function precisionChange(): string {
  return `v2 timestamps have ${TIMESTAMPS.v2.fractionDigits} fraction digits where v1's had ${TIMESTAMPS.v1.fractionDigits}${TIMESTAMPS.v1.status === 'assumed' ? ' (assumed)' : ''}`;
}

/** Whether a timestamp's text has more fraction digits than v2 writes: written at v1's precision (`...:05.000009Z`). */
export function morePreciseThanV2(text: string): boolean {
  const digits = UTC_FRACTION.exec(text)?.[2];
  return digits !== undefined && digits.length > TIMESTAMPS.v2.fractionDigits;
}
