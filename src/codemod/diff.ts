/** Unified diffs of a run (the `diff` library), coloured for a terminal when asked. */
import { createTwoFilesPatch } from 'diff';
import type { FileOutcome } from './engine.js';

export function unifiedDiff(file: FileOutcome): string {
  return createTwoFilesPatch(`a/${file.relative}`, `b/${file.relative}`, file.before, file.after, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
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
