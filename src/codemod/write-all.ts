/**
 * `--write` changes every file or none. Every target is checked first (its bytes on disk are still
 * the ones the run read), then every new text is written beside its file, then all are renamed into
 * place; on any failure the files already renamed get their old text back, the temporary files are
 * removed, and one error says what failed.
 */
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempPathFor } from '../atomic-write.js';
import { UsageError } from '../errors.js';

export interface FileToWrite {
  path: string;
  before: string;
  after: string;
}

const reason = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

const TEMP = /\.migrate-v2-(\d+)\.tmp$/;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temporary files a killed run left beside the files this run writes. */
function removeStaleTemps(files: readonly FileToWrite[]): void {
  for (const dir of new Set(files.map((f) => dirname(f.path)))) {
    for (const name of readdirSync(dir)) {
      const pid = TEMP.exec(name)?.[1];
      if (pid && Number(pid) !== process.pid && !running(Number(pid))) rmSync(join(dir, name), { force: true });
    }
  }
}

export function writeAll(files: readonly FileToWrite[]): void {
  for (const f of files) {
    let now: string;
    try {
      now = readFileSync(f.path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot write ${f.path}: ${reason(error)}; no file was changed`);
    }
    if (now !== f.before) throw new UsageError(`${f.path} changed on disk while migrate-v2 ran; no file was changed: run it again`);
  }
  removeStaleTemps(files);
  const temps = files.map((f) => tempPathFor(f.path));
  const renamed: FileToWrite[] = [];
  const written: string[] = [];
  try {
    files.forEach((f, i) => {
      writeFileSync(temps[i]!, f.after, { flag: 'wx' });
      written.push(temps[i]!);
      chmodSync(temps[i]!, statSync(f.path).mode);
    });
    files.forEach((f, i) => {
      renameSync(temps[i]!, f.path);
      renamed.push(f);
    });
  } catch (error) {
    // Writing stops at the first temporary file it cannot make; renaming at the first file it cannot replace.
    const failed = (written.length < files.length ? files[written.length] : files[renamed.length])?.path ?? '';
    for (const f of renamed) writeFileSync(f.path, f.before);
    for (const t of written) rmSync(t, { force: true });
    throw new UsageError(`cannot write ${failed}: ${reason(error)}; no file was changed`);
  }
}
