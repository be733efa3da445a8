/** Never write over uncommitted work unless asked. */
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';

/** The files among `paths` that git reports as changed and not committed; none outside a repository. */
export function dirtyFiles(paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  const dirs = [...new Set(paths.map((p) => dirname(p)))];
  const dirty: string[] = [];
  for (const dir of dirs) {
    let top: string;
    try {
      top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      continue;
    }
    const mine = paths.filter((p) => dirname(p) === dir);
    const out = execFileSync('git', ['status', '--porcelain', '-z', '--', ...mine], { cwd: top, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    if (out.length > 0) dirty.push(...mine.filter((p) => out.includes(p.slice(top.length + 1))));
  }
  return dirty;
}

export function refuseDirty(paths: readonly string[]): void {
  const dirty = dirtyFiles(paths);
  if (dirty.length > 0) {
    throw new UsageError(`${dirty.length} file(s) to change have uncommitted changes (${dirty.slice(0, 3).join(', ')}${dirty.length > 3 ? ', ...' : ''}): commit or stash them, or pass --allow-dirty`);
  }
}
