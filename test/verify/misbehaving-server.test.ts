/**
 * The audit against servers that misbehave in ways the emulator does not: a v2 page answered 200 but
 * malformed. Real HTTP, a scripted server on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { verifyCommand, type VerifyCommandOptions } from '../../src/commands/verify.js';
import { pathOf, sendJson, useScriptedServer } from '../helpers/scripted-server.js';

const defaults: VerifyCommandOptions = { concurrency: '4', pageSize: '200', maxPages: '100', timeout: '10000', retries: '0', emulatorDataset: 'demo', token: 'scripted-token' };

describe('a v2 list page answered 200 but malformed', () => {
  it.each([[{}], [[]], [{ groups: null }], [{ groups: [1, 2] }], [{ groups: [[]] }], ['text']])('makes the kind incomplete (exit 2), saying what came back: %j', async (page) => {
    const url = await useScriptedServer((req, res) => sendJson(res, pathOf(req) === '/iam/v1/groups' ? { items: [] } : page));
    const { exitCode, report } = await verifyCommand({ ...defaults, baseUrl: url, kinds: 'groups' }, { version: 'test', env: {} });
    expect(report.verdict).toBe('incomplete');
    expect(report.summary[0]).toMatchObject({ kind: 'Group', incomplete: true });
    const incomplete = report.findings.find((f) => f.kind === 'incomplete');
    expect(incomplete?.message).toContain(`v2 /iam/v2beta1/groups answered 200 without a list of records under "groups" (got ${JSON.stringify(page)})`);
    expect(exitCode).toBe(2);
  });
});

describe('uids across v2 pages', () => {
  const v1Group = (id: string) => ({ id, name: id, description: '', resourceLimits: {}, verified: true, createdAt: '2025-01-01T00:00:00.000000Z', updatedAt: '2025-01-01T00:00:00.000000Z' });
  const v2Group = (uid: string) => ({ uid, name: uid, description: '', resourceLimits: {}, verified: true, createTime: '2025-01-01T00:00:00.000Z', updateTime: '2025-01-01T00:00:00.000Z' });
  /** v1 answers `v1` (a status when a number); v2 serves `pages` in turn, page tokens p1, p2, ... */
  const serving = (v1: string[] | number, pages: string[][], totalCount: number) =>
    useScriptedServer((req, res) => {
      if (pathOf(req) === '/iam/v1/groups') return typeof v1 === 'number' ? sendJson(res, { message: 'down' }, v1) : sendJson(res, { items: v1.map(v1Group) });
      const at = Number((new URLSearchParams(req.url!.split('?')[1]).get('page_token') ?? 'p0').slice(1));
      sendJson(res, { groups: pages[at]!.map(v2Group), nextPageToken: at + 1 < pages.length ? `p${at + 1}` : '', totalCount: String(totalCount) });
    });
  const audit = async (url: string) => (await verifyCommand({ ...defaults, baseUrl: url, kinds: 'groups' }, { version: 'test', env: {} })).report;
  const breaches = (report: Awaited<ReturnType<typeof audit>>) => report.findings.filter((f) => f.kind === 'contract-breach').map((f) => [f.breach, f.count ?? 1]);

  it('finds a uid that comes back on a later page, compares it once, and counts distinct uids against totalCount', async () => {
    const report = await audit(await serving(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['c']], 3));
    expect(breaches(report)).toEqual([['duplicate-uid', 2]]);
    expect(report.summary[0]).toMatchObject({ compared: 3, equal: 3, missingInV1: 0, missingInV2: 0, incomplete: false });
  });

  it('counts a uid v1 does not list once, however often v2 shows it, and reports a totalCount that is not the number of distinct uids', async () => {
    const report = await audit(await serving(['a'], [['a', 'x'], ['x']], 3));
    expect(breaches(report)).toEqual([['total-count-mismatch', 1], ['duplicate-uid', 1]]);
    expect(report.findings.find((f) => f.breach === 'total-count-mismatch')?.message).toBe('totalCount says 3, the walk found 2');
    expect(report.summary[0]).toMatchObject({ compared: 1, missingInV1: 1 });
  });

  it('still reads the pages for their uids when v1 fails: the kind is incomplete and the duplicate reported', async () => {
    const report = await audit(await serving(500, [['z', 'a'], ['a']], 2));
    expect(report.summary[0]).toMatchObject({ incomplete: true, compared: 0 });
    expect(breaches(report)).toEqual([['duplicate-uid', 1]]);
  });
});
