/**
 * The embedded audit collects garbage after each large v1 list (its emulator shares the heap); an
 * audit of a server, where the time is the audit's own, does not.
 */
import { describe, expect, it, vi } from 'vitest';

const collections = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/verify/full-collection.js', () => ({ fullCollection: () => () => void (collections.count += 1) }));

const { verifyCommand } = await import('../../src/commands/verify.js');
const { DEFAULT_API_TOKEN } = await import('../../src/emulator/emulator.js');
const { LARGE_V1_LIST } = await import('../../src/verify/audit.js');
const { useEmulator } = await import('../helpers/emulator.js');

const options = { concurrency: '8', pageSize: '200', maxPages: '1000', timeout: '20000', retries: '2', emulatorDataset: `large:${LARGE_V1_LIST}` };

describe('garbage collected after a large v1 list', () => {
  it('once per kind whose v1 list is large, in the embedded audit', async () => {
    collections.count = 0;
    const { report } = await verifyCommand(options, { version: 'test', env: {} });
    expect(report.verdict).toBe('parity');
    // large:N holds N groups (and their root) and N repos; roles, identities and the rest are few.
    const large = report.summary.filter((s) => s.compared >= LARGE_V1_LIST).map((s) => s.kind);
    expect(large.sort()).toEqual(['Group', 'Repo']);
    expect(collections.count).toBe(2);
  });

  it('never in an audit of a server', async () => {
    const e = await useEmulator({ dataset: `large:${LARGE_V1_LIST}` });
    collections.count = 0;
    const { report } = await verifyCommand({ ...options, baseUrl: e.url, token: DEFAULT_API_TOKEN }, { version: 'test', env: {} });
    expect(report.verdict).toBe('parity');
    expect(collections.count).toBe(0);
  });
});
