/** One dry run of the codemod in its own process, so its peak RSS is its own: `codemod-child.js DIR [JOBS]`. Prints one JSON line. */
import { migrateCommand } from '../src/commands/migrate.js';

const [dir, jobs] = process.argv.slice(2) as [string, string | undefined];
const started = performance.now();
const outcome = await migrateCommand([dir], jobs ? { jobs } : {}, { version: 'bench', cwd: dir, env: {}, colour: false });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, summary: outcome.report.summary, diffBytes: outcome.stdout.length })}\n`);
