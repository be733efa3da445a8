/**
 * Emulator datasets: the deterministic demo organisation, generated large ones (`large:N`) and JSON
 * files. A dataset file lists records by v2 collection name in v2 field names (fields only v1 has,
 * such as a role's `capabilities`, under their v1 names), timestamps as RFC 3339 strings and
 * references as uids. `datasetJson()` writes a store in that form.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  formatTimestamp,
  IDENTIFIERS,
  modelledResources,
  parseTimestamp,
  resourceByCollection,
  resourceOf,
  type ResourceKind,
} from '../contract/index.js';
import { UsageError } from '../errors.js';
import { DEV_OIDC_ISSUER } from './oidc-issuer.js';
import { parentUid, storageKey, Store, type StoredRecord } from './store.js';
import { seededRandom } from './seeded-random.js';

type Fields = Record<string, unknown>;

/** 2025-03-01T09:00:00Z, in microseconds. */
const EPOCH_MICROS = Date.UTC(2025, 2, 1, 9) * 1000;

function hash(label: string): string {
  return createHash('sha1').update(label).digest('hex');
}

/** Builds a dataset with uids derived from labels, so every start gives the same uids. */
class DatasetBuilder {
  private tick = 0;
  constructor(readonly store: Store) {}

  root(label: string): string {
    return hash(label);
  }

  child(parent: string, label: string): string {
    return `${parent}/${hash(`${parent}:${label}`).slice(0, 16)}`;
  }

  /** Adds a record; timestamps advance by a little over a minute, with microseconds, per record. */
  add(kind: ResourceKind, uid: string, fields: Fields): string {
    this.tick += 1;
    const createTime = EPOCH_MICROS + this.tick * 61_123_457;
    this.store.put(kind, { uid, createTime, updateTime: createTime + 3_000_007, ...fields });
    return uid;
  }
}

const BUILT_IN_ROLES = [
  ['viewer', 'Read access to every resource of the organisation', ['read']],
  ['editor', 'Read and write access', ['read', 'write']],
  ['admin', 'Full access, including access control', ['read', 'write', 'admin']],
] as const;

