/**
 * A run over part of a tsconfig's files (`migrate-v2 src` of a tsconfig that also takes `tools/`):
 * the files outside the run read what it changes, so what they read stays as it was. A table of
 * paths they require keeps v1 with its calls in the run, and a list reader they call is not rewritten
 * for v2's lists. Run over the whole tsconfig, both migrate.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const TSCONFIG = JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022', allowJs: true, checkJs: false, noEmit: true, types: [] }, include: ['src', 'tools'] });

const TABLE: Record<string, string> = {
  'tsconfig.json': TSCONFIG,
  'src/paths.js': "'use strict';\nmodule.exports = {\n  GROUPS: '/iam/v1/groups',\n};\n",
  'src/report.js': [
    "'use strict';",
    "const { GROUPS } = require('./paths');",
    '',
    'async function main() {',
    '  const body = await (await fetch(process.env.BASE + GROUPS)).json();',
    "  console.log(body.items.map((g) => g.name).join(','));",
    '}',
    'main();',
    '',
  ].join('\n'),
  'tools/groups.js': [
    "'use strict';",
    "const PATHS = require('../src/paths');",
    '',
    'async function main() {',
    '  const body = await (await fetch(process.env.BASE + PATHS.GROUPS)).json();',
    '  console.log(body.items.length);',
    '}',
    'main();',
    '',
  ].join('\n'),
};

const READER: Record<string, string> = {
  'tsconfig.json': TSCONFIG,
  'src/api.js': [
    "'use strict';",
    'exports.list = async function (path) {',
    '  const res = await fetch(process.env.BASE + path);',
    '  if (!res.ok) throw new Error(`${path}: ${res.status}`);',
    '  const body = await res.json();',
    '  return body.items;',
    '};',
    '',
  ].join('\n'),
  'src/groups.js': "'use strict';\nconst { list } = require('./api');\n\nlist('/iam/v1/groups').then((groups) => console.log(groups.map((g) => g.name).join(',')));\n",
  'tools/repos.js': "'use strict';\nconst api = require('../src/api');\n\napi.list('/registry/v1/repos').then((repos) => console.log(repos.length));\n",
};

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-outside-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

it('keeps a table of paths on v1 with its calls where files outside the run require it', async () => {
  const dir = project(TABLE);
  const part = await runCli(['src', '--tsconfig', 'tsconfig.json', '--json'], { cwd: dir });
  expect(part.code, part.stderr).toBe(0);
  const review = JSON.parse(part.stdout).review as { file: string; why: string }[];
  expect(review.map((r) => r.why)).toContainEqual(expect.stringMatching(/group list reads a path that is also read where migrate-v2 cannot follow \(by modules requiring GROUPS that it does not read\)/));
  expect(part.stdout).not.toMatch(/iam\/v2beta1/);

  const whole = await runCli(['.', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(whole.code, whole.stderr).toBe(0);
  expect(readFileSync(join(dir, 'src/paths.js'), 'utf8')).toContain("GROUPS: '/iam/v2beta1/groups'");
  expect(readFileSync(join(dir, 'tools/groups.js'), 'utf8')).not.toContain('body.items');
});

it('keeps a list reader on v1 where files outside the run hand it their paths', async () => {
  const dir = project(READER);
  const part = await runCli(['src', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(part.code, part.stderr).toBe(0);
  expect(part.stderr).toMatch(/list\(\) reads the records of every list it is handed in one place.*modules that import it from outside the run may hand it v1 paths/);
  expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toBe(READER['src/api.js']);

  const whole = await runCli(['.', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(whole.code, whole.stderr).toBe(0);
  expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toMatch(/listKey\(path\)/);
  expect(readFileSync(join(dir, 'tools/repos.js'), 'utf8')).toContain("api.list('/registry/v2beta1/repos')");
});
