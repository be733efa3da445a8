/**
 * Emulator benchmark (issue: foundation): a cursor walk of 100,000 groups at page_size=200, and the
 * cost of one page at 1,000 vs 100,000 resources.
 */
import { Agent, request } from 'undici';
import { DEFAULT_API_TOKEN } from '../src/emulator/emulator.js';
import { fmt, peakRssMiB, percentile, startCliEmulator } from './support.js';

const PAGE_SIZE = 200;

interface WalkResult {
  pages: number;
  resources: number;
  seconds: number;
  latenciesMs: number[];
}

export async function walk(url: string, agent: Agent, path: string, key: string): Promise<WalkResult> {
  const latenciesMs: number[] = [];
  let token = '';
  let resources = 0;
  const started = performance.now();
  do {
    const t0 = performance.now();
    const res = await request(`${url}${path}?page_size=${PAGE_SIZE}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${DEFAULT_API_TOKEN}` },
    });
    const body = (await res.body.json()) as Record<string, unknown>;
    latenciesMs.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`page failed: ${res.statusCode} ${JSON.stringify(body)}`);
    resources += (body[key] as unknown[]).length;
    token = (body['nextPageToken'] as string) ?? '';
  } while (token);
  return { pages: latenciesMs.length, resources, seconds: (performance.now() - started) / 1000, latenciesMs };
}

export async function benchEmulator(): Promise<string> {
  const agent = new Agent({ connections: 1, pipelining: 1 });
  const large = await startCliEmulator(['--dataset', 'large:100000']);
  const small = await startCliEmulator(['--dataset', 'large:1000']);
  try {
    // Warm both (the first page of a query sorts it), then measure.
    await walk(large.url, agent, '/iam/v2beta1/groups', 'groups');
    const groups = await walk(large.url, agent, '/iam/v2beta1/groups', 'groups');
    const repos = await walk(large.url, agent, '/registry/v2beta1/repos', 'repos');
    const coldRepos = repos.latenciesMs[0]!;
    const smallLatencies: number[] = [];
    while (smallLatencies.length < 500) smallLatencies.push(...(await walk(small.url, agent, '/iam/v2beta1/groups', 'groups')).latenciesMs);
    const p50Small = percentile(smallLatencies, 50);
    const p50Large = percentile(groups.latenciesMs, 50);
    const rss = peakRssMiB(large.child.pid!);
    if (groups.resources !== 100_000) throw new Error(`walk found ${groups.resources} groups, not 100000`);
    return [
      '## Emulator',
      '',
      `Cursor walk of \`large:100000\` at page_size=${PAGE_SIZE}, one keep-alive connection, emulator in its own process.`,
      '',
      '| measure | value | target |',
      '|---|---|---|',
      `| walk of 100,000 groups | ${fmt(groups.seconds, 2)} s (${groups.pages} pages) | under 10 s |`,
      `| pages per second (groups walk) | ${fmt(groups.pages / groups.seconds, 0)} | |`,
      `| walk of 100,000 repos, first page cold (sorts the query) | ${fmt(repos.seconds, 2)} s; first page ${fmt(coldRepos, 1)} ms | |`,
      `| p50 page latency at 1,000 resources | ${fmt(p50Small, 2)} ms (${smallLatencies.length} pages) | |`,
      `| p50 page latency at 100,000 resources | ${fmt(p50Large, 2)} ms (${groups.pages} pages) | within 2x of 1,000 |`,
      `| ratio 100,000 / 1,000 | ${fmt(p50Large / p50Small, 2)}x | under 2x |`,
      `| p99 page latency at 100,000 | ${fmt(percentile(groups.latenciesMs, 99), 2)} ms | |`,
      `| emulator peak RSS with 100,000 groups + 100,000 repos | ${fmt(rss, 0)} MiB | |`,
      '',
    ].join('\n');
  } finally {
    await Promise.all([large.stop(), small.stop()]);
    await agent.close();
  }
}
