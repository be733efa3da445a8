/**
 * A file's text as the codemod edits it: edits are collected as ranges and applied in one pass,
 * so every byte outside them (BOM, line endings, quotes, indentation) stays as it was.
 */
import type { ReviewItem } from './engine.js';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /** The transform that asked for it, for the message when two edits clash. */
  by?: string;
  /** A line of its own inserted above the text at `start` (a note): it goes before what other edits insert there. */
  above?: true;
}

const BOM = '\uFEFF';

export interface SourceText {
  /** Without a BOM: positions are the parser's. */
  text: string;
  bom: boolean;
  eol: '\n' | '\r\n';
}

export function readSourceText(raw: string): SourceText {
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  return { text, bom, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

export function restore(source: SourceText, text: string): string {
  return source.bom ? BOM + text : text;
}

/** Applies non-overlapping edits; at one position, insertions go before a replacement, in the order given. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return applySorted(text, sortedEdits(edits));
}

export function applySorted(text: string, sorted: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error(`overlapping edits at ${edit.start}`);
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** 1-based line of a position. */
export function lineOf(text: string, position: number): number {
  return new Lines(text).lineOf(position);
}

/** Line numbers of many positions of one text, each by a binary search over its line starts. */
export class Lines {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  lineOf(position: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** Edits sorted by start, checked for overlaps once (a clash names both transforms). */
export function sortedEdits(edits: readonly TextEdit[]): TextEdit[] {
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.start - b.e.start || (a.e.end - a.e.start === 0 ? 0 : 1) - (b.e.end - b.e.start === 0 ? 0 : 1) || (a.e.above ? 0 : 1) - (b.e.above ? 0 : 1) || a.i - b.i)
    .map((x) => x.e);
  for (let k = 1; k < sorted.length; k++) {
    const [a, b] = [sorted[k - 1]!, sorted[k]!];
    if (b.start < a.end) {
      const [later, earlier] = edits.indexOf(a) > edits.indexOf(b) ? [a, b] : [b, a];
      throw new Error(`${later.by ?? 'a transform'}: an edit at ${later.start}-${later.end} overlaps one at ${earlier.start}-${earlier.end}${earlier.by && earlier.by !== later.by ? ` (${earlier.by})` : ''}`);
    }
  }
  return sorted;
}

/** Where positions of the old text land in the new one, by a binary search over the sorted edits. */
export class Shift {
  private readonly ends: number[];
  private readonly deltas: number[];

  constructor(sorted: readonly TextEdit[]) {
    this.ends = sorted.map((e) => e.end);
    let delta = 0;
    this.deltas = sorted.map((e) => (delta += e.text.length - (e.end - e.start)));
  }

  /** The new position of an old one: every edit that ends at or before it moves it. */
  of(position: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! <= position) lo = mid + 1;
      else hi = mid;
    }
    return position + (lo > 0 ? this.deltas[lo - 1]! : 0);
  }
}

export const TODO_MARK = 'migrate-v2-todo:';

/**
 * An edit that puts `// migrate-v2-todo: why` on its own line above the line holding `position`,
 * with that line's indentation; none when one of the notes right above it already says the same
 * (a line may hold several calls, each with its note).
 */
export function todoEdit(source: SourceText, position: number, why: string): TextEdit | undefined {
  const text = source.text;
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const comment = `// ${TODO_MARK} ${why}`;
  for (let end = lineStart - 1; end > 0; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const above = text.slice(start, end).replace(/\r$/, '').trim();
    if (above === comment) return undefined;
    if (!above.startsWith(`// ${TODO_MARK}`)) break;
    end = start - 1;
  }
  return { start: lineStart, end: lineStart, text: `${indent}${comment}${source.eol}`, above: true };
}

/**
 * Every manual-review note in a file's text, new or left by an earlier run: the line is the one
 * the note stands above. A note stays pending until somebody resolves it and deletes it.
 */
export function pendingReview(text: string, fresh: readonly ReviewItem[] = []): ReviewItem[] {
  const items: ReviewItem[] = [];
  const lines = text.split('\n');
  const known = new Map(fresh.map((f) => [`${f.line}\u0000${f.why}`, f.transform]));
  lines.forEach((line, i) => {
    const at = line.indexOf(`// ${TODO_MARK}`);
    if (at < 0 || line.slice(0, at).trim() !== '') return;
    const why = line.slice(at + TODO_MARK.length + 3).replace(/\r$/, '').trim();
    let below = i + 1;
    while (below < lines.length && lines[below]!.includes(`// ${TODO_MARK}`)) below += 1;
    items.push({ line: below + 1, why, transform: known.get(`${below + 1}\u0000${why}`) ?? 'earlier run' });
  });
  return items;
}
