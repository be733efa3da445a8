/** One dry run of the codemod in its own process, so its peak RSS is its own. Prints one JSON line. */
import { migrateCommand } from '../src/commands/migrate.js';

const dir = process.argv[2]!;
const started = performance.now();
const outcome = migrateCommand([dir], {}, { version: 'bench', cwd: dir, env: {}, colour: false });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, summary: outcome.report.summary, diffBytes: outcome.stdout.length })}\n`);
