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
