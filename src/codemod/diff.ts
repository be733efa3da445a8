/** Unified diffs of a run (the `diff` library), coloured for a terminal when asked. */
import { createTwoFilesPatch, formatPatch } from 'diff';
import type { FileOutcome } from './engine.js';
import { patchOf } from './line-changes.js';

const made = new WeakMap<FileOutcome, string>();

/** A file's diff, made once however often the patch and the reports ask for it. */
export function unifiedDiff(file: FileOutcome): string {
  let diff = made.get(file);
  if (diff === undefined) {
    const [from, to] = [`a/${file.relative}`, `b/${file.relative}`];
    // The engine knows which lines its edits changed; a search for them is only the fallback.
    diff = (file.changes ? formatPatch(patchOf(from, to, file.before, file.after, file.changes)) : createTwoFilesPatch(from, to, file.before, file.after, undefined, undefined, { context: 3 })).replace(/^=+\n/, '');
    made.set(file, diff);
  }
  return diff;
}

const COLOURS = { add: '\x1b[32m', remove: '\x1b[31m', hunk: '\x1b[36m', header: '\x1b[1m', reset: '\x1b[0m' };

export function colourDiff(patch: string): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:')) return `${COLOURS.header}${line}${COLOURS.reset}`;
      if (line.startsWith('+')) return `${COLOURS.add}${line}${COLOURS.reset}`;
      if (line.startsWith('-')) return `${COLOURS.remove}${line}${COLOURS.reset}`;
      if (line.startsWith('@@')) return `${COLOURS.hunk}${line}${COLOURS.reset}`;
      return line;
    })
    .join('\n');
}
