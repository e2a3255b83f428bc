/**
 * `--impact-limit` as a guard: the plan is unsafe when one change would have
 * newly blocked, or stopped blocking, more of the requests the service saw
 * than the limit, and when the evidence is too incomplete to tell. An
 * incomplete impact reads "at least 0": passing it would let a listing that
 * failed part way wave through a change that blocks 500 requests.
 */
import type { ImpactSummary } from './model.js';

/** Why the impact makes the plan unsafe, or undefined when it does not (or no limit was given). */
export function impactUnsafe(impact: ImpactSummary | undefined): string | undefined {
  if (impact?.limit === undefined) return undefined;
  if ((impact.overLimit ?? 0) > 0) {
    return `${impact.overLimit} change(s) would have newly blocked, or stopped blocking, more than ${impact.limit} of the requests the service saw (--impact-limit)`;
  }
  if (!impact.complete) {
    return `the impact is incomplete (${impact.reason ?? 'a hits listing failed'}), so no one can tell whether a change newly blocks, or stops blocking, more than ${impact.limit} requests (--impact-limit)`;
  }
  if (impact.reliable === false && impact.agreement) {
    const { agree, checked } = impact.agreement;
    return `the impact is unreliable: its model agrees with only ${agree} of the ${checked} verdicts the service recorded, so no one can tell whether a change newly blocks, or stops blocking, more than ${impact.limit} requests (--impact-limit)`;
  }
  return undefined;
}
