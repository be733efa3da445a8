/** Workflow commands for annotations, escaped as GitHub's runner unescapes them. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { escapeData, escapeProperty, workflowCommand } from '../../src/report/github-annotations.js';

/** The runner's side (actions/runner ActionCommand): properties split on `,` and the first `=`, then unescaped. */
function parse(line: string): { command: string; properties: Record<string, string>; message: string } {
  const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const properties = Object.fromEntries((m[2] ?? '').split(',').filter(Boolean).map((p) => [p.slice(0, p.indexOf('=')), unescape(p.slice(p.indexOf('=') + 1))]));
  return { command: m[1]!, properties, message: unescape(m[3]!) };
}

it('escapes % first, then line breaks; properties also escape : and ,', () => {
  expect(escapeData('100%\r\nnext: a, b')).toBe('100%25%0D%0Anext: a, b');
  expect(escapeProperty('src/a,b:c%.ts')).toBe('src/a%2Cb%3Ac%25.ts');
  expect(escapeData('%0A')).toBe('%250A');
  expect(workflowCommand({ level: 'warning', file: 'src/x,y.ts', line: 7, title: 'migrate-v2 paths', message: 'two\nlines' })).toBe('::warning file=src/x%2Cy.ts,line=7,title=migrate-v2 paths::two%0Alines\n');
  expect(workflowCommand({ level: 'error', message: 'plain' })).toBe('::error::plain\n');
});

it('round-trips any file name, title and message through the runner, in one line', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.string(), fc.nat(), (file, title, message, line) => {
      const text = workflowCommand({ level: 'warning', file, line, title, message });
      expect(text.slice(0, -1)).not.toMatch(/[\r\n]/);
      expect(parse(text.slice(0, -1))).toEqual({ command: 'warning', properties: { file, line: String(line), title }, message });
    }),
  );
});
