import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDENTIFIERS, modelledResources } from '../../src/contract/index.js';
import { datasetJson, loadDataset } from '../../src/emulator/datasets.js';

const tmp = mkdtempSync(join(tmpdir(), 'mv2-datasets-'));

describe('datasets', () => {
  it('builds the same demo organisation at every start, with valid uids and every kind', () => {
    const a = loadDataset('demo');
    expect(loadDataset('demo').snapshot()).toBe(a.snapshot());
    const uid = new RegExp(IDENTIFIERS.uidPattern);
    for (const r of modelledResources()) {
      expect(a.count(r.kind), r.kind).toBeGreaterThan(0);
      for (const rec of a.all(r.kind)) expect(rec.uid).toMatch(uid);
    }
    expect(a.all('Role').some((r) => r['name'] === 'viewer' && !r.uid.includes('/'))).toBe(true);
    // Nested groups: at least three levels.
    expect(Math.max(...a.all('Group').map((g) => g.uid.split('/').length))).toBeGreaterThanOrEqual(3);
  });

  it('generates large:N with N groups and N repos', () => {
    const s = loadDataset('large:1000');
    expect(s.count('Group')).toBe(1000);
    expect(s.count('Repo')).toBe(1000);
    const groups = new Set(s.all('Group').map((g) => g.uid));
    for (const repo of s.all('Repo')) expect(groups.has(repo.uid.slice(0, repo.uid.lastIndexOf('/')))).toBe(true);
  });

  it('round-trips through the file format', () => {
    const file = join(tmp, 'demo.json');
    writeFileSync(file, datasetJson(loadDataset('demo')));
    expect(loadDataset(file).snapshot()).toBe(loadDataset('demo').snapshot());
  });

  it('refuses broken files with a message that names the place', () => {
    const cases: [unknown, RegExp][] = [
      [{ widgets: [] }, /unknown collection "widgets"/],
      [{ groups: [{ uid: 'NOPE' }] }, /groups\[0\]: uid must match/],
      [{ groups: [{ uid: 'a'.repeat(40), colour: 'red' }] }, /unknown field "colour"/],
      [{ groups: [{ uid: 'a'.repeat(40), createTime: 'yesterday' }] }, /createTime must be an RFC 3339 timestamp/],
      [{ groups: [{ uid: `${'a'.repeat(40)}/${'b'.repeat(16)}`, name: 'orphan' }] }, /has no parent group/],
    ];
    for (const [content, message] of cases) {
      const file = join(tmp, 'bad.json');
      writeFileSync(file, JSON.stringify(content));
      expect(() => loadDataset(file)).toThrow(message);
    }
    expect(() => loadDataset(join(tmp, 'missing.json'))).toThrow(/ENOENT/);
    writeFileSync(join(tmp, 'torn.json'), '{"groups": [');
    expect(() => loadDataset(join(tmp, 'torn.json'))).toThrow(/--dataset/);
    expect(() => loadDataset('large:0')).toThrow(/N must be/);
  });
});
