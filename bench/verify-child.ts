/**
 * One measured run in its own process, so its peak RSS is its own: `audit` (migrate-v2 verify's
 * audit) or `bare` (the same endpoints walked with undici at the same concurrency, nothing compared).
 * Prints one JSON line.
 */
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { resourceOf } from '../src/contract/index.js';
import { verifyCommand } from '../src/commands/verify.js';
import { DEFAULT_API_TOKEN } from '../src/emulator/emulator.js';

const [mode, baseUrl, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText ?? 8);
const KINDS = ['Group', 'Repo'] as const;

async function bare(): Promise<{ resources: number; requests: number }> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const limit = pLimit(concurrency);
  let requests = 0;
  const get = (path: string) =>
    limit(async () => {
      requests += 1;
      const res = await request(`${baseUrl}${path}`, { dispatcher: agent, headers: { authorization: `Bearer ${DEFAULT_API_TOKEN}` } });
      return (await res.body.json()) as Record<string, unknown>;
    });
  let resources = 0;
  await Promise.all(
    KINDS.flatMap((kind) => {
      const r = resourceOf(kind);
      const v1 = get(r.v1.endpoints.list!.path).then((b) => (resources += (b['items'] as unknown[]).length));
      const v2 = (async () => {
        let token = '';
        do {
          const b = await get(`${r.v2.endpoints.list!.path}?page_size=200&order_by=created_at${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
          resources += (b[r.v2.endpoints.list!.envelopeKey] as unknown[]).length;
          token = String(b['nextPageToken'] ?? '');
        } while (token);
      })();
      return [v1, v2];
    }),
  );
  await agent.close();
  return { resources, requests };
}

async function audit(): Promise<{ resources: number; requests: number; verdict: string }> {
  const outcome = await verifyCommand(
    { baseUrl, token: DEFAULT_API_TOKEN, kinds: 'groups,repos', concurrency: String(concurrency), pageSize: '200', maxPages: '100000', timeout: '60000', retries: '6', emulatorDataset: 'demo' },
    { version: 'bench', env: {} },
  );
  const compared = outcome.report.summary.reduce((n, s) => n + s.compared, 0);
  return { resources: compared * 2, requests: outcome.report.stats.requests, verdict: outcome.report.verdict };
}

const started = performance.now();
const result = mode === 'bare' ? await bare() : await audit();
const seconds = (performance.now() - started) / 1000;
const usage = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ mode, seconds, ...result, maxRssMiB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
