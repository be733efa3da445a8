/**
 * A generated TypeScript monorepo in the styles teams write v1 clients in, with its ground truth
 * recorded while generating (never recomputed from the output): how many API field reads each file
 * holds, which must be renamed, and which files are not API code and must stay byte-identical.
 *
 * Styles: fetch with casts and declared return types, axios instances with a type argument and a
 * v1 `baseURL`, undici `request`, a got instance with a v1 `prefixUrl`, ky with `.json<T>()`, an endpoint table, a path constant shared by a list (migrates) and
 * a delete v2beta1 does not offer (stays on v1), `const url` holding a resource's id, resource types
 * declared in a shared package with members v1 never served, read across packages through
 * parameters, callbacks and destructuring. Non-API code uses `.id`, `.items` and `createdAt` on its
 * own objects, including its own `Group`, and a `Page<T>` it shares with a v1 list.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/emulator/seeded-random.js';

/** What must hold in a file after the migration: occurrences of each pattern. */
export interface FileTruth {
  api: boolean;
  counts: Record<string, number>;
}

export interface Monorepo {
  root: string;
  truth: Map<string, FileTruth>;
  /** Non-API files and their text, which must not change. */
  untouched: Map<string, string>;
}

/** The patterns counted after the migration: API reads renamed, and non-API reads that must stay. */
export const PATTERNS: Record<string, RegExp> = {
  '.uid': /\.uid\b/g,
  '.createTime': /\.createTime\b/g,
  '.updateTime': /\.updateTime\b/g,
  '.id': /\.id\b/g,
  '.createdAt': /\.createdAt\b/g,
  'uid: string': /\buid\??: string/g,
  'id: string|number': /\bid\??: (string|number)/g,
};

const TYPES = `// Resource types of the platform, as the team wrote them: with members v1 never served.
export interface Group {
  id: string;
  name: string;
  description: string;
  createdAt?: string;
  selected?: boolean;
}

export interface Identity {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  lastSeenAt?: string;
}

export interface Repo {
  id: string;
  name: string;
  createTime: string;
}

export interface ListResponse<T> {
  items: T[];
}

/** One page of anything: the database layer uses it too. */
export interface Page<T> {
  items: T[];
}
`;

/** Node's process, and the little of got's and ky's types the clients use (their packages are not installed here). */
const GLOBALS = `declare const process: { env: Record<string, string | undefined> };

declare module 'got' {
  interface Request { json<T>(): Promise<T> }
  interface Got { (url: string, options?: object): Request; get(url: string, options?: object): Request; extend(options: { prefixUrl?: string }): Got }
  const got: Got;
  export default got;
}

declare module 'ky' {
  interface Request { json<T>(): Promise<T> }
  interface Ky { (url: string, options?: object): Request; get(url: string, options?: object): Request; create(options: { prefixUrl?: string }): Ky }
  const ky: Ky;
  export default ky;
}
`;

function count(text: string): Record<string, number> {
  return Object.fromEntries(Object.entries(PATTERNS).map(([name, re]) => [name, text.match(re)?.length ?? 0]));
}

