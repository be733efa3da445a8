/**
 * `migrate-v2 verify`: the parity audit. Options in, an outcome (exit code, text, report) out.
 * With no --base-url it audits the embedded emulator, so the audit runs with no account.
 */
import pLimit from 'p-limit';
import { readFile } from 'node:fs/promises';
import { jsonReport, writeReports } from '../report/report-files.js';
import { appendStepSummary } from '../report/step-summary.js';
import { IDENTIFIERS, modelledResources, type ResourceContract } from '../contract/index.js';
import { UsageError } from '../errors.js';
import { runAudit } from '../verify/audit.js';
import { ApiCallError, ApiClient } from '../verify/http-client.js';
import { partsOfShard, PlanError, planParts, type AuditPart } from '../verify/parts.js';
import { applyBaseline, buildReport, githubAnnotations, renderMarkdown, renderTerminal, type AuditReport } from '../verify/report.js';
import { ExchangedToken, Secrets, StaticToken, type TokenSource } from '../verify/token-source.js';
import type { StartedEmulator } from './emulator.js';
import { githubFormat, httpUrl, reportFiles, reportMaxChars, runRelative, shardOption, wholeNumber, type Shard } from './options.js';

export interface VerifyCommandOptions {
  baseUrl?: string;
  authUrl?: string;
  token?: string;
  oidcTokenFile?: string;
  identity?: string;
  scope?: string;
  kinds?: string;
  concurrency: string;
  pageSize: string;
  maxPages: string;
  timeout: string;
  retries: string;
  report?: string[];
  format?: string;
  reportMaxChars?: string;
  baseline?: string;
  json?: boolean;
  shard?: string;
  emulatorDataset: string;
  emulatorFaults?: string;
  emulatorDrift?: string;
  emulatorRequestLog?: string;
}

export interface VerifyIo {
  version: string;
  env: NodeJS.ProcessEnv;
  /** Called often with a one-line status, when the caller wants a live progress line. */
  progress?: (line: string) => void;
}

export interface VerifyOutcome {
  exitCode: 0 | 1 | 2;
  /** What to print on stdout: the terminal summary, or the report as JSON with --json. */
  stdout: string;
  report: AuditReport;
  written: string[];
}

/** The embedded emulator's errors name its own flags: here they are spelled as verify takes them. */
function asVerifyFlag(error: unknown): unknown {
  return error instanceof UsageError ? new UsageError(error.message.replace(/^--(dataset|faults|drift|request-log)\b/, '--emulator-$1')) : error;
}

function chooseKinds(text: string | undefined): ResourceContract[] {
  const all = modelledResources().filter((r) => r.v1.endpoints.list && r.v2.endpoints.list);
  if (!text) return all;
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  return names.map((name) => {
    const found = all.find((r) => r.v2.collection === name || r.v1.collection === name || r.kind === name);
    if (!found) throw new UsageError(`--kinds: unknown kind "${name}" (known: ${all.map((r) => r.v2.collection).join(', ')})`);
    return found;
  });
}

async function readBaseline(path: string): Promise<AuditReport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--baseline ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as AuditReport).findings)) {
    throw new UsageError(`--baseline ${path}: not a JSON report of migrate-v2 verify`);
  }
  return parsed as AuditReport;
}

function tokenSource(o: VerifyCommandOptions, env: NodeJS.ProcessEnv, baseUrl: string, secrets: Secrets): TokenSource {
  const token = o.token ?? env['MIGRATE_V2_TOKEN'];
  if (token) return new StaticToken(token, secrets);
  if (o.oidcTokenFile || o.identity) {
    if (!o.oidcTokenFile || !o.identity) throw new UsageError('--oidc-token-file and --identity go together');
    if (!new RegExp(IDENTIFIERS.uidPattern).test(o.identity)) throw new UsageError(`--identity must be an identity uid, got "${o.identity}"`);
    return new ExchangedToken({ authUrl: o.authUrl ? httpUrl('--auth-url', o.authUrl) : baseUrl, baseUrl, identity: o.identity, oidcTokenFile: o.oidcTokenFile, secrets });
  }
  throw new UsageError('no credentials: give --token, set MIGRATE_V2_TOKEN, or give --oidc-token-file with --identity');
}

/** One cheap call first, so bad credentials or an unreachable server are a clear error, not findings. */
async function preflight(client: ApiClient, resource: ResourceContract, baseUrl: string, secrets: Secrets): Promise<void> {
  try {
    await client.getJson(`${resource.v2.endpoints.list!.path}?page_size=1`);
  } catch (error) {
    if (error instanceof ApiCallError && (error.statusCode === 401 || error.statusCode === 403)) {
      throw new UsageError(`${baseUrl} refused the credentials (${error.statusCode}): ${secrets.scrub(error.message)}`);
    }
    if (error instanceof ApiCallError && error.code === 'CONNECTION') throw new UsageError(`cannot reach ${baseUrl}: ${error.message}`);
    if (error instanceof UsageError) throw new UsageError(secrets.scrub(error.message));
    // Anything else (a 5xx after every retry, say) is the audit's to report, kind by kind.
    if (!(error instanceof ApiCallError)) throw error;
  }
}

