/**
 * Which reports may be merged: the shards of one matrix, each once and none missing, or whole runs
 * (over different paths, say). A merged report claims a whole run, so a shard left out is refused.
 */
import type { Shard } from '../commands/options.js';
import { UsageError } from '../errors.js';

export interface NamedReport<R> {
  /** The file it was read from, named in errors. */
  path: string;
  report: R;
}

export function checkShardSet(reports: readonly NamedReport<{ shard?: Shard; version: string }>[]): void {
  const [first, ...rest] = reports;
  if (!first) throw new UsageError('merge-reports: name the JSON reports to merge');
  for (const r of rest) {
    if (r.report.version !== first.report.version) throw new UsageError(`merge-reports: ${first.path} is from migrate-v2 ${first.report.version} and ${r.path} from ${r.report.version}: run the shards with one version`);
  }
  const sharded = reports.filter((r) => r.report.shard);
  if (sharded.length === 0) return;
  const whole = reports.find((r) => !r.report.shard);
  if (whole) throw new UsageError(`merge-reports: ${sharded[0]!.path} is one shard of a run and ${whole.path} a whole run: merge the shards of one run`);
  const count = first.report.shard!.count;
  for (const { path, report } of rest) {
    const differs = differentOption(first.report.shard!.run ?? {}, report.shard!.run ?? {});
    if (differs) throw new UsageError(`merge-reports: ${first.path} and ${path} are shards of different runs: ${differs}`);
  }
  const byIndex = new Map<number, string>();
  for (const { path, report } of reports) {
    const { index, count: n } = report.shard!;
    if (n !== count) throw new UsageError(`merge-reports: ${first.path} is a shard of ${count} and ${path} a shard of ${n}: not the same matrix`);
    const twice = byIndex.get(index);
    if (twice) throw new UsageError(`merge-reports: ${twice} and ${path} are both shard ${index}/${count}`);
    byIndex.set(index, path);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new UsageError(`merge-reports: shard ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merged report stands for the whole run`);
}

/** The first option two shards were run with differently, as a sentence; undefined when they agree. */
function differentOption(a: Record<string, string>, b: Record<string, string>): string | undefined {
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (a[key] !== b[key]) return `${key} ${a[key] === undefined ? 'not given' : `"${a[key]}"`} in one, ${b[key] === undefined ? 'not given' : `"${b[key]}"`} in the other`;
  }
  return undefined;
}