/** An API client file of one of five styles; `expected` holds the counts its migrated text must show. */
function apiFile(i: number, style: number): { text: string; expected: Record<string, number> } {
  const n = String(i);
  const lines: string[] = [];
  // Each style: its v1 text, and how many reads of each field it makes on API values.
  if (style === 0) {
    lines.push(
      "import type { Group, ListResponse } from '../../types/src/resources.js';",
      '',
      "const BASE = process.env['PLATFORM_URL'] ?? 'https://platform.example.com';",
      '',
      `export async function listGroups${n}(): Promise<Group[]> {`,
      '  const res = await fetch(`${BASE}/iam/v1/groups`);',
      '  const body = (await res.json()) as ListResponse<Group>;',
      '  return body.items;',
      '}',
      '',
      `export async function describeGroup${n}(group: Group, description: string): Promise<Group> {`,
      "  const res = await fetch(`${BASE}/iam/v1/groups/${group.id}`, { method: 'PUT', body: JSON.stringify({ ...group, description }) });",
      '  return (await res.json()) as Group;',
      '}',
      '',
      `export function labels${n}(groups: Group[]): string[] {`,
      '  return groups.filter((g) => !g.selected).map((g) => `${g.name} (${g.id}, ${g.createdAt ?? "?"})`);',
      '}',
    );
    return { text: lines.join('\n') + '\n', expected: { '.uid': 2, '.createTime': 1, '.id': 0, '.createdAt': 0 } };
  }
  if (style === 1) {
    lines.push(
      "import axios from 'axios';",
      "import type { Identity, ListResponse } from '../../types/src/resources.js';",
      '',
      "const iam = axios.create({ baseURL: 'https://platform.example.com/iam/v1' });",
      '',
      `export async function identities${n}(): Promise<Identity[]> {`,
      "  const { data } = await iam.get<ListResponse<Identity>>('/identities');",
      '  return data.items;',
      '}',
      '',
      `export function newest${n}(people: Identity[]): string | undefined {`,
      '  const sorted = [...people].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));',
      '  const first = sorted.find((p) => p.createdAt !== "");',
      '  if (!first) return undefined;',
      '  const { id, createdAt } = first;',
      '  return `${id} ${createdAt} ${first.id}`;',
      '}',
    );
    return { text: lines.join('\n') + '\n', expected: { '.uid': 1, '.createTime': 1, '.updateTime': 2, '.id': 0, '.createdAt': 0 } };
  }
  if (style === 2) {
    lines.push(
      "import { request } from 'undici';",
      "import type { Repo } from '../../types/src/resources.js';",
      '',
      "const REGISTRY = 'https://platform.example.com/registry/v1/repos';",
      '',
      `export async function repos${n}(): Promise<Repo[]> {`,
      '  const res = await request(REGISTRY);',
      '  const body = (await res.body.json()) as { items: Repo[] };',
      '  return body.items;',
      '}',
      '',
      `export async function dropRepo${n}(repo: Repo): Promise<void> {`,
      "  await request(`${REGISTRY}/${repo.id}`, { method: 'DELETE' });",
      '}',
      '',
      `export function repoIds${n}(list: Repo[]): string {`,
      '  return list.map((r) => r.id).join(",");',
      '}',
    );
    // The delete stays on v1 (v2beta1 offers none) and keeps a v1 copy of REGISTRY; the repo it
    // is given came from the v2 list, so its uid (the same string as v1's id) fills the path.
    return { text: lines.join('\n') + '\n', expected: { '.uid': 2, '.id': 0 } };
  }
  if (style === 3) {
    lines.push(
      "import type { Group, ListResponse } from '../../types/src/resources.js';",
      '',
      'const ENDPOINTS = {',
      "  groups: '/iam/v1/groups',",
      "  roles: '/iam/v1/roles',",
      '} as const;',
      '',
      `export async function groupsUnder${n}(base: string, parent: Group): Promise<Group[]> {`,
      '  const res = await fetch(base + ENDPOINTS.groups);',
      '  const body: ListResponse<Group> = await res.json();',
      '  return body.items.filter((g) => g.id.startsWith(`${parent.id}/`));',
      '}',
      '',
      `export async function removeGroup${n}(base: string, group: Group): Promise<void> {`,
      '  const url = `${base}/iam/v1/groups/${group.id}`;',
      "  await fetch(url, { method: 'DELETE' });",
      '}',
    );
    return { text: lines.join('\n') + '\n', expected: { '.uid': 3, '.id': 0 } };
  }
  if (style === 5) {
    lines.push(
      "import got from 'got';",
      "import type { Group } from '../../types/src/resources.js';",
      '',
      "const platform = got.extend({ prefixUrl: 'https://platform.example.com/iam/v1' });",
      '',
      `export async function groupNames${n}(): Promise<string[]> {`,
      "  const body = await platform.get('groups').json<{ items: Group[] }>();",
      '  return body.items.map((g) => `${g.name}:${g.id}`);',
      '}',
    );
    return { text: lines.join('\n') + '\n', expected: { '.uid': 1, '.id': 0 } };
  }
  if (style === 6) {
    lines.push(
      "import ky from 'ky';",
      "import type { Identity } from '../../types/src/resources.js';",
      '',
      `export async function identityIds${n}(): Promise<string[]> {`,
      "  const page = await ky.get('https://platform.example.com/iam/v1/identities').json<{ items: Identity[] }>();",
      '  return page.items.map((p) => `${p.id} ${p.updatedAt}`);',
      '}',
    );
    return { text: lines.join('\n') + '\n', expected: { '.uid': 1, '.updateTime': 1, '.id': 0 } };
  }
  // style 4: a list read through the Page type the database layer shares: the v2 list gets its own type.
  lines.push(
    "import type { Page, Repo } from '../../types/src/resources.js';",
    '',
    `export async function repoPage${n}(base: string): Promise<Page<Repo>> {`,
    '  const res = await fetch(`${base}/registry/v1/repos`);',
    '  return (await res.json()) as Page<Repo>;',
    '}',
    '',
    `export async function firstRepo${n}(base: string): Promise<string | undefined> {`,
    `  const page = await repoPage${n}(base);`,
    '  return page.items[0]?.id;',
    '}',
  );
  return { text: lines.join('\n') + '\n', expected: { '.uid': 1, '.id': 0 } };
}

