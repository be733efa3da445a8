import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every test file (and every CLI it spawns) makes its temporary directories
 * under one root for the run, removed when the run ends, so repeated runs leave nothing in the
 * machine's temp dir. The forked test workers and their children inherit TMPDIR, which
 * os.tmpdir() reads.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'mv2-test-run-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (!process.env.MIGRATE_V2_KEEP_TEST_TEMP) rmSync(root, { recursive: true, force: true });
  };
}
