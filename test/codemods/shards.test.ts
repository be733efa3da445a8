/** How a codemod run is split for a CI matrix: whole import components, the same split whatever the file order. */
import { expect, it } from 'vitest';
import { importComponents } from '../../src/codemod/imports.js';
import { assignShards } from '../../src/codemod/shards.js';

const ROOT = '/repo';
const TREE: Record<string, string> = {
  'a/types.ts': 'export interface Group { id: string }\n',
  'a/client.ts': "import type { Group } from './types.js';\nfetch('/iam/v1/groups');\n",
  'a/view.ts': "import { x } from './client';\n",
  'b/client.ts': "fetch('/registry/v1/repos');\n",
  'c/reader.ts': "const m = await import('../b/client.js');\n",
  'c/lonely.ts': "fetch('/iam/v1/roles');\n",
  'lib/util.ts': 'export const n = 1;\n',
  'lib/other.ts': "import { n } from './util.js';\n",
};
const raws = new Map(Object.entries(TREE).map(([p, text]) => [`${ROOT}/${p}`, text]));
const candidates = new Set(['a/types.ts', 'a/client.ts', 'a/view.ts', 'b/client.ts', 'c/reader.ts', 'c/lonely.ts'].map((p) => `${ROOT}/${p}`));

const names = (paths: readonly string[]) => paths.map((p) => p.slice(ROOT.length + 1));

it('joins candidates that import each other, through static and dynamic imports, and nothing else', () => {
  const groups = importComponents(raws, candidates).map(names).sort((x, y) => y.length - x.length || (x[0]! < y[0]! ? -1 : 1));
  expect(groups).toEqual([['a/client.ts', 'a/types.ts', 'a/view.ts'], ['b/client.ts', 'c/reader.ts'], ['c/lonely.ts']]);
});

it('keeps each component in one shard, balances them largest first, and gives the same split for any file order', () => {
  const files = [...raws.keys()];
  const owner = assignShards(files, raws, candidates, ROOT, 2);
  const shardOf = (p: string) => owner.get(`${ROOT}/${p}`);
  expect(new Set(['a/types.ts', 'a/client.ts', 'a/view.ts'].map(shardOf))).toEqual(new Set([1]));
  expect(new Set(['b/client.ts', 'c/reader.ts'].map(shardOf))).toEqual(new Set([2]));
  // The 1-file component goes to the shard with fewer candidate files; every file has one owner.
  expect(shardOf('c/lonely.ts')).toBe(2);
  expect([...owner.keys()].sort()).toEqual([...files].sort());
  const reversed = assignShards([...files].reverse(), new Map([...raws].reverse()), new Set([...candidates].reverse()), ROOT, 2);
  expect(reversed).toEqual(owner);
  expect(new Set(assignShards(files, raws, candidates, ROOT, 1).values())).toEqual(new Set([1]));
});
