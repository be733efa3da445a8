/**
 * Writes a file so that no reader ever sees half of it: a temporary file beside it, then a rename.
 * An existing file keeps its mode.
 */
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { UsageError } from './errors.js';

/** The temporary file a write of `path` goes through; a run killed half-way leaves it, named for its process. */
export function tempPathFor(path: string): string {
  return `${path}.migrate-v2-${process.pid}.tmp`;
}

/** A file that cannot be written is the user's to fix (a path, a permission): one line, exit 2, no temporary file left. */
export function writeAtomically(path: string, text: string): void {
  const temp = tempPathFor(path);
  try {
    const mode = existsSync(path) ? statSync(path).mode : undefined;
    writeFileSync(temp, text);
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new UsageError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
