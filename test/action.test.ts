/**
 * The composite action (action.yml): its inputs, what its steps may read, how it pins the actions
 * it uses, that what it runs exists in the CLI's --help; then its run and comment steps executed by
 * bash as the runner executes them, with the GitHub API played by a `gh` stand-in.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from './helpers/cli.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
interface Action {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as Action;
const steps = action.runs.steps;
const expressions = (text: string) => [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1]!);

/** The `${{ }}` expressions the steps use here: inputs, the run step's outputs and the event's pull request. */
function evaluate(value: string, context: { inputs: Record<string, string>; outputs: Record<string, string>; github: Record<string, string> }): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    const [scope, ...rest] = expr.split('.');
    const key = scope === 'steps' ? rest.slice(2).join('.') : rest.join('.');
    const table = scope === 'inputs' ? context.inputs : scope === 'steps' ? context.outputs : scope === 'github' ? context.github : undefined;
    if (!table || !(key in table)) throw new Error(`the test does not know ${expr}`);
    return evaluate(table[key]!, context);
  });
}

describe('action.yml', () => {
  it('is a composite action whose inputs say what they are; command is migrate or verify', () => {
    expect(action.runs.using).toBe('composite');
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toMatch(/\w{3}/);
    expect(action.inputs['command']).toMatchObject({ default: 'migrate', description: expect.stringMatching(/migrate.*verify/) });
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['command', 'paths', 'args', 'base-url', 'token', 'comment', 'github-token', 'report-max-chars', 'artifact-name']));
  });

  it('reads only declared inputs, and hands them to scripts as variables, never pasted into them', () => {
    const ids = new Set(steps.flatMap((s) => (s.id ? [s.id] : [])));
    const everywhere = [JSON.stringify(steps), JSON.stringify(action.outputs)].flatMap(expressions);
    for (const expr of everywhere) {
      const input = /^inputs\.([\w-]+)$/.exec(expr);
      const output = /^steps\.([\w-]+)\.outputs\.[\w-]+$/.exec(expr);
      if (input) expect(action.inputs, expr).toHaveProperty([input[1]!]);
      else if (output) expect(ids.has(output[1]!), expr).toBe(true);
      else expect(expr, 'only inputs, step outputs and the github context').toMatch(/^(github\.[\w.]+|inputs\.[\w-]+ == 'true' && github\.event\.pull_request\.number && steps\.run\.outputs\.comment-body|always\(\) && steps\.run\.outputs\.dir)$/);
    }
    for (const step of steps.filter((s) => s.run)) {
      expect(expressions(step.run!), `${step.name}: no \${{ }} inside a script`).toEqual([]);
      expect(step.shell, step.name).toBe('bash');
      for (const [, name] of step.run!.matchAll(/\$\{?(INPUT_[A-Z_]+)/g)) expect(step.env ?? {}, `${step.name} reads ${name}`).toHaveProperty([name!]);
    }
  });

  it('pins every action it uses by major version', () => {
    const used = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(used.length).toBeGreaterThan(0);
    for (const uses of used) expect(uses).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
  });

  it('runs only commands and flags the CLI lists in its --help', async () => {
    const help = await runCli(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
    const invocations = steps.flatMap((s) => (s.run ?? '').split('\n')).filter((line) => line.includes('node "$MIGRATE_V2"'));
    expect(invocations.length).toBeGreaterThanOrEqual(3);
    for (const line of invocations) {
      const words = line.slice(line.indexOf('node "$MIGRATE_V2"') + 'node "$MIGRATE_V2"'.length).trim().split(/\s+/);
      const command = /^[a-z]/.test(words[0]!) ? words[0]! : 'migrate';
      expect(commands, line).toContain(command);
      const own = await runCli([command, '--help']);
      for (const [flag] of line.matchAll(/(?<![\w-])--[a-z][\w-]*/g)) expect(own.stdout, `${command} ${flag}`).toContain(` ${flag} `);
    }
  });
});

