/**
 * Which files a run looks at: the paths given, the extensions the codemod reads, include and exclude
 * globs; never node_modules, build output or what .gitignore ignores (asked of git when the files
 * are in a repository).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { UsageError } from '../errors.js';

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage', '.next', '.turbo']);

export interface FileSelection {
  include?: string[];
  exclude?: string[];
}

function isSource(path: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => path.endsWith(ext)) && !path.endsWith('.d.ts');
}

/** Files of data and settings a program may keep its endpoints in; lock files are the package manager's. */
export function isDataFile(path: string): boolean {
  const name = basename(path);
  if (/lock|shrinkwrap/i.test(name)) return false;
  return name.startsWith('.env') || ['.json', '.jsonc', '.yaml', '.yml', '.toml', '.ini', '.properties'].some((ext) => name.endsWith(ext));
}

function walk(dir: string, out: string[], wanted: (path: string) => boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(join(dir, entry.name), out, wanted);
    } else if (entry.isFile() && wanted(entry.name)) out.push(join(dir, entry.name));
  }
}

/** Files git does not ignore below `dir`, or undefined when `dir` is not in a git work tree. */
function gitFiles(dir: string): string[] | undefined {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '.'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20 });
    return out.split('\0').filter(Boolean).map((p) => join(dir, p));
  } catch {
    return undefined;
  }
}

/** The files a run reads below `paths`: source files, or with `wanted` others (data files); a source file named on the command line is read whatever its name. */
export function findFiles(paths: readonly string[], selection: FileSelection, cwd: string, wanted: (path: string) => boolean = isSource): string[] {
  const include = selection.include?.length ? picomatch(selection.include, { dot: true }) : undefined;
  const exclude = selection.exclude?.length ? picomatch(selection.exclude, { dot: true }) : undefined;
  const found = new Set<string>();
  // Globs match paths relative to the directory given on the command line.
  const selected = (root: string, file: string): boolean => {
    const rel = relative(root, file).split(sep).join('/');
    return (!include || include(rel)) && !exclude?.(rel);
  };
  for (const given of paths) {
    const path = resolve(cwd, given);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new UsageError(`${given}: no such file or directory`);
    }
    if (stat.isFile()) {
      if (selected(dirname(path), path) && (wanted === isSource || wanted(path))) found.add(path);
      continue;
    }
    const listed = gitFiles(path);
    const candidates = listed ?? [];
    if (!listed) walk(path, candidates, wanted);
    for (const file of candidates) {
      const parts = relative(path, file).split(sep);
      if (parts.some((p) => SKIPPED_DIRECTORIES.has(p)) || !wanted(file) || !existsSync(file) || !selected(path, file)) continue;
      found.add(file);
    }
  }
  return [...found].sort();
}
