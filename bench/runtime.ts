/**
 * Issue 10's runtime targets (a CLI that starts at once; the verifier and the emulator at 100,000),
 * each measured side by side with a base build when MIGRATE_V2_BENCH_BASE names a built checkout of
 * the commit before the issue: the two builds run alternately, and each figure is the median of
 * its runs. Without a base the section shows this build alone.
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { DEFAULT_API_TOKEN } from '../src/emulator/emulator.js';
import { walk } from './emulator.js';
import { CLI, fmt, median, PEAK_RSS_PROBE, peakRssMiB, percentile, startCliEmulator, type BenchEmulator } from './support.js';
import { CHILD, cliAudit, measure } from './verify.js';

const run = promisify(execFile);
const STARTUP_RUNS = 5;
const RUNS = 3;
/** The audit against a bare walk varies most with what else the machine runs: more runs. */
const AUDIT_RUNS = 5;
const LARGE = 100_000;

interface Build {
  label: string;
  cli: string;
  /** Its bench/verify-child.js: the audit in process. */
  child: string;
}

async function builds(): Promise<Build[]> {
  const current = { label: 'this build', cli: CLI, child: CHILD };
  const base = process.env['MIGRATE_V2_BENCH_BASE'];
  if (!base) return [current];
  const { stdout } = await run('git', ['-C', base, 'rev-parse', '--short', 'HEAD']);
  return [{ label: `base ${stdout.trim()}`, cli: join(base, 'dist', 'src', 'cli.js'), child: join(base, 'dist', 'bench', 'verify-child.js') }, current];
}

const verdict = (met: boolean): string => (met ? 'met' : '**not met**');

/** Runs `measureOnce` for every build, `runs` times, the builds taking turns. */
async function alternately<T>(all: Build[], runs: number, measureOnce: (build: Build) => Promise<T>): Promise<Map<Build, T[]>> {
  const out = new Map(all.map((b) => [b, [] as T[]]));
  for (let i = 0; i < runs; i++) for (const build of all) out.get(build)!.push(await measureOnce(build));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Startup

interface Startup {
  label: string;
  /** node's arguments, the CLI's path standing for `{cli}`. */
  args: (cli: string) => string[];
  /** A server: measured to its first line on stdout, not to its exit. */
  untilFirstLine?: boolean;
}

const STARTUPS: Startup[] = [
  { label: '`migrate-v2 --version`', args: (cli) => [cli, '--version'] },
  { label: '`migrate-v2 emulator --help`', args: (cli) => [cli, 'emulator', '--help'] },
  { label: '`migrate-v2 verify --help`', args: (cli) => [cli, 'verify', '--help'] },
  { label: '`migrate-v2 emulator --port 0`, to its first line', args: (cli) => [cli, 'emulator', '--port', '0'], untilFirstLine: true },
];

/** Seconds from spawn to exit, or to the first line on stdout (then the server is stopped), and the peak RSS then. */
function startOnce(args: string[], untilFirstLine = false): Promise<{ seconds: number; rssMiB: number | undefined }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, untilFirstLine ? args : ['--import', PEAK_RSS_PROBE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let answered = false;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', () => {
      if (!untilFirstLine || answered) return;
      answered = true;
      const seconds = (performance.now() - started) / 1000;
      const rssMiB = peakRssMiB(child.pid!);
      child.once('close', () => resolve({ seconds, rssMiB }));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (untilFirstLine) return answered || reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const seconds = (performance.now() - started) / 1000;
      const probe = /\{"maxRssMiB":[^}]*\}\s*$/.exec(stderr)?.[0];
      if (code !== 0 || !probe) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      resolve({ seconds, rssMiB: (JSON.parse(probe) as { maxRssMiB: number }).maxRssMiB });
    });
  });
}

async function benchStartup(all: Build[]): Promise<string[]> {
  const node: { seconds: number; rssMiB: number | undefined }[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) node.push(await startOnce(['-e', '0']));
  const nodeSeconds = median(node.map((r) => r.seconds));
  const rows: string[] = [];
  for (const startup of STARTUPS) {
    const measured = await alternately(all, STARTUP_RUNS, (build) => startOnce(startup.args(build.cli), startup.untilFirstLine));
    const times = all.map((build) => median(measured.get(build)!.map((r) => r.seconds)));
    const cells = all.map((build, i) => `${fmt(times[i], 2)} s, ${fmt(median(measured.get(build)!.map((r) => r.rssMiB ?? NaN)), 0)} MiB (**${fmt(times[i]! / nodeSeconds, 1)}x**)`);
    rows.push(`| ${startup.label} | ${cells.join(' | ')} | within 3x of node: ${verdict(times.at(-1)! <= 3 * nodeSeconds)} |`);
  }
  return [
    '### A CLI that starts at once',
    '',
    `Wall time from spawn to exit (a server: to its first line on stdout), median of ${STARTUP_RUNS} runs taking turns, and peak RSS; ` +
      `\`node -e 0\` took ${fmt(nodeSeconds, 2)} s and ${fmt(median(node.map((r) => r.rssMiB ?? NaN)), 0)} MiB in the same run. Command: \`node dist/src/cli.js ARGS\` in each checkout.`,
    '',
    `| command | ${all.map((b) => b.label).join(' | ')} | target |`,
    `|---|${all.map(() => '---|').join('')}---|`,
    ...rows,
  ];
}