/** A file of another package that reads what an API file returns, across packages. */
function consumerFile(i: number, style: number): { text: string; expected: Record<string, number> } | undefined {
  const n = String(i);
  if (style === 0) {
    return {
      text: [
        `import { listGroups${n} } from '../../api-${i % 10}/src/client-${n}.js';`,
        '',
        `export async function report${n}(): Promise<string[]> {`,
        `  const groups = await listGroups${n}();`,
        '  const order = { id: 7, createdAt: "today" };',
        '  return groups.map((g) => `${g.id} ${g.name} ${order.id} ${order.createdAt}`);',
        '}',
        '',
      ].join('\n'),
      expected: { '.uid': 1, '.id': 1, '.createdAt': 1 },
    };
  }
  if (style === 1) {
    return {
      text: [
        "import type { Identity } from '../../types/src/resources.js';",
        `import { identities${n} } from '../../api-${i % 10}/src/client-${n}.js';`,
        '',
        `export async function seen${n}(): Promise<number> {`,
        `  const people: Identity[] = await identities${n}();`,
        '  return people.reduce((total, p) => total + (p.lastSeenAt ? 1 : 0) + p.id.length, 0);',
        '}',
        '',
      ].join('\n'),
      expected: { '.uid': 1, '.id': 0 },
    };
  }
  return undefined;
}

/** Code that is not about the platform: its own ids, items, timestamps and a Group of its own. */
function localFile(i: number, rand: () => number): string {
  const n = String(i);
  const kind = Math.floor(rand() * 3);
  if (kind === 0) {
    return [
      `// Orders of shop ${n}: nothing here talks to the platform.`,
      `export interface Order${n} { id: string; createdAt: string; updatedAt: string; items: { id: string; qty: number }[] }`,
      '',
      `export function total${n}(order: Order${n}): number {`,
      '  const ids = order.items.map((item) => item.id);',
      '  const created = new Date(order.createdAt).getTime() - new Date(order.updatedAt).getTime();',
      '  return ids.length + created + order.items.reduce((sum, item) => sum + item.qty, 0) + order.id.length;',
      '}',
      '',
    ].join('\n');
  }
  if (kind === 1) {
    return [
      `// A meetup's own groups, named Group like the platform's: not API resources.`,
      'interface Group {',
      '  id: number;',
      '  createdAt: Date;',
      '  members: string[];',
      '}',
      '',
      `export function largest${n}(groups: Group[]): number | undefined {`,
      '  const { id } = [...groups].sort((a, b) => b.members.length - a.members.length)[0] ?? { id: undefined };',
      '  return groups.find((g) => g.createdAt.getTime() > 0)?.id ?? id;',
      '}',
      '',
    ].join('\n');
  }
  return [
    "import type { Page } from '../../types/src/resources.js';",
    '',
    `interface Row${n} { id: number; createdAt: string }`,
    '',
    `export function rows${n}(page: Page<Row${n}>): string[] {`,
    '  return page.items.map((row) => `${row.id}@${row.createdAt}`);',
    '}',
    '',
  ].join('\n');
}

