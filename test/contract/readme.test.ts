/** The README's table of assumptions is the contract's, word for word. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { assumptionsMarkdown } from '../../src/contract/index.js';

it('lists every assumption of the contract in the README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- assumptions:start -->\n([\s\S]*?)\n<!-- assumptions:end -->/.exec(readme)?.[1];
  expect(block, 'run: npx migrate-v2 contract --assumed, and paste between the markers').toBe(assumptionsMarkdown());
});

it('describes every transform in the README, in its table of transforms', async () => {
  const { TRANSFORMS } = await import('../../codemods/index.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### The transforms'), readme.indexOf('\n#', readme.indexOf('### The transforms') + 1));
  const rows = [...section.matchAll(/^\| `([a-z-]+)` \| /gm)].map((m) => m[1]);
  expect(rows.sort()).toEqual(TRANSFORMS.map((t) => t.name).sort());
});
