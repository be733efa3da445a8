/**
 * Collects every `assumed` rule of the contract with where it sits, for the README, reports and
 * the `contract` command.
 */
import * as platform from './platform.js';
import { RESOURCES } from './resources.js';
import type { Rule } from './types.js';

export interface LocatedRule extends Rule {
  readonly where: string;
}

function isRule(value: unknown): value is Rule {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'source' in value &&
    ((value as Rule).status === 'documented' || (value as Rule).status === 'assumed')
  );
}

function collect(value: unknown, where: string, out: LocatedRule[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${where}[${describe(item) ?? i}]`, out));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (isRule(value)) out.push({ where, status: value.status, source: value.source });
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'status' && key !== 'source') collect(child, `${where}.${key}`, out);
  }
}

function describe(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const name = record['v2'] ?? record['v1'] ?? record['kind'] ?? record['name'];
  return typeof name === 'string' ? name : undefined;
}

/** Every rule of the contract, documented and assumed, each with its location. */
export function allRules(): LocatedRule[] {
  const out: LocatedRule[] = [];
  for (const resource of RESOURCES) collect(resource, resource.kind, out);
  // Sorted: a module namespace's key order differs between runtimes (ESM sorts, transpilers may not).
  for (const [name, value] of Object.entries(platform).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (typeof value === 'object') collect(value, name, out);
  }
  return out;
}

export function assumptions(): LocatedRule[] {
  return allRules().filter((r) => r.status === 'assumed');
}

/** The assumed rules as a markdown table, for the README and `migrate-v2 contract --assumed`. */
export function assumptionsMarkdown(): string {
  const rows = assumptions().map((a) => `| \`${a.where}\` | ${a.source.replace(/\|/g, '\\|')} |`);
  return ['| rule | why it is assumed |', '|---|---|', ...rows].join('\n');
}