/**
 * `typesPackages` above 1 gives each share of the API files and their readers a types package of its
 * own (`packages/types-0`, ...): groups of files that change together and share nothing.
 */
export function generateMonorepo(root: string, files: number, seed = 7, nodeModules?: string, typesPackages = 1): Monorepo {
  const rand = seededRandom(seed);
  const truth = new Map<string, FileTruth>();
  const untouched = new Map<string, string>();
  const typesOf = (i: number) => (typesPackages === 1 ? 'types' : `types-${i % typesPackages}`);
  const write = (path: string, text: string, types = 'types'): string => {
    const written = text.replaceAll('../../types/src/', `../../${types}/src/`);
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), written);
    return written;
  };
  write('package.json', '{ "private": true, "type": "module" }\n');
  write('tsconfig.json', `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: true }, include: ['**/*.ts'] }, null, 2)}\n`);
  write('globals.d.ts', GLOBALS);
  if (nodeModules) symlinkSync(nodeModules, join(root, 'node_modules'));
  for (let j = 0; j < typesPackages; j++) {
    write(`packages/${typesOf(j)}/src/resources.ts`, TYPES);
    // Group, Identity and Repo take v2 names; ListResponse (several kinds) and Page (database rows
    // too) keep theirs, and each v2 list gets a type of its own where they were written.
    truth.set(`packages/${typesOf(j)}/src/resources.ts`, { api: true, counts: { 'uid: string': 3, 'id: string|number': 0 } });
  }
  let written = typesPackages;
  for (let i = 0; written < files; i++) {
    if (i % 10 === 0) {
      const style = (i / 10) % 7;
      const api = apiFile(i, style);
      const path = `packages/api-${i % 10}/src/client-${i}.ts`;
      write(path, api.text, typesOf(i / 10));
      truth.set(path, { api: true, counts: api.expected });
      written += 1;
      const consumer = consumerFile(i, style);
      if (consumer && written < files) {
        const cpath = `packages/app-${i % 7}/src/view-${i}.ts`;
        write(cpath, consumer.text, typesOf(i / 10));
        truth.set(cpath, { api: true, counts: consumer.expected });
        written += 1;
      }
    } else {
      const path = `packages/lib-${i % 13}/src/module-${i}.ts`;
      const text = write(path, localFile(i, rand), typesOf(i));
      truth.set(path, { api: false, counts: count(text) });
      untouched.set(path, text);
      written += 1;
    }
  }
  return { root, truth, untouched };
}

/** The differences between the migrated tree and its ground truth; empty when it holds. */
export function checkMigrated(repo: Monorepo, read: (path: string) => string): string[] {
  const problems: string[] = [];
  for (const [path, text] of repo.untouched) if (read(path) !== text) problems.push(`${path}: not API code, but changed`);
  for (const [path, t] of repo.truth) {
    if (!t.api) continue;
    // The helpers the migration appends (`// migrate-v2: ...` at the end of the file) read fields of their own.
    const found = count(read(path).split('\n// migrate-v2: ')[0]!);
    for (const [pattern, want] of Object.entries(t.counts)) {
      if (found[pattern] !== want) problems.push(`${path}: ${pattern} ${found[pattern]} times, expected ${want}`);
    }
  }
  return problems;
}
