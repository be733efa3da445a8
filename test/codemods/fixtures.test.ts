/**
 * Every fixture pair under fixtures/codemods/<group>/: `<case>.input.<ext>` migrates to
 * `<case>.output.<ext>` (an input with no output must not change), a second run changes nothing,
 * and the transform of the folder, run alone, changes nothing the second time.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSFORMS } from '../../codemods/index.js';
import { applyPatch } from 'diff';
import { unifiedDiff } from '../../src/codemod/diff.js';
import { runCodemod } from '../../src/codemod/engine.js';
import type { Transform } from '../../src/codemod/transform.js';

const ROOT = new URL('../../fixtures/codemods/', import.meta.url).pathname;

function migrate(name: string, text: string, transforms: readonly Transform[] = TRANSFORMS) {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-fixture-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const [outcome] = runCodemod([file], transforms, dir).files;
  expect(outcome!.error, `${name}: ${outcome!.error}`).toBeUndefined();
  return outcome!;
}

const groups = readdirSync(ROOT);

describe.each(groups)('fixtures/codemods/%s', (group) => {
  const inputs = readdirSync(join(ROOT, group)).filter((f) => f.includes('.input.'));
  it.each(inputs)('%s', (input) => {
    const source = readFileSync(join(ROOT, group, input), 'utf8');
    const outputPath = join(ROOT, group, input.replace('.input.', '.output.'));
    const expected = existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : source;
    const name = input.replace('.input', '');
    const first = migrate(name, source);
    expect(first.after).toBe(expected);
    // The diff is made from the edits, not searched for: applied to the input, it gives the output.
    if (first.changed) expect(applyPatch(source, unifiedDiff(first))).toBe(first.after);
    expect(migrate(name, first.after).after, 'a second run changes nothing').toBe(first.after);
    // The transform the folder is named for, run alone, changes nothing the second time either.
    // (Only its own folder's cases: each run builds a program, and all of them times all transforms cost minutes.)
    const own = TRANSFORMS.find((t) => t.name === group);
    if (own) {
      const once = migrate(name, source, [own]).after;
      expect(migrate(name, once, [own]).after, `${own.name} run twice`).toBe(once);
    }
  });
});

it('has fixtures for every transform and every file kind', () => {
  for (const t of TRANSFORMS) expect(groups, t.name).toContain(t.name);
  const kinds = new Set(groups.flatMap((g) => readdirSync(join(ROOT, g)).map((f) => f.split('.').pop())));
  for (const ext of ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs']) expect(kinds, ext).toContain(ext);
});

