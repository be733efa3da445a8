/** The markdown pieces the reports are made of. */
import { describe, expect, it } from 'vitest';
import { details, fenced, htmlCode } from '../../src/report/markdown.js';

describe('fenced', () => {
  it('uses three backticks for text with none', () => {
    expect(fenced('diff', '+a\n-b')).toBe('```diff\n+a\n-b\n```');
  });

  it('uses a fence longer than the longest backtick run, so no line of the text closes it', () => {
    const text = ' ```\n+````ts\n-`x`';
    const block = fenced('diff', text);
    expect(block.split('\n')[0]).toBe('`````diff');
    expect(block.split('\n').at(-1)).toBe('`````');
    expect(block.slice('`````diff\n'.length, -'\n`````'.length)).toBe(text);
  });
});

describe('htmlCode', () => {
  it('is HTML, not markdown backticks, and escapes what HTML would read', () => {
    expect(htmlCode('src/a<b>&c.ts')).toBe('<code>src/a&lt;b&gt;&amp;c.ts</code>');
  });

  it('is what a collapsible section names its contents with', () => {
    expect(details(htmlCode('a.ts'), 'body')).toBe('<details><summary><code>a.ts</code></summary>\n\nbody\n\n</details>');
  });
});
