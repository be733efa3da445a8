/**
 * Splitting a codemod run into the shards of a CI matrix (`--shard i/n`). Files that change
 * together stay together: the prefilter's candidate files joined by the relative imports between
 * them (a type and its readers, a wrapper and its callers) form components, and a component is never
 * split; every file that loads a JSON file (a recording) joins one component, as --jobs groups
 * them, so one shard rewrites each recording. Every shard reads every file, so the prefilter and the import scan see the whole tree and
 * decide as the unsharded run does; each shard analyses and reports only the files it owns.
 *
 * Components go, largest first (ties by their smallest relative path), to the shard with the fewest
 * candidate files so far; then every other file, by relative path, to the shard with the fewest
 * files. A greedy balance rather than a hash of each component: every shard of a matrix runs on the
 * same commit, so they all compute the same assignment, and the largest shard, which sets the
 * matrix's wall time, stays within 4/3 of the best split instead of wherever a hash lands.
 */
import { relative, sep } from 'node:path';
import type { Shard } from '../commands/options.js';
import type { FileOutcome } from './engine.js';
import { analysedTogether, importComponents } from './imports.js';

/**
 * The shard (1 to `count`) of every file: `files` all the run's files, `candidates` the prefilter's
 * among them, `groups` the groups of candidates that stay together (by default their import components).
 */
export function assignShards(
  files: readonly string[],
  raws: ReadonlyMap<string, string>,
  candidates: ReadonlySet<string>,
  cwd: string,
  count: number,
  groups: string[][] = importComponents(raws, candidates),
): Map<string, number> {
  const rel = (path: string) => relative(cwd, path).split(sep).join('/');
  const owner = new Map<string, number>();
  const candidateLoad = new Array<number>(count).fill(0);
  const fileLoad = new Array<number>(count).fill(0);
  const components = groups
    .map((paths) => ({ paths, first: paths.map(rel).sort()[0]! }))
    .sort((a, b) => b.paths.length - a.paths.length || (a.first < b.first ? -1 : 1));
  for (const { paths } of components) {
    const shard = leastLoaded(candidateLoad);
    candidateLoad[shard]! += paths.length;
    fileLoad[shard]! += paths.length;
    for (const p of paths) owner.set(p, shard + 1);
  }
  for (const path of files.filter((f) => !candidates.has(f)).sort((a, b) => (rel(a) < rel(b) ? -1 : 1))) {
    const shard = leastLoaded(fileLoad);
    fileLoad[shard]! += 1;
    owner.set(path, shard + 1);
  }
  return owner;
}

function leastLoaded(loads: readonly number[]): number {
  return loads.reduce((best, load, i) => (load < loads[best]! ? i : best), 0);
}

/** One shard of a run: which candidates it analyses, and which outcomes it reports. */
export class CodemodShard {
  private owner = new Map<string, number>();

  constructor(
    readonly shard: Shard,
    private readonly files: readonly string[],
    private readonly cwd: string,
  ) {}

  /** The engine's hook: of the prefilter's candidates, those this shard owns. */
  narrow = (raws: ReadonlyMap<string, string>, candidates: ReadonlySet<string>): Set<string> => {
    this.owner = assignShards(this.files, raws, candidates, this.cwd, this.shard.count, analysedTogether(raws, candidates));
    return new Set([...candidates].filter((p) => this.owner.get(p) === this.shard.index));
  };

  /**
   * The outcomes this shard owns. A file another shard owns that this one would change (its
   * resource types reached through the type checker, by a re-export or a path alias, not by a
   * relative import between candidates) is an error here rather than a change two shards might
   * make, or none. A file that is not one of the run's (a recording a test loads) is the shard's
   * whose analysis reached it: every file that loads a JSON file is analysed in one shard.
   */
  keepOwned(outcomes: readonly FileOutcome[]): FileOutcome[] {
    return outcomes.flatMap((o) => {
      const owner = this.owner.get(o.path) ?? this.shard.index;
      if (owner === this.shard.index) return [o];
      if (!o.changed) return [];
      const error = `changes with files of shard ${this.shard.index}/${this.shard.count} but belongs to shard ${owner}/${this.shard.count}: its types are reached through the type checker, not a relative import; run without --shard`;
      return [{ ...o, after: o.before, changed: false, error }];
    });
  }
}
