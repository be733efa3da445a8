#!/usr/bin/env node
/**
 * The command line: parses flags, runs a command, prints its result. The only place that sets the
 * exit code: 0 clean, 1 findings, 2 usage or configuration error.
 */
import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import type { EmulatorCommandOptions } from './commands/emulator.js';
import type { MergeReportsOptions } from './commands/merge-reports.js';
import type { MigrateCommandOptions } from './commands/migrate.js';
import { COMMENT_MAX_CHARS, DEFAULT_EMULATOR_PORT } from './commands/options.js';
import type { VerifyCommandOptions } from './commands/verify.js';
import { isUsageError } from './errors.js';

// Each action imports its command when it runs: only the codemod needs ts-morph (about 0.8 s and
// 90 MiB to load), so --version, --help, verify and emulator must not pay for it.

const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function reportMaxCharsOption(): Option {
  return new Option('--report-max-chars <n>', 'at most this many characters of markdown report and of step summary (the default: what a GitHub comment takes)').default(String(COMMENT_MAX_CHARS));
}

function formatOption(): Option {
  return new Option('--format <format>', 'md or json: the report format when the file name does not say; github: annotations on stdout').choices(['md', 'json', 'github']);
}

function emulatorCommand(): Command {
  return new Command('emulator')
    .summary('serve v1, v2beta1 and the token exchange')
    .description(
      'Serve v1, v2beta1 and the token exchange over real HTTP from one in-memory store, seeded with a ' +
        'dataset. Prints "listening on http://HOST:PORT" as its first line of stdout.',
    )
    .option('--port <n>', 'port to listen on; 0 picks a free one', String(DEFAULT_EMULATOR_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--public-url <url>', 'the API base URL clients use, behind a proxy: the token audience (default: http://HOST:PORT)')
    .option('--token <token>', 'the static API bearer token (default: emulator-dev-token)')
    .option('--dataset <name>', 'demo, large:N (N groups and N repos) or a dataset JSON file', 'demo')
    .addOption(new Option('--disable <version>', 'answer 404 for one version, like an unknown path (repeatable)').choices(['v1', 'v2', 'v2beta1']).argParser(collect))
    .option('--page-token-ttl <seconds>', 'page token lifetime (default: 3 days, as the platform)')
    .option('--request-log <file>', 'append one JSON line per request (method, path, query, status)')
    .option('--faults <spec>', 'inject faults: 5xx=R,429=R,reset=R,truncate=R,empty-page=R,latency=MIN-MAX,retry-after=S,seed=N')
    .option('--drift <spec>', 'make v1 and v2 disagree: missing-v1=N,missing-v2=N,field=N,duplicate,cycle,seed=N')
    .option('--seed <n>', 'seed for generated uids', '1')
    .option('--print-dataset', 'print the dataset in the file format of --dataset FILE and exit')
    .action(async (options: EmulatorCommandOptions & { printDataset?: boolean }) => {
      const { printDataset, startEmulatorCommand } = await import('./commands/emulator.js');
      if (options.printDataset) {
        process.stdout.write(printDataset(options.dataset, options.seed));
        return;
      }
      const started = await startEmulatorCommand(options);
      process.stdout.write(`listening on ${started.running.url}\n`);
      for (const note of started.notes) process.stderr.write(`${note}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          started.stop().then(resolve, resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}

function migrateCommandLine(): Command {
  return new Command('migrate')
    .summary('rewrite v1 client code to v2beta1 (the default)')
    .description(
      'Rewrite v1 client code to v2beta1: paths, field names, list envelopes, updates, reads of one record, role ' +
        'bindings. Shows a unified diff and changes nothing unless --write. What it cannot migrate with certainty ' +
        'gets a "// migrate-v2-todo:" comment and a manual-review entry with file and line.',
    )
    .argument('[paths...]', 'files and directories to migrate (default: the current directory)')
    .option('--write', 'apply the changes (atomic writes; every result re-parsed)')
    .option('--check', 'exit 1 when changes or manual-review items are pending (for CI)')
    .option('--allow-dirty', 'with --write: change files that have uncommitted changes')
    .option('--report <file>', 'write a report: FILE.md (for a pull request) or FILE.json; repeatable', collect)
    .addOption(formatOption())
    .addOption(reportMaxCharsOption())
    .option('--patch <file>', 'write the unified patch')
    .option('--tsconfig <path>', 'use this tsconfig for types across files (default: the nearest tsconfig.json)')
    .option('--config <path>', 'declare what the codemod cannot see, such as wrappers of other packages (default: the nearest migrate-v2.config.json)')
    .option('--transforms <list>', 'run only these transforms (comma-separated)')
    .option('--list-transforms', 'list the transforms and exit')
    .option('--include <glob>', 'only files matching (repeatable)', collect)
    .option('--exclude <glob>', 'skip files matching (repeatable)', collect)
    .option('--quiet', 'no diff and no review list: the summary only')
    .option('--json', 'print the summary and review items as JSON')
    .option('--shard <i/n>', 'run part i of n for a CI matrix: files that import each other stay in one part')
    .option('--jobs <n>', 'threads for a large run (default: one per core on 3 cores or more, else 1); the output is the same')
    .action(async (paths: string[], options: MigrateCommandOptions & { listTransforms?: boolean }) => {
      const { listTransforms, migrateCommand } = await import('./commands/migrate.js');
      if (options.listTransforms) {
        process.stdout.write(listTransforms());
        return;
      }
      const colour = process.stdout.isTTY === true && !process.env['NO_COLOR'];
      const live = process.stderr.isTTY === true && !options.quiet && !options.json;
      const outcome = await migrateCommand(paths, options, {
        version: pkg.version,
        cwd: process.cwd(),
        env: process.env,
        colour,
        ...(live ? { progress: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
      });
      if (live) process.stderr.write('\r\x1b[2K');
      process.stdout.write(outcome.stdout);
      process.stderr.write(outcome.stderr);
      process.exitCode = outcome.exitCode;
    });
}

function verifyCommandLine(): Command {
  return new Command('verify')
    .summary('compare v1 and v2 resources, check v2 paging')
    .description(
      'Walk v1 and v2 in parallel, compare every resource field by field through the migration contract, check ' +
        "v2's pagination contract on the way, and report what differs. With no --base-url it audits the embedded " +
        'emulator (demo dataset). Sends only GET requests (and the token exchange).',
    )
    .option('--base-url <url>', 'API base URL (default: start the embedded emulator)')
    .option('--auth-url <url>', 'token-issuing address for --oidc-token-file (default: the base URL)')
    .option('--token <token>', 'API bearer token (or set MIGRATE_V2_TOKEN)')
    .option('--oidc-token-file <file>', "a workload's OIDC token, exchanged for an API token (with --identity)")
    .option('--identity <uid>', 'the identity to assume in the token exchange')
    .option('--scope <group-uid>', 'audit only the descendants of this group')
    .option('--kinds <list>', 'kinds to audit, by v2 collection name (default: all that both versions list)')
    .option('--concurrency <n>', 'requests in flight at once, for the whole audit', '8')
    .option('--page-size <n>', 'v2 page_size', '200')
    .option('--max-pages <n>', 'stop a v2 walk after this many pages', '100000')
    .option('--timeout <ms>', 'time allowed for the whole answer of each attempt, headers and body', '30000')
    .option('--retries <n>', 'retries per request (5xx, 429, resets, truncated bodies)', '6')
    .option('--report <file>', 'write the report: FILE.md (markdown) or FILE.json (every finding); repeatable', collect)
    .addOption(formatOption())
    .addOption(reportMaxCharsOption())
    .option('--baseline <old.json>', 'a previous JSON report: fail only on findings it does not have')
    .option('--json', 'print the report as JSON instead of the summary')
    .option('--quiet', 'no progress line')
    .option('--shard <i/n>', 'audit part i of n for a CI matrix: by kind, and with --scope by top-level group under it')
    .option('--emulator-dataset <name>', 'embedded emulator: dataset (demo, large:N or a file)', 'demo')
    .option('--emulator-faults <spec>', 'embedded emulator: inject faults (see emulator --help)')
    .option('--emulator-drift <spec>', 'embedded emulator: inject drift (see emulator --help)')
    .option('--emulator-request-log <file>', 'embedded emulator: log every request it gets')
    .action(async (options: VerifyCommandOptions & { quiet?: boolean }) => {
      const { verifyCommand } = await import('./commands/verify.js');
      const live = process.stderr.isTTY && !options.quiet && !options.json;
      const outcome = await verifyCommand(options, {
        version: pkg.version,
        env: process.env,
        ...(live ? { progress: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
      });
      if (live) process.stderr.write('\r\x1b[2K');
      process.stdout.write(outcome.stdout);
      for (const path of outcome.written) process.stderr.write(`report written to ${path}\n`);
      process.exitCode = outcome.exitCode;
    });
}

function contractCommandLine(): Command {
  return new Command('contract')
    .summary("print the migration contract's rules")
    .option('--assumed', 'only the assumed rules, as a markdown table')
    .option('--json', 'the whole contract as JSON')
    .action(async (options: { assumed?: boolean; json?: boolean }) => {
      const { contractCommand } = await import('./commands/contract.js');
      process.stdout.write(contractCommand(options));
    });
}

function mergeReportsCommandLine(): Command {
  return new Command('merge-reports')
    .summary("merge the JSON reports of a matrix's shards")
    .description(
      'Merge the JSON reports of the shards of one run (migrate-v2 --shard i/n, or verify --shard i/n; not both kinds) ' +
        'into the report of the whole run: markdown within the same bound, or JSON. Every shard must be there, once.',
    )
    // The reports are taken as they come, not declared: a declared argument would widen every line of the command list.
    .usage('[options] <report.json...>')
    .allowExcessArguments()
    .option('--report <file>', 'write the merged report: FILE.md (for a pull request) or FILE.json; repeatable', collect)
    .addOption(formatOption())
    .addOption(reportMaxCharsOption())
    .action(async (options: MergeReportsOptions, command: Command) => {
      const { mergeReportsCommand } = await import('./commands/merge-reports.js');
      const outcome = await mergeReportsCommand(command.args, options, { env: process.env });
      process.stdout.write(outcome.stdout);
      for (const path of outcome.written) process.stderr.write(`report written to ${path}\n`);
    });
}

export function buildProgram(): Command {
  const program = new Command('migrate-v2')
    .description('Move platform API integrations from v1 to v2beta1, and prove the move is safe.')
    .version(pkg.version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program.addCommand(migrateCommandLine(), { isDefault: true });
  program.addCommand(verifyCommandLine());
  program.addCommand(emulatorCommand());
  program.addCommand(mergeReportsCommandLine());
  program.addCommand(contractCommandLine());
  for (const command of program.commands) command.exitOverride().showHelpAfterError('(run with --help for usage)');
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (isUsageError(error)) {
      process.stderr.write(`migrate-v2: ${error.message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    throw error;
  }
}

await main(process.argv);
