/**
 * Writes a file so that no reader ever sees half of it: a temporary file beside it, then a rename.
 * An existing file keeps its mode.
 */
import { chmodSync, existsSync, renameSync, statSync, writeFileSync } from 'node:fs';

export function writeAtomically(path: string, text: string): void {
  const temp = `${path}.migrate-v2-${process.pid}.tmp`;
  const mode = existsSync(path) ? statSync(path).mode : undefined;
  writeFileSync(temp, text);
  if (mode !== undefined) chmodSync(temp, mode);
  renameSync(temp, path);
}
