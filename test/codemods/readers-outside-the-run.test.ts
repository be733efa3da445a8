/**
 * A run over part of a tsconfig's files (`migrate-v2 src` of a tsconfig that also takes `tools/`):
 * the files outside the run read what it changes, so what they read stays as it was. A list reader
 * they call, by a relative path or through the package's `imports`, is not rewritten for v2's
 * lists. Run over the whole tsconfig, it migrates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { projectOf } from '../helpers/project.js';

const TSCONFIG = JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022', allowJs: true, checkJs: false, noEmit: true, types: [] }, include: ['src', 'tools'] });

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

it('keeps a list reader on v1 where files outside the run hand it their paths', async () => {
  const dir = projectOf(READER);
  const part = await runCli(['src', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(part.code, part.stderr).toBe(0);
  expect(part.stderr).toMatch(/list\(\) reads the records of every list it is handed in one place.*modules that import it from outside the run may hand it v1 paths/);
  expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toBe(READER['src/api.js']);

  const whole = await runCli(['.', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(whole.code, whole.stderr).toBe(0);
  expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toMatch(/listKey\(path\)/);
  expect(readFileSync(join(dir, 'tools/repos.js'), 'utf8')).toContain("api.list('/registry/v2beta1/repos')");
});

it('reads the imports of files outside the run as the tsconfig resolves them (a package.json `imports` alias)', async () => {
  const files = {
    ...READER,
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'node16', target: 'ES2022', allowJs: true, checkJs: false, noEmit: true, types: [] }, include: ['src', 'tools'] }),
    'package.json': JSON.stringify({ name: 'ops', private: true, imports: { '#api': './src/api.js' } }),
    'tools/repos.js': "'use strict';\nconst api = require('#api');\n\napi.list('/registry/v1/repos').then((repos) => console.log(repos.length));\n",
  };
  const dir = projectOf(files);
  const part = await runCli(['src', '--tsconfig', 'tsconfig.json', '--write', '--allow-dirty'], { cwd: dir });
  expect(part.code, part.stderr).toBe(0);
  expect(part.stderr).toMatch(/modules that import it from outside the run may hand it v1 paths/);
  expect(readFileSync(join(dir, 'src/api.js'), 'utf8')).toBe(READER['src/api.js']);
});
