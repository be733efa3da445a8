/**
 * A file's text as the codemod edits it: edits are collected as ranges and applied in one pass,
 * so every byte outside them (BOM, line endings, quotes, indentation) stays as it was.
 */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
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
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.start - b.e.start || (a.e.end - a.e.start === 0 ? 0 : 1) - (b.e.end - b.e.start === 0 ? 0 : 1) || a.i - b.i)
    .map((x) => x.e);
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
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

export const TODO_MARK = 'migrate-v2-todo:';

/**
 * An edit that puts `// migrate-v2-todo: why` on its own line above the line holding `position`,
 * with that line's indentation; none when the line above already says the same.
 */
export function todoEdit(source: SourceText, position: number, why: string): TextEdit | undefined {
  const text = source.text;
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const comment = `// ${TODO_MARK} ${why}`;
  const previousEnd = lineStart - 1;
  if (previousEnd > 0) {
    const previousStart = text.lastIndexOf('\n', previousEnd - 1) + 1;
    if (text.slice(previousStart, previousEnd).replace(/\r$/, '').trim() === comment) return undefined;
  }
  return { start: lineStart, end: lineStart, text: `${indent}${comment}${source.eol}` };
}
