/** --write changes every file or none. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeAll } from '../../src/codemod/write-all.js';

function files(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-write-'));
  return Array.from({ length: n }, (_, i) => {
    const sub = join(dir, `pkg-${i}`);
    mkdirSync(sub);
    const path = join(sub, 'client.ts');
    writeFileSync(path, `v1 ${i}\n`);
    return { dir: sub, path, before: `v1 ${i}\n`, after: `v2 ${i}\n` };
  });
}

it('writes every file', () => {
  const fs = files(3);
  writeAll(fs);
  for (const f of fs) expect(readFileSync(f.path, 'utf8')).toBe(f.after);
});

it('changes nothing when one file cannot be written, and leaves no temporary file', () => {
  const fs = files(5);
  // The third file's folder is gone by the time the run writes.
  rmSync(fs[2]!.dir, { recursive: true });
  fs[2]!.before = '';
  expect(() => writeAll(fs)).toThrow(/cannot write .*pkg-2.*no file was changed/);
  for (const [i, f] of fs.entries()) if (i !== 2) expect(readFileSync(f.path, 'utf8')).toBe(f.before);
  for (const [i, f] of fs.entries()) if (i !== 2) expect(readdirSync(f.dir)).toEqual(['client.ts']);
});

it('changes nothing when a file changed on disk while the run read it', () => {
  const fs = files(3);
  writeFileSync(fs[1]!.path, 'edited by hand\n');
  expect(() => writeAll(fs)).toThrow(/changed on disk while migrate-v2 ran; no file was changed/);
  expect(readFileSync(fs[0]!.path, 'utf8')).toBe(fs[0]!.before);
  expect(readFileSync(fs[1]!.path, 'utf8')).toBe('edited by hand\n');
});

it('changes nothing when a temporary file cannot be made, and removes the ones it made', () => {
  const fs = files(3);
  // Something already stands at the last file's temporary name (a folder, say).
  mkdirSync(`${fs[2]!.path}.migrate-v2-${process.pid}.tmp`);
  expect(() => writeAll(fs)).toThrow(/cannot write .*pkg-2.*no file was changed/);
  for (const f of fs) expect(readFileSync(f.path, 'utf8')).toBe(f.before);
  for (const f of fs.slice(0, 2)) expect(readdirSync(f.dir)).toEqual(['client.ts']);
});

it('removes the temporary files a killed run left beside the files it writes', () => {
  const fs = files(2);
  // A pid far above any the kernel hands out here: no such process runs.
  const stale = `${fs[0]!.path}.migrate-v2-99999999.tmp`;
  writeFileSync(stale, 'half of an earlier run');
  writeAll(fs);
  expect(readdirSync(fs[0]!.dir)).toEqual(['client.ts']);
});
