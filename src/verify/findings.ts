/**
 * What an audit finds. Each finding has a kind, says whether it fails the audit, and has a
 * fingerprint that stays the same from run to run, for baselines.
 */
import type { ResourceKind, Rule } from '../contract/index.js';

export type FindingKind =
  | 'missing-in-v2'
  | 'missing-in-v1'
  | 'field-differs'
  | 'expected-difference'
  | 'changed-during-walk'
  | 'contract-breach'
  | 'incomplete'
  | 'not-in-contract';

export type BreachType =
  | 'duplicate-uid'
  | 'token-cycle'
  | 'order-broken'
  | 'total-count-mismatch'
  | 'skipped-not-echoed'
  | 'expired-token-restart'
  | 'page-cap-reached';

export interface Finding {
  kind: FindingKind;
  resource: ResourceKind;
  message: string;
  uid?: string;
  /** JSON path of the field, in v2 names: `$.resourceLimits.clusters`. */
  path?: string;
  breach?: BreachType;
  v1?: unknown;
  v2?: unknown;
  /** The contract rule an expected difference rests on. */
  rule?: Rule;
  /** How many resources an aggregated finding covers. */
  count?: number;
  /** Set when a baseline already had this finding. */
  baseline?: boolean;
}

/** The order findings are shown in: most serious first, then those that do not fail. */
export const KIND_ORDER: readonly FindingKind[] = ['incomplete', 'contract-breach', 'missing-in-v2', 'missing-in-v1', 'field-differs', 'changed-during-walk', 'expected-difference', 'not-in-contract'];

/** Kinds that fail an audit (unless a baseline knows them). */
export const FAILING: Record<FindingKind, boolean> = {
  'missing-in-v2': true,
  'missing-in-v1': true,
  'field-differs': true,
  'contract-breach': true,
  incomplete: true,
  'expected-difference': false,
  'changed-during-walk': false,
  'not-in-contract': false,
};

/** Stable across runs: a breach is one per kind and type, whichever uid happened to show it first. */
export function fingerprint(f: Finding): string {
  const uid = f.kind === 'contract-breach' ? '' : (f.uid ?? '');
  return [f.kind, f.resource, uid, f.path ?? '', f.breach ?? ''].join('|');
}

export function isFailing(f: Finding): boolean {
  return FAILING[f.kind] && !f.baseline;
}
