/**
 * The lines a file's edits changed, worked out from the edits themselves: the codemod knows where
 * it wrote, so its diff needs no search for what changed (a line diff of a large file, where
 * thousands of lines change, grows with the square of its size).
 */
import { structuredPatch, type StructuredPatch } from 'diff';
import type { FileOutcome } from './engine.js';
import { Lines, lineOf, type TextEdit } from './source-text.js';

/** Old lines `oldFrom..oldTo` (0-based, inclusive; empty when oldFrom > oldTo) became new lines `newFrom..newTo`. */
export interface LineChange {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

export function lineChanges(before: string, after: string, sorted: readonly TextEdit[]): LineChange[] {
  const oldLines = new Lines(before);
  const newLines = new Lines(after);
  const out: LineChange[] = [];
  let delta = 0;
  for (const e of sorted) {
    const newStart = e.start + delta;
    delta += e.text.length - (e.end - e.start);
    const change = { oldFrom: oldLines.lineOf(e.start) - 1, oldTo: oldLines.lineOf(e.end) - 1, newFrom: newLines.lineOf(newStart) - 1, newTo: newLines.lineOf(e.end + delta) - 1 };
    const last = out[out.length - 1];
    if (last && change.oldFrom <= last.oldTo) {
      last.oldTo = Math.max(last.oldTo, change.oldTo);
      last.newTo = Math.max(last.newTo, change.newTo);
    } else out.push(change);
  }
  const a = before.split('\n');
  const b = after.split('\n');
  for (const c of out) {
    // Past a final newline there is no line: an edit there (a helper added at the end) ends on the last line.
    c.oldTo = Math.min(c.oldTo, lineCount(a, before) - 1);
    c.newTo = Math.min(c.newTo, lineCount(b, after) - 1);
    // A note inserted above a line touches that line without changing it: keep only what differs.
    while (c.oldFrom <= c.oldTo && c.newFrom <= c.newTo && a[c.oldFrom] === b[c.newFrom]) [c.oldFrom, c.newFrom] = [c.oldFrom + 1, c.newFrom + 1];
    while (c.oldFrom <= c.oldTo && c.newFrom <= c.newTo && a[c.oldTo] === b[c.newTo]) [c.oldTo, c.newTo] = [c.oldTo - 1, c.newTo - 1];
  }
  return out.filter((c) => c.oldFrom <= c.oldTo || c.newFrom <= c.newTo);
}

/**
 * The lines that differ between two texts, searched for (the `diff` library, no context): for a file
 * whose last edits are not known as edits of the first text (notes the self-check wrote above its
 * statements), so that its diff and its review items on the lines as they were still line up.
 */
export function lineChangesOfTexts(before: string, after: string): LineChange[] {
  return structuredPatch('', '', before, after, '', '', { context: 0 }).hunks.map((h) => ({
    oldFrom: h.oldStart - 1,
    oldTo: h.oldStart - 1 + h.oldLines - 1,
    newFrom: h.newStart - 1,
    newTo: h.newStart - 1 + h.newLines - 1,
  }));
}

/**
 * The line (1-based) of the text before the changes that line `line` of the text after them stands
 * for: a line a change wrote stands for the first line it replaced (or the line it was put above).
 */
export function lineBefore(changes: readonly LineChange[], line: number): number {
  let shift = 0;
  for (const c of changes) {
    if (line - 1 < c.newFrom) break;
    if (line - 1 <= c.newTo) return c.oldFrom + 1;
    shift = c.oldTo - c.newTo;
  }
  return line + shift;
}

/**
 * A file's outcome with its review items on the lines of the file as it was: what a dry run
 * leaves on disk, and what a pull request's annotations and links point into.
 */
export function reviewAsItWas(outcome: FileOutcome): FileOutcome {
  const changes = outcome.changed ? outcome.changes : undefined;
  if (!changes || outcome.review.length === 0) return outcome;
  // A line of what the migration added at the end (a helper) stands for the file's last line.
  const last = lineOf(outcome.before, outcome.before.trimEnd().length);
  return { ...outcome, review: outcome.review.map((r) => ({ ...r, line: Math.min(lineBefore(changes, r.line), last) })) };
}

const NO_NEWLINE = '\\ No newline at end of file';

/** The lines of a text split at its newlines: one ending in a newline splits into one empty string too many. */
function lineCount(split: readonly string[], text: string): number {
  return text.endsWith('\n') ? split.length - 1 : split.length;
}

/** The hunks of a unified diff with `context` lines around each change, as the `diff` library formats them. */
export function patchOf(oldName: string, newName: string, before: string, after: string, changes: readonly LineChange[], context = 3): StructuredPatch {
  const a = before.split('\n');
  const b = after.split('\n');
  const aCount = lineCount(a, before);
  const bCount = lineCount(b, after);
  const hunks: StructuredPatch['hunks'] = [];
  let i = 0;
  while (i < changes.length) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.oldFrom - changes[j]!.oldTo - 1 <= 2 * context) j += 1;
    const first = changes[i]!;
    const last = changes[j]!;
    const oldStart = Math.max(0, first.oldFrom - context);
    const oldEnd = Math.min(aCount - 1, last.oldTo + context);
    const lines: string[] = [];
    const old = (k: number, mark: string): void => {
      lines.push(`${mark}${a[k]}`);
      if (k === aCount - 1 && !before.endsWith('\n')) lines.push(NO_NEWLINE);
    };
    const neu = (k: number): void => {
      lines.push(`+${b[k]}`);
      if (k === bCount - 1 && !after.endsWith('\n')) lines.push(NO_NEWLINE);
    };
    let k = oldStart;
    for (const c of changes.slice(i, j + 1)) {
      for (; k < c.oldFrom; k++) old(k, ' ');
      for (; k <= c.oldTo; k++) old(k, '-');
      for (let n = c.newFrom; n <= c.newTo; n++) neu(n);
    }
    for (; k <= oldEnd; k++) old(k, ' ');
    const oldLines = lines.filter((l) => l[0] === ' ' || l[0] === '-').length;
    const newLines = lines.filter((l) => l[0] === ' ' || l[0] === '+').length;
    const newStart = oldStart + (first.newFrom - first.oldFrom);
    hunks.push({ oldStart: oldLines === 0 ? oldStart : oldStart + 1, oldLines, newStart: newLines === 0 ? newStart : newStart + 1, newLines, lines });
    i = j + 1;
  }
  return { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks };
}
