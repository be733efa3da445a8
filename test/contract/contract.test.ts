import { describe, expect, it } from 'vitest';
import {
  allEndpoints,
  allRules,
  assumptions,
  comparableTimestamp,
  fieldNames,
  fieldRenames,
  formatTimestamp,
  matchTemplate,
  modelledResources,
  mutableFields,
  parseTimestamp,
  RESOURCES,
  resourceOf,
  resourceOfPath,
  v1PathToV2,
  writableFields,
} from '../../src/contract/index.js';

describe('the migration contract', () => {
  it('describes every resource of the spec, modelled or by path', () => {
    expect(RESOURCES.map((r) => r.kind).sort()).toEqual(
      ['AccountAssociation', 'Advisory', 'Group', 'GroupInvite', 'Identity', 'IdentityProvider', 'Repo', 'Role', 'RoleBinding', 'Tag'],
    );
    expect(modelledResources().map((r) => r.kind)).toEqual(['Group', 'Identity', 'Role', 'RoleBinding', 'Repo', 'Tag', 'Advisory']);
  });

  it('marks every rule documented or assumed, with a source', () => {
    const rules = allRules();
    expect(rules.length).toBeGreaterThan(80);
    for (const rule of rules) {
      expect(['documented', 'assumed']).toContain(rule.status);
      expect(rule.source.length, rule.where).toBeGreaterThan(5);
    }
    const assumed = assumptions().map((a) => a.where);
    expect(assumed).toContain('LIST_CONTRACT.oversizedPageSize');
    expect(assumed).toContain('TIMESTAMPS.v1');
    expect(assumed).toContain('Tag.fields[updateTime]');
    // A documented rule is never silently downgraded: the spec's §9 renames stay documented.
    expect(rules.find((r) => r.where === 'Group.fields[uid]')?.status).toBe('documented');
  });

  it('renames id, createdAt, updatedAt and lastSeen, and only where the resource has them', () => {
    expect([...fieldRenames(resourceOf('Identity'))]).toEqual([
      ['id', 'uid'],
      ['lastSeen', 'lastSeenTime'],
      ['createdAt', 'createTime'],
      ['updatedAt', 'updateTime'],
    ]);
    // v1 repos already say createTime; v1 groups have no timestamps at all.
    expect([...fieldRenames(resourceOf('Repo'))]).toEqual([['id', 'uid']]);
    expect(fieldNames(resourceOf('Group'), 'v1')).not.toContain('createdAt');
    expect(fieldNames(resourceOf('Group'), 'v2')).toContain('createTime');
  });

  it('gives each version its own list envelope key and collection spelling', () => {
    for (const r of modelledResources()) {
      expect(r.v1.endpoints.list?.envelopeKey).toBe('items');
      expect(r.v2.endpoints.list?.envelopeKey).toBe(r.v2.collection);
      expect(r.v2.endpoints.list?.paginated).toBe(true);
    }
    expect(resourceOf('RoleBinding').v1.collection).toBe('rolebindings');
    expect(resourceOf('RoleBinding').v2.collection).toBe('roleBindings');
    expect(resourceOf('Advisory').v1.endpoints.list?.paginated).toBe(true);
  });

  it('reads one record by list-with-id in v1 and by Get in v2', () => {
    for (const r of modelledResources()) {
      expect(r.v1.readOne).toMatchObject({ how: 'list-by-id', filter: 'id' });
      expect(r.v2.readOne?.how).toBe('get');
      expect(r.v1.endpoints.get).toBeUndefined();
    }
  });

  it('turns v1 full replace into v2 partial update, and knows where v2 has no update', () => {
    expect(resourceOf('Group').v1.endpoints.update).toMatchObject({ method: 'PUT', semantics: 'replace' });
    expect(resourceOf('Group').v2.endpoints.update).toMatchObject({ method: 'PATCH', semantics: 'partial' });
    expect(resourceOf('Tag').v2.endpoints.update).toBeUndefined();
    expect(resourceOf('Repo').v2.endpoints.create).toBeUndefined();
    expect(mutableFields(resourceOf('Group'), 'v2')).toEqual(['name', 'description', 'resourceLimits']);
  });

  it('hydrates role binding references from fields the targets have', () => {
    const binding = resourceOf('RoleBinding');
    for (const field of binding.fields.filter((f) => f.type === 'reference')) {
      const target = resourceOf(field.reference!.target);
      for (const { from } of field.reference!.hydratedFields) {
        expect(fieldNames(target, 'v2'), `${field.v2}.${from}`).toContain(from.split('.')[0]);
      }
    }
    expect(writableFields(binding, 'v1')).toEqual(['identity', 'role']);
    expect(writableFields(binding, 'v2')).toEqual(['identityUid', 'roleUid']);
  });

  it('has path templates with at most one variable, at the end', () => {
    for (const { endpoint } of allEndpoints()) {
      const vars = endpoint.path.match(/\{[^}]+\}/g) ?? [];
      expect(vars.length).toBeLessThanOrEqual(1);
      if (vars.length === 1) expect(endpoint.path.endsWith(vars[0]!)).toBe(true);
    }
    expect(matchTemplate('/iam/v1/groups/{id}', '/iam/v1/groups/abc/def')).toEqual({ variable: { name: 'id', value: 'abc/def' } });
    expect(matchTemplate('/iam/v1/groups/{id}', '/iam/v1/groups/')).toBeNull();
    expect(matchTemplate('/iam/v1/groups', '/iam/v1/groups')).toEqual({});
  });

  it('rewrites v1 paths to v2 with the new collection spellings', () => {
    expect(v1PathToV2('/iam/v1/groups')).toBe('/iam/v2beta1/groups');
    expect(v1PathToV2('/iam/v1/rolebindings/abc')).toBe('/iam/v2beta1/roleBindings/abc');
    expect(v1PathToV2('/iam/v1/identityproviders?id=x')).toBe('/iam/v2beta1/identityProviders?id=x');
    expect(v1PathToV2('/registry/v1/')).toBe('/registry/v2beta1/');
    expect(v1PathToV2('/vulnerabilities/v1/advisories')).toBe('/vulnerabilities/v2beta1/advisories');
    expect(v1PathToV2('/iam/v2beta1/groups')).toBeNull();
    expect(v1PathToV2('/api/v1/users')).toBeNull();
    expect(resourceOfPath('/iam/v2beta1/roleBindings/x', 'v2')?.kind).toBe('RoleBinding');
  });

  it('formats timestamps at each version’s precision and compares at the shared one', () => {
    const micros = Date.UTC(2025, 2, 1, 9, 0, 0, 123) * 1000 + 456;
    expect(formatTimestamp(micros, 'v1')).toBe('2025-03-01T09:00:00.123456Z');
    expect(formatTimestamp(micros, 'v2')).toBe('2025-03-01T09:00:00.123Z');
    expect(parseTimestamp('2025-03-01T09:00:00.123456Z')).toBe(micros);
    expect(parseTimestamp('2025-03-01T10:00:00.123456789+01:00')).toBe(micros);
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(comparableTimestamp('2025-03-01T09:00:00.123456Z')).toBe(comparableTimestamp('2025-03-01T09:00:00.123Z'));
    expect(comparableTimestamp('2025-03-01T09:00:00.124Z')).not.toBe(comparableTimestamp('2025-03-01T09:00:00.123Z'));
  });
});

describe('rejecting assumed rules for a codemod run', () => {
  it('takes each rejectable rule out, and puts every one back', async () => {
    const { rejectAssumptions, rejectableAssumptions, resourceOf, fieldsGoneInV2, clientFieldRenames } = await import('../../src/contract/index.js');
    const before = JSON.stringify(resourceOf('Role').v2.endpoints) + JSON.stringify(resourceOf('Repo').fields);
    const undo = rejectAssumptions(rejectableAssumptions());
    expect(resourceOf('Role').v2.endpoints.create).toBeUndefined();
    expect(fieldsGoneInV2(resourceOf('Repo')).has('aliases')).toBe(true);
    expect(clientFieldRenames(resourceOf('Group')).has('lastSeen')).toBe(false);
    expect(clientFieldRenames(resourceOf('Identity')).get('lastSeen')).toBe('lastSeenTime');
    undo();
    expect(JSON.stringify(resourceOf('Role').v2.endpoints) + JSON.stringify(resourceOf('Repo').fields)).toBe(before);
    expect(clientFieldRenames(resourceOf('Group')).get('lastSeen')).toBe('lastSeenTime');
  });
});