/** This shard's parts of the audit; a split that cannot be read fails the run (exit 2), as a kind left incomplete does. */
async function shardParts(client: ApiClient, resources: ResourceContract[], o: { scope?: string; maxPages: number; shard: Shard; secrets: Secrets }): Promise<AuditPart[]> {
  try {
    return partsOfShard(await planParts(client, resources, o.scope, o.maxPages), o.shard);
  } catch (error) {
    if (!(error instanceof PlanError)) throw error;
    throw new UsageError(o.secrets.scrub(`--shard: cannot split the audit by top-level group: ${error.message}`));
  }
}

export async function verifyCommand(o: VerifyCommandOptions, io: VerifyIo): Promise<VerifyOutcome> {
  const concurrency = wholeNumber('--concurrency', o.concurrency, 1, 256);
  const pageSize = wholeNumber('--page-size', o.pageSize, 1, 1000);
  const maxPages = wholeNumber('--max-pages', o.maxPages, 1, 10_000_000);
  const timeoutMs = wholeNumber('--timeout', o.timeout, 1, 3_600_000);
  const maxRetries = wholeNumber('--retries', o.retries, 0, 100);
  const resources = chooseKinds(o.kinds);
  const annotate = githubFormat(o.format, o.json);
  const reports = reportFiles(o.report, o.format);
  const shard = shardOption(o.shard);
  const maxChars = reportMaxChars(o.reportMaxChars);
  if (o.scope && !new RegExp(IDENTIFIERS.uidPattern).test(o.scope)) throw new UsageError(`--scope must be a group uid, got "${o.scope}"`);
  const baseline = o.baseline ? await readBaseline(o.baseline) : undefined;
  const secrets = new Secrets();

  let emulator: StartedEmulator | undefined;
  let baseUrl: string;
  let tokens: TokenSource;
  if (o.baseUrl) {
    baseUrl = httpUrl('--base-url', o.baseUrl);
    tokens = tokenSource(o, io.env, baseUrl, secrets);
  } else {
    // Imported only here: an audit of a server needs none of the emulator.
    const [{ startEmulatorCommand }, { DEFAULT_API_TOKEN }] = await Promise.all([import('./emulator.js'), import('../emulator/emulator.js')]);
    emulator = await startEmulatorCommand({
      port: '0',
      host: '127.0.0.1',
      dataset: o.emulatorDataset,
      ...(o.emulatorFaults ? { faults: o.emulatorFaults } : {}),
      ...(o.emulatorDrift ? { drift: o.emulatorDrift } : {}),
      ...(o.emulatorRequestLog ? { requestLog: o.emulatorRequestLog } : {}),
    }, { cacheRenderings: false }).catch((error: unknown) => {
      throw asVerifyFlag(error);
    });
    baseUrl = emulator.running.baseUrl;
    tokens = new StaticToken(DEFAULT_API_TOKEN, secrets);
  }

  const started = Date.now();
  const client = new ApiClient({ baseUrl, tokens, limit: pLimit(concurrency), timeoutMs, retry: { maxRetries, minDelayMs: 100, maxDelayMs: 5_000 }, connections: concurrency });
  try {
    await preflight(client, resources[0]!, baseUrl, secrets);
    const parts = shard ? await shardParts(client, resources, { ...(o.scope ? { scope: o.scope } : {}), maxPages, shard, secrets }) : undefined;
    const result = await runAudit({
      client,
      resources,
      ...(o.scope ? { scope: o.scope } : {}),
      ...(parts ? { parts } : {}),
      pageSize,
      maxPages,
      ...(emulator ? { afterLargeV1: (await import('../verify/full-collection.js')).fullCollection() } : {}),
      ...(io.progress
        ? { onProgress: (p) => io.progress!(`compared ${p.compared} · pages ${p.pages} · requests ${client.stats.requests} · retries ${client.stats.retries} · ${((Date.now() - started) / 1000).toFixed(1)} s`) }
        : {}),
    });
    if (baseline) applyBaseline(result.findings, baseline);
    const report = buildReport(
      result,
      { version: io.version, baseUrl, embeddedEmulator: !o.baseUrl, ...(o.scope ? { scope: o.scope } : {}), ...(shard ? { shard: { ...shard, run: { kinds: resources.map((r) => r.kind).join(','), baseline: o.baseline ? runRelative(process.cwd(), o.baseline) : 'none' } } } : {}), requests: client.stats.requests, retries: client.stats.retries, elapsedMs: Date.now() - started },
      resources.map((r) => r.kind),
    );
    const json = jsonReport(reports);
    // Scrubbing after the cut keeps the bound: a secret (4 characters or more) becomes ***, and the cut falls between whole rows.
    const markdown = (bound: number) => secrets.scrub(renderMarkdown(report, { maxChars: bound, ...(json ? { json } : {}) }));
    const written = writeReports(reports, { json: () => secrets.scrub(`${JSON.stringify(report, null, 2)}\n`), markdown: () => markdown(maxChars) });
    appendStepSummary(io.env, maxChars, markdown);
    const connectionTrouble = report.findings.some((f) => f.kind === 'incomplete' && !f.baseline);
    const exitCode = connectionTrouble ? 2 : report.totals.failing > 0 ? 1 : 0;
    const stdout = secrets.scrub(o.json ? `${JSON.stringify(report, null, 2)}\n` : annotate ? githubAnnotations(report) : renderTerminal(report));
    return { exitCode, stdout, report, written };
  } finally {
    await client.close();
    await emulator?.stop();
  }
}
