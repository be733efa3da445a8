/**
 * The fixture pairs of every group but field-renames (test/helpers/fixture-cases.ts says what each
 * case checks), and the check that every transform and file kind has fixtures.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TRANSFORMS } from '../../codemods/index.js';
import { describeFixtureGroups, FIXTURE_GROUPS, FIXTURES_ROOT } from '../helpers/fixture-cases.js';

describeFixtureGroups((group) => group !== 'field-renames');

it('has fixtures for every transform and every file kind', () => {
  for (const t of TRANSFORMS) expect(FIXTURE_GROUPS, t.name).toContain(t.name);
  const kinds = new Set(FIXTURE_GROUPS.flatMap((g) => readdirSync(join(FIXTURES_ROOT, g)).map((f) => f.split('.').pop())));
  for (const ext of ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs']) expect(kinds, ext).toContain(ext);
});
