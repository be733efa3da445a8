/**
 * The sample v1 integrations, migrated by the CLI. fixtures/clients: each original run against the
 * emulator prints what its migrated copy prints against the emulator with v1 switched off, the
 * migrated TypeScript (tests included) type-checks as the original does, and the teams' own unit
 * tests, which stub v1 (msw, nock, MockAgent, a recording served through a fetch stub), pass once
 * migrated with their programs and fail when left as they were. fixtures/clients-partial: what
 * cannot move whole keeps v1 with notes, so the migrated copy prints the same while both versions
 * are served, and not with v1 switched off (the notes name a real difference); the unit tests there
 * still pass, their doubles having stayed on v1 wherever their calls did.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/node-server.js';
import { runCli } from '../helpers/cli.js';

const exec = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLIENTS = join(REPO, 'fixtures/clients');
const PARTIAL = join(REPO, 'fixtures/clients-partial');
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs');
/** The programs of a folder: its top-level sources, less their unit tests and the tests' config. */
const programsOf = (dir: string) => readdirSync(dir).filter((f) => /\.(ts|mjs)$/.test(f) && !/\.test\.|^vitest\.config\./.test(f));
/** The unit tests of a folder, and the recorded answers they load. */
const suitesOf = (dir: string) => readdirSync(dir).filter((f) => /\.test\.(ts|mjs)$/.test(f));
const RECORDINGS = '__recordings__';
const programs = programsOf(CLIENTS);
const partial = programsOf(PARTIAL);
/** Modules in subfolders (lib/...): imported by the programs, never run on their own. */
const modulesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.parentPath !== dir && /\.(ts|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
const modules = modulesOf(CLIENTS);
/** What the CLI reads of fixtures/clients: programs, modules, the programs' unit tests, and the recordings those load. */
const sources = readdirSync(CLIENTS).filter((f) => /\.(ts|mjs)$/.test(f)).length + modules.length + readdirSync(join(CLIENTS, RECORDINGS)).length;
const transpile = (source: string): string =>
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;

function copyClients(from = CLIENTS): string {
  const dir = mkdtempSync(join(tmpdir(), 'mv2-clients-'));
  // A vitest run in the folder leaves its cache in node_modules: the copy gets the repository's instead.
  cpSync(from, dir, { recursive: true, filter: (path) => !path.split(/[\\/]/).includes('node_modules') });
  // The partial samples are typed and resolved as the others are.
  for (const shared of ['tsconfig.json', 'package.json']) if (from !== CLIENTS) cpSync(join(CLIENTS, shared), join(dir, shared));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs one client against a fresh emulator; TypeScript is transpiled to a .mjs beside it first. */
async function runClient(dir: string, file: string, disable: ('v1' | 'v2')[]): Promise<{ ok: boolean; out: string }> {
  const emulator = await startEmulator({ dataset: 'demo', disable });
  let path = join(dir, file);
  if (file.endsWith('.ts')) {
    path = path.replace(/\.ts$/, '.run.mjs');
    writeFileSync(path, transpile(readFileSync(join(dir, file), 'utf8')));
  }
  // A program imports a module of a subfolder by its .js name (NodeNext): write it beside the .ts.
  for (const mod of modulesOf(dir).filter((m) => m.endsWith('.ts') && !m.startsWith('node_modules'))) {
    writeFileSync(join(dir, mod.replace(/\.ts$/, '.js')), transpile(readFileSync(join(dir, mod), 'utf8')));
  }
  try {
    const { stdout } = await exec(process.execPath, [path], { env: { ...process.env, PLATFORM_URL: emulator.url, PLATFORM_TOKEN: 'emulator-dev-token' }, timeout: 30_000 });
    return { ok: true, out: stdout };
  } catch (error) {
    return { ok: false, out: String((error as { stderr?: string }).stderr ?? error) };
  } finally {
    await emulator.close();
  }
}

interface SuiteResult {
  name: string;
  status: string;
  message: string;
}

/** Runs a folder's unit tests with its own vitest config, as a child process: each suite's outcome by file name. */
async function runSuites(dir: string): Promise<Map<string, SuiteResult>> {
  const report = join(dir, 'vitest-report.json');
  try {
    await exec(process.execPath, [VITEST, 'run', '--config', join(dir, 'vitest.config.ts'), '--reporter=json', `--outputFile=${report}`], { cwd: dir, timeout: 120_000 });
  } catch {
    // Failing suites exit 1: the report says which.
  }
  const results = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: SuiteResult[] }).testResults;
  return new Map(results.map((r) => [r.name.split('/').pop()!, r]));
}

