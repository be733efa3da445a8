/**
 * A JavaScript project describes itself with a jsconfig.json: the run finds it as it finds a
 * tsconfig.json, and so reads the project's files together and type-checks what it changes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

it('finds a jsconfig.json and self-checks the files it changes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-jsconfig-'));
  writeFileSync(join(dir, 'jsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2023', 'dom'], types: [], checkJs: true, strict: true } }));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(
    join(dir, 'names.mjs'),
    [
      '// @ts-check',
      'export async function groupNames(base) {',
      '  const res = await fetch(`${base}/iam/v1/groups`);',
      '  const body = await res.json();',
      '  return body.items.map((g) => `${g.id} ${g.name}`);',
      '}',
      '',
    ].join('\n'),
  );
  const r = await runCli(['.'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  // Without a project file each file is read alone and nothing is type-checked: the summary has no type errors.
  expect(r.stderr).toMatch(/1 file scanned, 1 to change, 0 unchanged, \d+ manual-review items?, 0 errors, type errors before \d+, after \d+/);
});