/** The demo organisation: nested groups, people and workloads, roles and bindings, a registry, advisories. */
function buildDemo(b: DatasetBuilder): void {
  const org = b.add('Group', b.root('demo:org:acme'), { name: 'acme', description: 'Acme Corp', resourceLimits: { clusters: 10, idps: 2, repositories: 50 }, verified: true });
  const groups: Record<string, string> = { acme: org };
  for (const [name, parent, description] of [
    ['platform', 'acme', 'Platform engineering'],
    ['ci', 'platform', 'Build and release automation'],
    ['observability', 'platform', 'Metrics and logs'],
    ['data', 'acme', 'Data engineering'],
    ['analytics', 'data', 'Reporting and dashboards'],
    ['ml', 'data', ''],
    ['security', 'acme', 'Security team'],
    ['sandbox', 'acme', 'Playground with no members'],
  ] as const) {
    const limits = name === 'ci' ? { clusters: 2 } : {};
    groups[name] = b.add('Group', b.child(groups[parent]!, name), { name, description, resourceLimits: limits, verified: name !== 'sandbox' });
  }

  const roles: Record<string, string> = {};
  for (const [name, description, capabilities] of BUILT_IN_ROLES) {
    roles[name] = b.add('Role', b.root(`demo:role:${name}`), { name, description, capabilities: [...capabilities] });
  }
  roles['registry-pusher'] = b.add('Role', b.child(org, 'role:registry-pusher'), {
    name: 'registry-pusher',
    description: 'Push images to the registry',
    capabilities: ['registry.push', 'read'],
  });

  const identities: Record<string, string> = {};
  for (const [name, group, issuer, subject, description] of [
    ['alice', 'platform', 'https://login.acme.example', 'alice@acme.example', 'Platform lead'],
    ['bob', 'data', 'https://login.acme.example', 'bob@acme.example', 'Data engineer'],
    ['carol', 'security', 'https://login.acme.example', 'carol@acme.example', ''],
    ['ci-deployer', 'ci', DEV_OIDC_ISSUER, 'repo:acme/app:ref:refs/heads/main', 'Deploys from the main branch'],
    ['nightly-etl', 'analytics', DEV_OIDC_ISSUER, 'system:serviceaccount:etl:nightly', 'Nightly data load'],
    ['auditor', 'acme', DEV_OIDC_ISSUER, 'audit-bot', 'Read-only audit workload'],
  ] as const) {
    identities[name] = b.add('Identity', b.child(groups[group]!, `identity:${name}`), {
      name,
      description,
      claimMatch: { issuer, subject },
      lastSeenTime: EPOCH_MICROS + 86_400_000_000 + name.length * 1_000_001,
    });
  }

  for (const [group, identity, role] of [
    ['acme', 'alice', 'admin'],
    ['acme', 'auditor', 'viewer'],
    ['platform', 'alice', 'editor'],
    ['ci', 'ci-deployer', 'registry-pusher'],
    ['data', 'bob', 'editor'],
    ['analytics', 'nightly-etl', 'editor'],
    ['security', 'carol', 'admin'],
    ['acme', 'carol', 'viewer'],
  ] as const) {
    const g = groups[group]!;
    b.add('RoleBinding', b.child(g, `binding:${identity}:${role}`), { identity: identities[identity]!, role: roles[role]!, group: g });
  }

  const repos: Record<string, string> = {};
  for (const [name, group, description, aliases] of [
    ['app', 'ci', 'Customer-facing web app', ['web']],
    ['api', 'ci', 'Public API server', []],
    ['worker', 'ci', 'Background jobs', []],
    ['prometheus', 'observability', 'Metrics server fork', ['metrics']],
    ['etl', 'analytics', 'Data loaders', []],
    ['notebooks', 'ml', '', []],
    ['scanner', 'security', 'Image scanner', ['trivy']],
  ] as const) {
    repos[name] = b.add('Repo', b.child(groups[group]!, `repo:${name}`), { name, description, aliases: [...aliases] });
  }
  for (const [repo, tags] of Object.entries({
    app: ['v1.0.0', 'v1.1.0', 'v1.2.0', 'latest'],
    api: ['v3.4.1', 'latest'],
    worker: ['2025.03.01', 'latest'],
    prometheus: ['v2.53.0'],
    etl: ['nightly', 'v0.9.0'],
    scanner: ['0.50.1', 'latest'],
  })) {
    for (const name of tags) {
      const uid = b.child(repos[repo]!, `tag:${name}`);
      b.add('Tag', uid, { name, digest: `sha256:${hash(`digest:${uid}`)}${hash(`digest2:${uid}`).slice(0, 24)}`, deprecated: name === 'v1.0.0' });
    }
  }

  for (const [name, severity, summary] of [
    ['CVE-2024-3094', 'CRITICAL', 'Backdoor in xz/liblzma'],
    ['CVE-2023-44487', 'HIGH', 'HTTP/2 rapid reset'],
    ['CVE-2024-6387', 'HIGH', 'OpenSSH regreSSHion'],
    ['CVE-2023-4863', 'HIGH', 'Heap overflow in libwebp'],
    ['CVE-2024-24790', 'MEDIUM', 'Go net/netip mapped addresses'],
  ] as const) {
    b.add('Advisory', b.root(`demo:advisory:${name}`), { name, severity, summary });
  }
}

/**
 * Text made by joining rather than by a template literal: V8 keeps a template result of 13 characters
 * or more as a chain of its pieces (a cons string), and, once it is used as a key, the joined text
 * beside it. Over the 200,000 records of large:100000 that was 20 MB held, and 40 MB of the embedded
 * audit's peak.
 */
function flat(...pieces: (string | number)[]): string {
  return pieces.join('');
}

/** The empty limits and aliases of every generated record, one of each: records are never changed in place. */
const NO_LIMITS = Object.freeze({});
const NO_ALIASES = Object.freeze([]);

/** `large:N`: an organisation of N groups (two levels under the root) and N repos. */
function buildLarge(b: DatasetBuilder, n: number): void {
  const org = b.add('Group', b.root('large:org'), { name: 'large-org', description: '', resourceLimits: {}, verified: true });
  const groups = [org];
  const fanOut = Math.max(1, Math.ceil(Math.sqrt(n)));
  for (let i = 1; i < n; i++) {
    const parent = i <= fanOut ? org : groups[1 + ((i - fanOut - 1) % fanOut)]!;
    const uid = flat(parent, '/', i.toString(16).padStart(16, '0'));
    groups.push(b.add('Group', uid, { name: flat('group-', String(i).padStart(7, '0')), description: flat('generated group ', i), resourceLimits: NO_LIMITS, verified: i % 3 !== 0 }));
  }
  for (let i = 0; i < n; i++) {
    const parent = groups[i % groups.length]!;
    b.add('Repo', flat(parent, '/', (0x8000000000000000n + BigInt(i)).toString(16)), { name: flat('repo-', String(i).padStart(7, '0')), description: '', aliases: NO_ALIASES });
  }
  for (const [name, description, capabilities] of BUILT_IN_ROLES) b.add('Role', b.root(`large:role:${name}`), { name, description, capabilities: [...capabilities] });
}