// ---------------------------------------------------------------------------------------------
// The audit through the CLI against a bare walk; the embedded audit's memory

async function benchAuditThroughCli(all: Build[]): Promise<string[]> {
  const emulators = new Map<Build, BenchEmulator>();
  try {
    for (const build of all) emulators.set(build, await startCliEmulator(['--dataset', `large:${LARGE}`], build.cli));
    // Warm each emulator: its sorted views and, where it has one, its cache of renderings.
    for (const emulator of emulators.values()) for (let i = 0; i < 2; i++) await measure('bare', emulator.url);
    const runs = await alternately(all, AUDIT_RUNS, async (build) => {
      const url = emulators.get(build)!.url;
      const bare = await measure('bare', url);
      const inProcess = await measure('audit', url, build.child);
      const audit = await cliAudit(['--base-url', url, '--kinds', 'groups,repos'], { MIGRATE_V2_TOKEN: DEFAULT_API_TOKEN }, build.cli);
      for (const verdict of [audit.verdict, inProcess.verdict]) if (verdict !== 'parity') throw new Error(`${build.label}: the audit did not find parity: ${verdict}`);
      return { bare: bare.wall, audit: audit.seconds, bareInProcess: bare.seconds, auditInProcess: inProcess.seconds, bareCpu: bare.cpuSeconds, auditCpu: audit.cpuSeconds };
    });
    const rows = all.map((build) => {
      const r = runs.get(build)!;
      const m = (pick: (x: (typeof r)[number]) => number) => median(r.map(pick));
      const list = (values: number[]) => values.map((v) => fmt(v, 2)).join(', ');
      const ratio = m((x) => x.audit) / m((x) => x.bare);
      return (
        `| ${build.label} | ${fmt(m((x) => x.bare), 2)} s (${list(r.map((x) => x.bare))}) | ${fmt(m((x) => x.audit), 2)} s (${list(r.map((x) => x.audit))}) | ` +
        `**${fmt(ratio, 2)}x** | ${fmt(m((x) => x.auditInProcess) / m((x) => x.bareInProcess), 2)}x | ` +
        `${fmt(m((x) => x.auditCpu), 2)} / ${fmt(m((x) => x.bareCpu), 2)} s (${fmt(m((x) => x.auditCpu) / m((x) => x.bareCpu), 2)}x) | within 1.1x: ${verdict(ratio <= 1.1)} |`
      );
    });
    return [
      '',
      `### The audit through the CLI, ${LARGE.toLocaleString('en')} groups + ${LARGE.toLocaleString('en')} repos`,
      '',
      `Each build's own emulator (\`node dist/src/cli.js emulator --port 0 --dataset large:${LARGE}\`), warmed by two bare walks; then, taking turns, ` +
        `a bare walk of the same pages (\`node dist/bench/verify-child.js bare URL 8\`: undici, concurrency 8, nothing compared) and the audit ` +
        `(\`MIGRATE_V2_TOKEN=${DEFAULT_API_TOKEN} node dist/src/cli.js verify --base-url URL --kinds groups,repos --quiet --json\`), ` +
        `each timed from spawn to exit; median of ${AUDIT_RUNS} (the runs in brackets). In process: the same audit and walk timed inside their processes ` +
        "(each build's `dist/bench/verify-child.js audit|bare`), startup left out. CPU: user and system time of the CLI audit and of the bare walk, " +
        'whole processes; less moved than wall time by what else the machine runs.',
      '',
      '| build | bare walk | audit through the CLI | audit / bare | in process | CPU, audit / bare | target (through the CLI) |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ];
  } finally {
    await Promise.all([...emulators.values()].map((e) => e.stop()));
  }
}

async function benchEmbeddedAudit(all: Build[]): Promise<string[]> {
  const runs = await alternately(all, RUNS, (build) => cliAudit(['--emulator-dataset', `large:${LARGE}`], {}, build.cli));
  const rows = all.map((build) => {
    const r = runs.get(build)!;
    for (const audit of r) if (audit.verdict !== 'parity') throw new Error(`${build.label}: the embedded audit did not find parity: ${audit.verdict}`);
    const peak = median(r.map((a) => a.maxRssMiB));
    return `| ${build.label} | **${fmt(peak, 0)} MiB** = ${fmt(peak * 1.048576, 0)} MB (${r.map((a) => fmt(a.maxRssMiB, 0)).join(', ')}) | ${fmt(median(r.map((a) => a.seconds)), 1)} s | under 400: ${verdict(peak < 400)} |`;
  });
  return [
    '',
    `### The embedded audit of ${LARGE.toLocaleString('en')}: peak memory`,
    '',
    `\`node dist/src/cli.js verify --emulator-dataset large:${LARGE} --quiet --json\` (every kind; the emulator and its store in the same process), ` +
      `peak RSS of the process (\`bench/peak-rss-probe.ts\`), median of ${RUNS} runs taking turns (the runs in brackets). ` +
      "The target's 400 is read in MiB, as the issue's figure for today (481 MB) is this table's MiB; the MB column is 10^6 bytes.",
    '',
    '| build | peak RSS | wall | target |',
    '|---|---|---|---|',
    ...rows,
  ];
}

// ---------------------------------------------------------------------------------------------
// The emulator: a walk it has served before, and v1 reads by id

/** Latencies of v1 `?id=` reads of the first 200 groups a v2 page lists, after one read of each. */
async function readsById(url: string, agent: Agent): Promise<number[]> {
  const headers = { authorization: `Bearer ${DEFAULT_API_TOKEN}` };
  const page = (await (await request(`${url}/iam/v2beta1/groups?page_size=200`, { dispatcher: agent, headers })).body.json()) as { groups: { uid: string }[] };
  const latencies: number[] = [];
  for (const pass of [0, 1]) {
    for (const { uid } of page.groups) {
      const started = performance.now();
      const res = await request(`${url}/iam/v1/groups?id=${encodeURIComponent(uid)}`, { dispatcher: agent, headers });
      const body = (await res.body.json()) as { items: unknown[] };
      if (body.items.length !== 1) throw new Error(`?id=${uid} found ${body.items.length} groups`);
      if (pass === 1) latencies.push(performance.now() - started);
    }
  }
  return latencies;
}

async function benchEmulatorReads(all: Build[]): Promise<string[]> {
  const agent = new Agent({ connections: 1, pipelining: 1 });
  const rows: string[][] = [];
  try {
    const runs = await alternately(all, RUNS, async (build) => {
      const large = await startCliEmulator(['--dataset', `large:${LARGE}`], build.cli);
      const small = await startCliEmulator(['--dataset', 'large:1000'], build.cli);
      try {
        await walk(large.url, agent, '/iam/v2beta1/groups', 'groups');
        const again = await walk(large.url, agent, '/iam/v2beta1/groups', 'groups');
        return {
          walk: again.seconds,
          page: percentile(again.latenciesMs, 50),
          idLarge: percentile(await readsById(large.url, agent), 50),
          idSmall: percentile(await readsById(small.url, agent), 50),
          rss: peakRssMiB(large.child.pid!) ?? NaN,
        };
      } finally {
        await Promise.all([large.stop(), small.stop()]);
      }
    });
    for (const build of all) {
      const r = runs.get(build)!;
      const m = (pick: (x: (typeof r)[number]) => number, digits = 2) => fmt(median(r.map(pick)), digits);
      rows.push([build.label, `${m((x) => x.walk)} s; page p50 ${m((x) => x.page)} ms`, `${m((x) => x.idSmall)} ms`, `${m((x) => x.idLarge)} ms`, `${m((x) => x.idLarge / x.idSmall, 1)}x`, `${m((x) => x.rss, 0)} MiB`]);
    }
  } finally {
    await agent.close();
  }
  return [
    '',
    '### The emulator: a walk it has served before, and v1 reads by id',
    '',
    `Each build's \`node dist/src/cli.js emulator --port 0 --dataset large:${LARGE}\` (and \`large:1000\`), one keep-alive connection: the second cursor walk ` +
      `of the ${LARGE.toLocaleString('en')} groups at page_size=200 (the first one warms it), then \`/iam/v1/groups?id=UID\` for 200 groups, twice, timing the second pass; ` +
      `median of ${RUNS} runs taking turns, each in fresh emulators. The peak RSS is the large emulator's after all that: this build holds the groups' v2 renderings by then, the base build had loaded ts-morph.`,
    '',
    '| build | second walk of 100,000 groups | v1 ?id= p50 at 1,000 | at 100,000 | 100,000 / 1,000 | emulator peak RSS |',
    '|---|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
}

export async function benchRuntime(): Promise<string> {
  const all = await builds();
  return [
    "## Issue 10: runtime targets",
    '',
    all.length > 1
      ? `Side by side with the build before issue 10 (${all[0]!.label}, built in a separate \`git worktree\`; \`MIGRATE_V2_BENCH_BASE=/path/to/it node dist/bench/run.js runtime\`), the two taking turns in one run.`
      : 'This build alone (set MIGRATE_V2_BENCH_BASE to a built checkout of the commit before issue 10 to measure it alongside).',
    '',
    ...(await benchStartup(all)),
    ...(await benchAuditThroughCli(all)),
    ...(await benchEmbeddedAudit(all)),
    ...(await benchEmulatorReads(all)),
    '',
  ].join('\n');
}
