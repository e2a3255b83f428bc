/**
 * `--impact`: what each change of a plan would have done to the traffic the
 * service saw in a window. Reads the hits the changes need (read.ts), groups
 * them into requests (requests.ts), evaluates every change (evaluate.ts), and
 * returns the plan with its impacts; the plan's changes are never altered.
 */
import type { ServiceApi } from '../api/service.js';
import type { LiveState } from '../model/state.js';
import type { Impact, ImpactSummary, Plan } from '../plan/model.js';
import { agreementReliable, modelAgreement } from './agreement.js';
import { evaluateChanges } from './evaluate.js';
import { planTotal } from './plan-total.js';
import { readImpactHits } from './read.js';

/** The impact a command asks for: the window, and `--impact-limit` when given. */
export interface ImpactSettings {
  readonly windowSeconds: number;
  readonly limit?: number;
}

/** The plan with its impact when one is asked for and the plan changes anything; the plan as it is otherwise. */
export async function planWithImpact(plan: Plan, live: LiveState, api: ServiceApi, settings: ImpactSettings | undefined, signal?: AbortSignal): Promise<Plan> {
  if (!settings || plan.changes.length === 0) return plan;
  return withImpact(plan, live, api, { ...settings, nowSeconds: Math.floor(Date.now() / 1000), ...(signal ? { signal } : {}) });
}

export interface ImpactOptions {
  readonly windowSeconds: number;
  /** The window's end (seconds since the epoch). */
  readonly nowSeconds: number;
  /** `--impact-limit`: the most requests one change may newly block or stop blocking. */
  readonly limit?: number;
  readonly signal?: AbortSignal;
}

/** The effects the limit counts: a change of what is blocked. */
const LIMITED_EFFECTS: ReadonlySet<Impact['effect']> = new Set(['newly_blocked', 'no_longer_blocked']);

export async function withImpact(plan: Plan, live: LiveState, api: ServiceApi, options: ImpactOptions): Promise<Plan> {
  const window = { from: options.nowSeconds - options.windowSeconds, to: options.nowSeconds };
  const read = await readImpactHits(api, plan.changes, window, options.signal);
  const impacts = evaluateChanges({ changes: plan.changes, live, seen: read.seen, experimental: read.experimental, ...(options.signal ? { signal: options.signal } : {}) });
  const agreement = modelAgreement(live, read.seen, options.signal);
  const all = [...impacts.values()];
  const overLimit = options.limit === undefined ? undefined : all.filter((i) => LIMITED_EFFECTS.has(i.effect) && i.requests > (options.limit as number)).length;
  const impact: ImpactSummary = {
    windowSeconds: options.windowSeconds,
    hitsRead: read.seen.size + read.experimental.size,
    listings: read.listings,
    complete: read.incomplete === undefined,
    ...(read.incomplete !== undefined ? { reason: read.incomplete } : {}),
    notEvaluable: all.filter((i) => !i.evaluable).length,
    ...(options.limit !== undefined ? { limit: options.limit, overLimit: overLimit as number } : {}),
    agreement,
    reliable: agreementReliable(agreement),
    total: planTotal(plan.changes, live, read.seen, options.signal),
  };
  // The digests are the same memoised methods: still computed when first asked.
  return { ...plan, impacts, impact };
}