/** Reads a dataset file (the format above) into the store, checking every record. */
function loadFile(b: DatasetBuilder, path: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--dataset ${path}: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--dataset ${path}: must be a JSON object keyed by collection`);
  const uidPattern = new RegExp(IDENTIFIERS.uidPattern);
  const pending: [ResourceKind, StoredRecord][] = [];
  for (const [collection, items] of Object.entries(parsed)) {
    const resource = resourceByCollection(collection);
    if (!resource?.modelled || resource.v2.collection !== collection) {
      throw new UsageError(`--dataset ${path}: unknown collection "${collection}" (known: ${modelledResources().map((r) => r.v2.collection).join(', ')})`);
    }
    if (!Array.isArray(items)) throw new UsageError(`--dataset ${path}: "${collection}" must be an array`);
    for (const [i, item] of items.entries()) {
      const where = `--dataset ${path}: ${collection}[${i}]`;
      const record = item as Fields;
      if (typeof record['uid'] !== 'string' || !uidPattern.test(record['uid'])) throw new UsageError(`${where}: uid must match ${IDENTIFIERS.uidPattern}`);
      const stored: StoredRecord = { uid: record['uid'], createTime: EPOCH_MICROS, updateTime: EPOCH_MICROS };
      const keys = new Set(resource.fields.map(storageKey));
      for (const [key, value] of Object.entries(record)) {
        if (!keys.has(key) && key !== 'createTime' && key !== 'updateTime') throw new UsageError(`${where}: unknown field "${key}"`);
        const field = resource.fields.find((f) => storageKey(f) === key);
        if (field?.type === 'timestamp' || key === 'createTime' || key === 'updateTime') {
          const micros = typeof value === 'string' ? parseTimestamp(value) : undefined;
          if (micros === undefined) throw new UsageError(`${where}: ${key} must be an RFC 3339 timestamp`);
          stored[key] = micros;
        } else if (key !== 'uid') stored[key] = value;
      }
      if (resource.kind === 'RoleBinding') stored['group'] = parentUid(stored.uid);
      pending.push([resource.kind, stored]);
    }
  }
  for (const [kind, record] of pending) b.store.put(kind, record);
  for (const [kind, record] of pending) {
    const resource = resourceOf(kind);
    const parent = parentUid(record.uid);
    if (parent && resource.parent && !b.store.get(resource.parent, parent)) {
      throw new UsageError(`--dataset ${path}: ${resource.singular} ${record.uid} has no parent ${resourceOf(resource.parent).singular} ${parent}`);
    }
  }
}

export function loadDataset(name: string, seed = 1): Store {
  const store = new Store(seededRandom(seed));
  const builder = new DatasetBuilder(store);
  if (name === 'demo') buildDemo(builder);
  else if (name.startsWith('large:')) {
    const n = /^large:\d+$/.test(name) ? Number(name.slice('large:'.length)) : NaN;
    if (!(n >= 1 && n <= 2_000_000)) throw new UsageError(`--dataset ${name}: N must be a whole number from 1 to 2000000`);
    buildLarge(builder, n);
  } else loadFile(builder, name);
  return store;
}

/** A store in the dataset file format, as a starting point for a dataset of one's own. */
export function datasetJson(store: Store): string {
  const out: Record<string, Fields[]> = {};
  for (const resource of modelledResources()) {
    const records = store.all(resource.kind);
    if (records.length === 0) continue;
    out[resource.v2.collection] = records.map((r) => {
      const fields: Fields = {};
      for (const [key, value] of Object.entries(r)) {
        if (key === 'group' && resource.kind === 'RoleBinding') continue;
        const isTime = key === 'createTime' || key === 'updateTime' || resource.fields.some((f) => f.type === 'timestamp' && storageKey(f) === key);
        fields[key] = isTime && typeof value === 'number' ? formatTimestamp(value, 'v1') : value;
      }
      return fields;
    });
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}