async function typeCheck(dir: string): Promise<string> {
  try {
    await exec(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')]);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

describe('fixtures/clients, migrated end to end', () => {
  const original = copyClients();
  const migrated = copyClients();
  let migration: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    migration = await runCli([migrated, '--write']);
  });

  it('holds at least eight integrations, and the CLI migrates them all', () => {
    expect(programs.length).toBeGreaterThanOrEqual(8);
    expect(migration.code, migration.stderr).toBe(0);
    expect(migration.stderr).toMatch(new RegExp(`${sources} files scanned, \\d+ changed, .* 0 errors`));
    // Every program changes; a module of lib/ may hold only what the programs need unchanged (a transport).
    for (const file of programs) expect(readFileSync(join(migrated, file), 'utf8'), file).not.toBe(readFileSync(join(original, file), 'utf8'));
  });

  it.each(programs)('%s prints the same on v2 alone as it did on v1', async (file) => {
    const before = await runClient(original, file, []);
    expect(before.ok, before.out).toBe(true);
    expect(before.out.trim().length).toBeGreaterThan(0);
    // Unmigrated, it cannot work without v1: the comparison below can fail.
    const unmigrated = await runClient(original, file, ['v1']);
    expect(unmigrated.ok && unmigrated.out === before.out).toBe(false);
    const after = await runClient(migrated, file, ['v1']);
    expect(after.ok, after.out).toBe(true);
    expect(after.out).toBe(before.out);
  });

  it('type-checks after migration as it did before, unit tests included', async () => {
    expect(await typeCheck(original)).toBe('');
    expect(await typeCheck(migrated)).toBe('');
  });

  it('holds at least four unit tests that stub v1, which pass once migrated and fail left on v1', async () => {
    const suites = suitesOf(CLIENTS);
    expect(suites.length).toBeGreaterThanOrEqual(4);
    const before = await runSuites(original);
    for (const suite of suites) expect(before.get(suite)?.status, `${suite} on v1: ${before.get(suite)?.message}`).toBe('passed');
    const after = await runSuites(migrated);
    for (const suite of suites) expect(after.get(suite)?.status, `${suite} migrated: ${after.get(suite)?.message}`).toBe('passed');
    // The suites as they were, with the recordings they load, against the migrated programs: each fails.
    const stale = copyClients(migrated);
    for (const suite of suites) cpSync(join(CLIENTS, suite), join(stale, suite));
    cpSync(join(CLIENTS, RECORDINGS), join(stale, RECORDINGS), { recursive: true });
    const left = await runSuites(stale);
    for (const suite of suites) expect(left.get(suite)?.status, `${suite} left on v1 against migrated programs`).toBe('failed');
  });
});

/** v1's microseconds against v2's milliseconds, in text a program printed whole. */
const toMilliseconds = (text: string) => text.replace(/(\d{2}:\d{2}:\d{2}\.\d{3})\d+Z/g, '$1Z');

describe('fixtures/clients-partial: what cannot move whole stays on v1, noted', () => {
  const original = copyClients(PARTIAL);
  const migrated = copyClients(PARTIAL);
  let migration: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    migration = await runCli([migrated, '--write']);
  });

  it('migrates with notes and no error', () => {
    expect(partial.length).toBeGreaterThan(0);
    expect(migration.code, migration.stderr).toBe(0);
    expect(migration.stderr).toMatch(/ 0 errors/);
  });

  it.each(partial)('%s: noted; the same with both versions served; not the same on v2 alone', async (file) => {
    const text = readFileSync(join(migrated, file), 'utf8');
    expect(text, 'a note names what stays').toMatch(/migrate-v2-todo: /);
    const before = await runClient(original, file, []);
    expect(before.ok, before.out).toBe(true);
    const both = await runClient(migrated, file, []);
    expect(both.ok, both.out).toBe(true);
    // A note on timestamp precision names the one difference v2 brings to text shown whole.
    const precise = /fraction digits/.test(text) ? toMilliseconds : (t: string) => t;
    expect(precise(both.out)).toBe(precise(before.out));
    const alone = await runClient(migrated, file, ['v1']);
    expect(alone.ok && alone.out === before.out).toBe(false);
  });

  it('type-checks after migration as it did before', async () => {
    expect(await typeCheck(original)).toBe('');
    expect(await typeCheck(migrated)).toBe('');
  });

  it('keeps the unit tests passing: a double stays on v1 wherever its call does', async () => {
    const suites = suitesOf(PARTIAL);
    expect(suites.length).toBeGreaterThan(0);
    const after = await runSuites(migrated);
    for (const suite of suites) expect(after.get(suite)?.status, `${suite} migrated: ${after.get(suite)?.message}`).toBe('passed');
    // Some doubles there do stay on v1, noted beside the calls they answer.
    expect(suites.some((suite) => /migrate-v2-todo: this (nock|msw|mock|MockAgent)/.test(readFileSync(join(migrated, suite), 'utf8')))).toBe(true);
  });
});
