/**
 * `migrate-v2.config.json`: what the codemod cannot see for itself, declared: the transport
 * wrappers of packages it cannot read (an internal SDK in node_modules), which it then treats like
 * the program's own wrappers, and assumed contract rules the team knows do not hold. Found like the tsconfig (the nearest at or above the first path) or
 * given with --config; every key and value is checked on load, and a bad one is one line, exit 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { rejectableAssumptions, v1Prefixes, type HttpMethod } from '../contract/index.js';
import type { DeclaredBase } from './static-text.js';
import type { Client } from './v1-calls.js';

export const CONFIG_FILE = 'migrate-v2.config.json';

/** A wrapper function of a package the codemod cannot read: which arguments are the path, method and body. */
export interface DeclaredWrapper {
  /** The function's name at the call (`callPlatform`, or the method name of `sdk.callPlatform`). */
  function: string;
  /** The module it is imported from; without it, any function of that name the program does not declare. */
  from?: string;
  path: number;
  /** The index of the method argument, or the one method the function always uses. */
  method?: number | HttpMethod;
  body?: number;
  returns: 'body' | 'response';
  /** The HTTP client whose response it answers, when it answers the response (default fetch). */
  client?: Client;
  /** 'status': the errors it throws say their HTTP status (`status`, `statusCode` or `response.status`). */
  errors?: 'status' | 'opaque';
}

export interface CodemodConfig {
  wrappers: DeclaredWrapper[];
  /** Assumed contract rules the team knows do not hold (src/contract/rejections.ts): the codemod does without them. */
  rejectAssumptions?: string[];
  /** Variables whose value is a base URL ending with a v1 prefix (set outside the code, in the environment). */
  baseUrls?: DeclaredBase[];
}

const TOP_KEYS = new Set(['$schema', 'wrappers', 'rejectAssumptions', 'baseUrls']);
const BASE_KEYS = new Set(['name', 'path', 'v2']);
const NAME = /^[A-Za-z_$][\w$]*$/;

function checkBase(value: unknown, at: string): DeclaredBase {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${at}: expected an object`);
  const b = value as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!BASE_KEYS.has(key)) throw new Error(`${at}: unknown key "${key}" (known: ${[...BASE_KEYS].join(', ')})`);
  if (typeof b['name'] !== 'string' || !NAME.test(b['name'])) throw new Error(`${at}.name: expected a variable name (IAM_URL, for a const or process.env.IAM_URL)`);
  const prefixes = v1Prefixes();
  if (typeof b['path'] !== 'string' || !prefixes.includes(b['path'])) throw new Error(`${at}.path: expected the v1 prefix its value ends with, one of ${prefixes.join(', ')}`);
  if (b['v2'] !== undefined && (typeof b['v2'] !== 'string' || !NAME.test(b['v2']))) throw new Error(`${at}.v2: expected the name of the variable that holds the v2 base`);
  return b as unknown as DeclaredBase;
}

function checkRejections(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error('rejectAssumptions: expected a list of assumed rules (npx migrate-v2 contract --assumed)');
  const known = rejectableAssumptions();
  for (const where of value as string[]) {
    if (!known.includes(where)) throw new Error(`rejectAssumptions: "${where}" is not an assumed rule the codemod relies on (it can do without: ${known.join(', ')})`);
  }
  return value as string[];
}
const WRAPPER_KEYS = new Set(['function', 'from', 'path', 'method', 'body', 'returns', 'client', 'errors']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CLIENTS = new Set(['fetch', 'undici', 'axios', 'got', 'ky', 'ofetch']);

function isIndex(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function checkWrapper(value: unknown, at: string): DeclaredWrapper {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${at}: expected an object`);
  const w = value as Record<string, unknown>;
  for (const key of Object.keys(w)) if (!WRAPPER_KEYS.has(key)) throw new Error(`${at}: unknown key "${key}" (known: ${[...WRAPPER_KEYS].join(', ')})`);
  if (typeof w['function'] !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(w['function'])) throw new Error(`${at}.function: expected a function name`);
  if (w['from'] !== undefined && typeof w['from'] !== 'string') throw new Error(`${at}.from: expected a module name`);
  if (!isIndex(w['path'])) throw new Error(`${at}.path: expected the index of the path argument (0, 1, ...)`);
  if (w['method'] !== undefined && !isIndex(w['method']) && !METHODS.has(String(w['method']))) throw new Error(`${at}.method: expected an argument index or one of ${[...METHODS].join(', ')}`);
  if (w['body'] !== undefined && !isIndex(w['body'])) throw new Error(`${at}.body: expected the index of the body argument`);
  if (w['returns'] !== 'body' && w['returns'] !== 'response') throw new Error(`${at}.returns: expected "body" or "response"`);
  if (w['client'] !== undefined && !CLIENTS.has(String(w['client']))) throw new Error(`${at}.client: expected one of ${[...CLIENTS].join(', ')}`);
  if (w['errors'] !== undefined && w['errors'] !== 'status' && w['errors'] !== 'opaque') throw new Error(`${at}.errors: expected "status" or "opaque"`);
  return w as unknown as DeclaredWrapper;
}

/** Reads and checks a config file; any problem is a UsageError naming the file and the key. */
export function loadConfig(path: string): CodemodConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`}`);
  }
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('expected an object');
    const top = raw as Record<string, unknown>;
    for (const key of Object.keys(top)) if (!TOP_KEYS.has(key)) throw new Error(`unknown key "${key}" (known: ${[...TOP_KEYS].join(', ')})`);
    const wrappers = top['wrappers'] ?? [];
    if (!Array.isArray(wrappers)) throw new Error('wrappers: expected a list');
    const rejections = top['rejectAssumptions'] === undefined ? undefined : checkRejections(top['rejectAssumptions']);
    const bases = top['baseUrls'] ?? [];
    if (!Array.isArray(bases)) throw new Error('baseUrls: expected a list');
    return {
      wrappers: wrappers.map((w, i) => checkWrapper(w, `wrappers[${i}]`)),
      ...(rejections ? { rejectAssumptions: rejections } : {}),
      ...(bases.length ? { baseUrls: bases.map((b, i) => checkBase(b, `baseUrls[${i}]`)) } : {}),
    };
  } catch (error) {
    throw new UsageError(`${path}: ${(error as Error).message}`);
  }
}

/** --config as given, else the nearest migrate-v2.config.json at or above the first path. */
export function findConfig(given: string | undefined, paths: readonly string[], cwd: string): string | undefined {
  if (given) {
    const path = resolve(cwd, given);
    if (!existsSync(path)) throw new UsageError(`--config ${given}: no such file`);
    return path;
  }
  const first = resolve(cwd, paths[0] ?? '.');
  for (let dir = existsSync(first) && statSync(first).isDirectory() ? first : dirname(first); ; dir = dirname(dir)) {
    const candidate = resolve(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
