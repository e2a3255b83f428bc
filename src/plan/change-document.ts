/**
 * What every change of the plan document carries, whatever its class: where it
 * applies, and with `--impact` what it would have done to the traffic the
 * service saw. Each class's changes (plan/classes/*-document.ts) extend it.
 */

/**
 * The application(s) a change concerns: one id, `'all'` (account-wide, pool 0),
 * or several ids sorted (in a list, `0` stands for account-wide).
 */
export type Application = number | 'all' | readonly number[];

export interface PlanChangeBase {
  readonly client: number;
  readonly application: Application;
  /** With `--impact`: what the change would have done to the traffic the service saw. Not part of the checksum. */
  readonly impact?: ChangeImpact;
}

/**
 * What a change would have done to the requests the service recorded (its
 * hits) in the impact window:
 * - `newly_blocked` / `no_longer_blocked`: requests it would have blocked that
 *   were let through, or let through that were blocked;
 * - `newly_detected` / `no_longer_detected`: flagged requests it would have
 *   made (or stopped being) attacks;
 * - `attack_hits_from`: attack requests from the sources an IP-list entry names;
 * - `none`: the change decides nothing about traffic (a comment, ownership, an expiry);
 * - `not_evaluable`: hits cannot show it (`reason` says why).
 */
export const IMPACT_EFFECTS = ['newly_blocked', 'no_longer_blocked', 'newly_detected', 'no_longer_detected', 'attack_hits_from', 'none', 'not_evaluable'] as const;

export type ImpactEffect = (typeof IMPACT_EFFECTS)[number];

export interface ImpactPath {
  readonly path: string;
  readonly requests: number;
}

export interface ChangeImpact {
  readonly effect: ImpactEffect;
  readonly evaluable: boolean;
  /** Why the change is not evaluable, or what bounds its count. */
  readonly reason?: string;
  /** Distinct requests (`request_id`). */
  readonly requests: number;
  /** Distinct source addresses of those requests. */
  readonly ips: number;
  /** The paths with the most requests, most first (at most five). */
  readonly paths: readonly ImpactPath[];
  /** Distinct paths of those requests. */
  readonly path_count: number;
  /** A few of the requests, for `rampart tune --request` or the console. */
  readonly sample_request_ids: readonly string[];
  /** The count is a floor: the rule also acts on clean traffic, which the service does not record. */
  readonly lower_bound?: true;
}
