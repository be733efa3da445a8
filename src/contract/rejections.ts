/**
 * A team that learns the platform does not do what an `assumed` rule says can reject that rule
 * for a codemod run (migrate-v2.config.json `rejectAssumptions`). What the codemod relies on and
 * can do without:
 * - an assumed v2 endpoint (`Role.v2.endpoints.create`): the calls it would take stay on v1;
 * - an assumed v2 field (`Repo.fields[aliases]`): v2 is taken not to serve it, so reads of it keep
 *   their calls on v1;
 * - `UNIFORM_RENAMES.lastSeen`: lastSeen is renamed on identities only.
 * The rule is put back when the run ends (tests run many codemod runs in one process).
 */
import { assumptions } from './assumptions.js';
import { ASSUMPTION_SWITCHES } from './fields.js';
import { RESOURCES } from './resources.js';
import type { Endpoints, ResourceContract } from './types.js';

type Undo = () => void;

const ENDPOINT = /^(\w+)\.v2\.endpoints\.(\w+)$/;
const FIELD = /^(\w+)\.fields\[(\w+)\]$/;


function resourceNamed(kind: string): ResourceContract | undefined {
  return RESOURCES.find((r) => r.kind === kind);
}

/** The rule names the codemod can do without, among the contract's assumptions. */
export function rejectableAssumptions(): string[] {
  return assumptions()
    .map((a) => a.where)
    .filter((w) => ENDPOINT.test(w) || FIELD.test(w) || w === 'UNIFORM_RENAMES.lastSeen');
}

function rejectOne(where: string): Undo {
  const endpoint = ENDPOINT.exec(where);
  if (endpoint) {
    const endpoints = resourceNamed(endpoint[1]!)!.v2.endpoints as Record<keyof Endpoints, unknown>;
    const op = endpoint[2] as keyof Endpoints;
    const kept = endpoints[op];
    // Set aside, not deleted: the key keeps its place, so the contract reads the same once it is back.
    endpoints[op] = undefined;
    return () => void (endpoints[op] = kept);
  }
  const field = FIELD.exec(where);
  if (field) {
    const f = resourceNamed(field[1]!)!.fields.find((x) => (x.v2 ?? x.v1) === field[2]) as { v2?: string | undefined } | undefined;
    const kept = f?.v2;
    if (f) f.v2 = undefined;
    return () => void (f && (f.v2 = kept));
  }
  ASSUMPTION_SWITCHES.lastSeenOnEveryKind = false;
  return () => void (ASSUMPTION_SWITCHES.lastSeenOnEveryKind = true);
}

/** Rejects the rules named (each one of `rejectableAssumptions()`); the function returned puts them back. */
export function rejectAssumptions(wheres: readonly string[]): Undo {
  const undo = wheres.map(rejectOne);
  return () => {
    for (const u of undo.reverse()) u();
  };
}
