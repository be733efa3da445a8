/**
 * Drift injected on purpose (`--drift`), so the verifier can be tested end to end: resources that
 * one version does not show, a field whose v2 value differs, and a uid repeated across v2 pages.
 * The plan is drawn from the dataset with a seed, and published so tests know what to expect.
 */
import { modelledResources, type ApiVersion, type ResourceKind } from '../contract/index.js';
import type { Json } from './render.js';
import { numberSetting, parseSwitchSpec } from './switch-spec.js';
import { seededRandom } from './seeded-random.js';
import type { Store } from './store.js';

export interface DriftSpec {
  missingInV1: number;
  missingInV2: number;
  fieldDiffers: number;
  duplicateAcrossPages: boolean;
  tokenCycle: boolean;
  seed: number;
}

export interface DriftTarget {
  kind: ResourceKind;
  uid: string;
}

export interface DriftPlan {
  missingInV1: DriftTarget[];
  missingInV2: DriftTarget[];
  fieldDiffers: (DriftTarget & { field: string; v2Value: string })[];
  duplicateAcrossPages: boolean;
  /** Continued v2 pages hand back the first page's token, so a walk goes round in a circle. */
  tokenCycle: boolean;
}

const FLAG = '--drift';
export const DRIFT_SUFFIX = ' [drift]';

/** `missing-v1=1,missing-v2=2,field=1,duplicate,cycle,seed=3` */
export function parseDriftSpec(text: string): DriftSpec {
  const v = parseSwitchSpec(FLAG, text, ['missing-v1', 'missing-v2', 'field', 'duplicate', 'cycle', 'seed']);
  return {
    missingInV1: numberSetting(FLAG, v, 'missing-v1', 0, 1000),
    missingInV2: numberSetting(FLAG, v, 'missing-v2', 0, 1000),
    fieldDiffers: numberSetting(FLAG, v, 'field', 0, 1000),
    duplicateAcrossPages: numberSetting(FLAG, v, 'duplicate', 0, 1) > 0,
    tokenCycle: numberSetting(FLAG, v, 'cycle', 0, 1) > 0,
    seed: numberSetting(FLAG, v, 'seed', 1),
  };
}

/** The string field both versions show that drift alters: description where there is one. */
function driftField(kind: ResourceKind): string | undefined {
  const resource = modelledResources().find((r) => r.kind === kind)!;
  const shared = resource.fields.filter((f) => f.type === 'string' && f.v1 && f.v1 === f.v2);
  return (shared.find((f) => f.v2 === 'description') ?? shared[0])?.v2;
}

export function planDrift(spec: DriftSpec, store: Store): DriftPlan {
  const random = seededRandom(spec.seed);
  const pool: DriftTarget[] = modelledResources().flatMap((r) =>
    [...store.all(r.kind)].map((rec) => ({ kind: r.kind, uid: rec.uid })).sort((a, b) => (a.uid < b.uid ? -1 : 1)),
  );
  const taken = new Set<DriftTarget>();
  // Each record at most once across the plan, drawn among those `fits` allows.
  const take = (n: number, fits: (t: DriftTarget) => boolean = () => true): DriftTarget[] => {
    const open = pool.filter((t) => !taken.has(t) && fits(t));
    const out: DriftTarget[] = [];
    while (out.length < n && open.length > 0) out.push(open.splice(Math.floor(random() * open.length), 1)[0]!);
    for (const t of out) taken.add(t);
    return out;
  };
  const missingInV1 = take(spec.missingInV1);
  const missingInV2 = take(spec.missingInV2);
  // Only records of a kind with a field to alter: field=N alters N records while there are that many.
  const fields = new Map(modelledResources().map((r) => [r.kind, driftField(r.kind)]));
  const fieldDiffers = take(spec.fieldDiffers, (t) => fields.get(t.kind) !== undefined).map((t) => {
    const field = fields.get(t.kind)!;
    return { ...t, field, v2Value: `${String(store.get(t.kind, t.uid)?.[field] ?? '')}${DRIFT_SUFFIX}` };
  });
  return { missingInV1, missingInV2, fieldDiffers, duplicateAcrossPages: spec.duplicateAcrossPages, tokenCycle: spec.tokenCycle };
}

export const NO_DRIFT: DriftPlan = { missingInV1: [], missingInV2: [], fieldDiffers: [], duplicateAcrossPages: false, tokenCycle: false };

export class Drift {
  private readonly hiddenByView = new Map<string, Set<string>>();
  private readonly altered = new Map<string, { field: string }>();

  constructor(readonly plan: DriftPlan) {
    for (const [view, targets] of [['v1', plan.missingInV1], ['v2', plan.missingInV2]] as const) {
      for (const t of targets) {
        const key = `${t.kind}|${view}`;
        if (!this.hiddenByView.has(key)) this.hiddenByView.set(key, new Set());
        this.hiddenByView.get(key)!.add(t.uid);
      }
    }
    for (const t of plan.fieldDiffers) this.altered.set(`${t.kind}|${t.uid}`, t);
  }

  private readonly firstTokens = new Map<string, string>();

  get duplicatesAcrossPages(): boolean {
    return this.plan.duplicateAcrossPages;
  }

  /** With `cycle`: the token a page should carry instead of its own, once the query has had one. */
  cycledToken(fingerprint: string, own: string, continued: boolean): string {
    if (!this.plan.tokenCycle || !own) return own;
    const first = this.firstTokens.get(fingerprint);
    if (!continued || first === undefined) {
      this.firstTokens.set(fingerprint, own);
      return own;
    }
    return first;
  }

  hidden(kind: ResourceKind, view: ApiVersion): ReadonlySet<string> | undefined {
    return this.hiddenByView.get(`${kind}|${view}`);
  }

  /** Applies a planned field difference to a v2 rendering. */
  alter(kind: ResourceKind, uid: string, json: Json): Json {
    if (this.altered.size === 0) return json;
    const change = this.altered.get(`${kind}|${uid}`);
    return change ? { ...json, [change.field]: `${String(json[change.field] ?? '')}${DRIFT_SUFFIX}` } : json;
  }
}
