/**
 * `npm run bench`: runs every benchmark and rewrites bench/RESULTS.md with the figures and the
 * command that produced them. Never part of `npm test`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchCodemod } from './codemod.js';
import { benchEmulator } from './emulator.js';
import { benchOutline } from './outline.js';
import { benchRuntime } from './runtime.js';
import { benchVerify } from './verify.js';
import { machine } from './support.js';

const RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));

const suites: [string, () => Promise<string>][] = [
  ['codemod', benchCodemod],
  ['emulator', benchEmulator],
  ['verify', benchVerify],
  ['runtime', benchRuntime],
  ['outline', benchOutline],
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const sections: string[] = [];
  for (const [name, run] of suites) {
    if (only.length > 0 && !only.includes(name)) continue;
    process.stderr.write(`bench: ${name}...\n`);
    const section = await run();
    process.stdout.write(`${section}\n`);
    sections.push(section);
  }
  // A run of some suites keeps the other suites' sections from the last full run.
  const previous = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const kept = new Map(previous.split(/\n(?=## )/).slice(1).map((section) => [section.split('\n')[0]!, section.trimEnd()]));
  for (const section of sections) kept.set(section.split('\n')[0]!, section.trimEnd());
  const header = [
    '# Benchmark results',
    '',
    `Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${machine()}.`,
    'Command: `npm run bench` (or `node dist/bench/run.js codemod|emulator|verify|runtime|outline` after a build for one section; MIGRATE_V2_BENCH_BASE=DIR adds a built base checkout, taking turns with this build, to the codemod, runtime and outline sections). Figures vary by a few tens of percent from run to run; rerun to compare on your machine.',
    '',
  ];
  writeFileSync(RESULTS, `${header.join('\n')}\n${[...kept.values()].join('\n\n')}\n`);
  process.stderr.write(`bench: wrote ${RESULTS}\n`);
}

await main();
