/**
 * Every fixture pair under fixtures/codemods/<group>/: `<case>.input.<ext>` migrates to
 * `<case>.output.<ext>` (an input with no output must not change), a second run changes nothing,
 * and the transform of the folder, run alone, changes nothing the second time. A case of several
 * files (a test beside the client it stubs, a JSON recording it loads) is a folder
 * `<case>.input/` with `<case>.output/` holding the files it changes; with a tsconfig.json in it,
 * the run takes it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSFORMS } from '../../codemods/index.js';
import { applyPatch } from 'diff';
import { unifiedDiff } from '../../src/codemod/diff.js';
import { runCodemod, type FileOutcome } from '../../src/codemod/engine.js';
import { findFiles } from '../../src/codemod/files.js';
import type { Transform } from '../../src/codemod/transform.js';

export const FIXTURES_ROOT = new URL('../../fixtures/codemods/', import.meta.url).pathname;
const REPO = new URL('../../', import.meta.url).pathname;

function migrate(name: string, text: string, transforms: readonly Transform[] = TRANSFORMS) {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-fixture-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const [outcome] = runCodemod([file], transforms, dir).files;
  expect(outcome!.error, `${name}: ${outcome!.error}`).toBeUndefined();
  return outcome!;
}

/** The files of a folder case, by path relative to it. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(relative(dir, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return out;
}

/** Runs the codemod over a copy of a folder case; answers every file of it as the run leaves it. */
function migrateFolder(files: ReadonlyMap<string, string>, transforms: readonly Transform[] = TRANSFORMS): { after: Map<string, string>; outcomes: FileOutcome[] } {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-fixture-'));
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // With a tsconfig the case is typed as a project is: its packages' types come from this repository's.
  if (files.has('tsconfig.json')) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const tsconfig = files.has('tsconfig.json') ? { tsconfig: join(dir, 'tsconfig.json') } : {};
  const { files: outcomes } = runCodemod(findFiles([dir], {}, dir), transforms, dir, tsconfig);
  for (const outcome of outcomes) expect(outcome.error, `${outcome.relative}: ${outcome.error}`).toBeUndefined();
  const after = new Map(files);
  for (const outcome of outcomes) after.set(outcome.relative, outcome.after);
  return { after, outcomes };
}

/** The groups of fixture cases (one folder each, named for its transform). */
export const FIXTURE_GROUPS = readdirSync(FIXTURES_ROOT);

/**
 * The cases of the groups `take` chooses. The suite runs them from two files, field-renames (the
 * largest, about two fifths of the cases) apart from the rest, so that CI's two workers share them.
 */
export function describeFixtureGroups(take: (group: string) => boolean): void {
  describe.each(FIXTURE_GROUPS.filter(take))('fixtures/codemods/%s', (group) => {
    const entries = readdirSync(join(FIXTURES_ROOT, group));
    const own = TRANSFORMS.find((t) => t.name === group);
    const inputs = entries.filter((f) => f.includes('.input.'));
    if (inputs.length > 0) it.each(inputs)('%s', (input) => {
      const source = readFileSync(join(FIXTURES_ROOT, group, input), 'utf8');
      const outputPath = join(FIXTURES_ROOT, group, input.replace('.input.', '.output.'));
      const expected = existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : source;
      const name = input.replace('.input', '');
      const first = migrate(name, source);
      expect(first.after).toBe(expected);
      // The diff is made from the edits, not searched for: applied to the input, it gives the output.
      if (first.changed) expect(applyPatch(source, unifiedDiff(first))).toBe(first.after);
      expect(migrate(name, first.after).after, 'a second run changes nothing').toBe(first.after);
      // The transform the folder is named for, run alone, changes nothing the second time either.
      // (Only its own folder's cases: each run builds a program, and all of them times all transforms cost minutes.)
      if (own) {
        const once = migrate(name, source, [own]).after;
        expect(migrate(name, once, [own]).after, `${own.name} run twice`).toBe(once);
      }
    });

    const folders = entries.filter((f) => f.endsWith('.input') && statSync(join(FIXTURES_ROOT, group, f)).isDirectory());
    if (folders.length > 0) it.each(folders)('%s/', (input) => {
      const files = filesOf(join(FIXTURES_ROOT, group, input));
      const outputDir = join(FIXTURES_ROOT, group, input.replace(/\.input$/, '.output'));
      const expected = new Map(files);
      if (existsSync(outputDir)) for (const [path, text] of filesOf(outputDir)) expected.set(path, text);
      const first = migrateFolder(files);
      for (const [path, text] of expected) expect(first.after.get(path), path).toBe(text);
      for (const outcome of first.outcomes) if (outcome.changed) expect(applyPatch(outcome.before, unifiedDiff(outcome)), outcome.relative).toBe(outcome.after);
      const second = migrateFolder(first.after);
      for (const [path, text] of first.after) expect(second.after.get(path), `a second run changes nothing: ${path}`).toBe(text);
      if (own) {
        const once = migrateFolder(files, [own]).after;
        const twice = migrateFolder(once, [own]).after;
        for (const [path, text] of once) expect(twice.get(path), `${own.name} run twice: ${path}`).toBe(text);
      }
    });
  });
}