describe('action.yml, executed', () => {
  const runStep = steps.find((s) => s.id === 'run')!;
  const commentStep = steps.find((s) => s.name === 'Comment on the pull request')!;
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']));

  /** One step's script, run as the runner runs `shell: bash`, with its env evaluated. */
  function execute(step: Step, inputs: Record<string, string>, extra: { outputs?: Record<string, string>; env?: Record<string, string> } = {}) {
    const temp = mkdtempSync(join(tmpdir(), 'mv2-action-'));
    const files = { output: join(temp, 'output'), summary: join(temp, 'summary.md') };
    writeFileSync(files.output, '');
    const context = { inputs: { ...defaults, ...inputs }, outputs: extra.outputs ?? {}, github: { token: 'gh-token', 'event.pull_request.number': '7', repository: 'acme/app' } };
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, context)]));
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      cwd: REPO,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], HOME: temp, GITHUB_ACTION_PATH: REPO, RUNNER_TEMP: temp, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary, NO_COLOR: '1', ...extra.env, ...env },
    });
    const outputs = Object.fromEntries(readFileSync(files.output, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    return { ...result, outputs, summary: existsSync(files.summary) ? readFileSync(files.summary, 'utf8') : '' };
  }

  it('migrate: annotations in the log, the exit code kept for last, a bounded comment and the full report named by its artifact name', () => {
    const run = execute(runStep, { paths: 'fixtures/review-sample', 'report-max-chars': '20000' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.stdout).toMatch(/^::warning file=fixtures\/review-sample\/\S+,line=\d+,title=migrate-v2 /m);
    const report = JSON.parse(readFileSync(run.outputs['report']!, 'utf8'));
    expect(report.summary.review).toBeGreaterThan(0);
    const body = readFileSync(run.outputs['comment-body']!, 'utf8');
    expect(body.startsWith('<!-- migrate-v2 migrate migrate-v2-report -->\n## migrate-v2: v1 to v2beta1\n')).toBe(true);
    expect(body.length).toBeLessThanOrEqual(20000);
    expect(existsSync(join(run.outputs['dir']!, 'migration.patch'))).toBe(true);
    expect(run.summary.match(/## migrate-v2: v1 to v2beta1/g), 'one step summary').toHaveLength(1);
    expect(run.summary).not.toContain(run.outputs['dir']!);
  });

  it('verify: the audit of the embedded emulator, and a bad input is exit code 2 with no report', () => {
    const run = execute(runStep, { command: 'verify' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs['exit-code']).toBe('0');
    expect(readFileSync(run.outputs['comment-body']!, 'utf8')).toMatch(/^<!-- migrate-v2 verify migrate-v2-report -->\n# migrate-v2 parity audit\n/);
    // A bound that leaves the report under the CLI's least, or that bash would read as octal; a command that is a path.
    const bad: Record<string, string>[] = [{ command: 'deploy' }, { command: 'x/../../escape' }, { 'report-max-chars': 'lots' }, { 'report-max-chars': '10020' }, { 'report-max-chars': '099999' }, { args: '--shard 9/2' }];
    for (const inputs of bad) {
      const bad = execute(runStep, inputs);
      expect(bad.status, bad.stderr).toBe(0);
      expect(bad.outputs['exit-code'], JSON.stringify(inputs)).toBe('2');
      expect(bad.outputs['report'], JSON.stringify(inputs)).toBeUndefined();
      if (inputs['args']) continue;
      expect(bad.stdout, JSON.stringify(inputs)).toMatch(/^::error::(command|report-max-chars) must be /m);
      expect(bad.outputs['dir'], 'no directory made or removed').toBeUndefined();
    }
  });

  it("a shard's run: its report for the artifact as it is, and no comment of its own", () => {
    const run = execute(runStep, { paths: 'fixtures/review-sample', args: '--shard 1/2' });
    expect(run.status, run.stderr).toBe(0);
    expect(['0', '1']).toContain(run.outputs['exit-code']);
    expect(JSON.parse(readFileSync(run.outputs['report']!, 'utf8')).shard).toMatchObject({ index: 1, count: 2 });
    expect(run.outputs['comment-body']).toBeUndefined();
    expect(run.stdout).toMatch(/^::notice::a shard's report: no comment/m);
  });

  it('posts one comment, then updates the comment it finds by its marker', () => {
    const run = execute(runStep, { paths: 'fixtures/review-sample' });
    const bin = mkdtempSync(join(tmpdir(), 'mv2-gh-'));
    const log = join(bin, 'calls.log');
    // The stand-in answers the comment list from COMMENTS with real jq, and logs every call with its body.
    mkdirSync(join(bin, 'bin'));
    writeFileSync(
      join(bin, 'bin', 'gh'),
      [
        '#!/usr/bin/env bash',
        'if [ "$4" = "--jq" ] || [ "$3" = "--paginate" ]; then echo "GET $2" >> "$LOG"; echo "$COMMENTS" | jq -r "$5"; exit 0; fi',
        'echo "$3 $4 $(jq -r .body | head -n 1) token=$GH_TOKEN" >> "$LOG"',
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, 'bin', 'gh'), 0o755);
    const path = `${join(bin, 'bin')}:${process.env['PATH']}`;
    const outputs = { 'comment-body': run.outputs['comment-body']! };
    const first = execute(commentStep, {}, { outputs, env: { PATH: path, LOG: log, COMMENTS: JSON.stringify([{ id: 5, body: 'looks good' }]) } });
    expect(first.status, first.stderr).toBe(0);
    // The same command's comment for another job of a matrix (another artifact name) is not this one.
    const existing = [{ id: 5, body: 'looks good' }, { id: 41, body: '<!-- migrate-v2 migrate api-report -->\nother job' }, { id: 42, body: '<!-- migrate-v2 migrate migrate-v2-report -->\nold report' }, { id: 43, body: '<!-- migrate-v2 verify migrate-v2-report -->\naudit' }];
    const second = execute(commentStep, {}, { outputs, env: { PATH: path, LOG: log, COMMENTS: JSON.stringify(existing) } });
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([
      'GET repos/acme/app/issues/7/comments',
      'POST repos/acme/app/issues/7/comments <!-- migrate-v2 migrate migrate-v2-report --> token=gh-token',
      'GET repos/acme/app/issues/7/comments',
      'PATCH repos/acme/app/issues/comments/42 <!-- migrate-v2 migrate migrate-v2-report --> token=gh-token',
    ]);
    expect(execFileSync('bash', ['-n', '-c', commentStep.run!]).toString()).toBe('');
  });
});
