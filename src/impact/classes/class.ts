/**
 * One object class as the impact sees it: what its changes leave on the
 * account, which applications' hits they need, and whether their evidence may
 * be an experimental regex's dry run. The evaluation itself (evaluate.ts,
 * modes.ts) crosses the classes: a mode decides by the IP lists too.
 */

/** What one change leaves: the live ids it takes away, the objects it puts there. */
export interface Leaves<O> {
  readonly gone: readonly number[];
  readonly put: readonly O[];
}

export interface ImpactClass<C, O> {
  /** What the change leaves on the account (after-plan.ts). */
  leaves(change: C): Leaves<O>;
  /** The applications the change acts on, or undefined for every one. */
  applications(change: C): readonly number[] | undefined;
  /** Whether the change's evidence may be an experimental regex's dry run. */
  experimental(change: C): boolean;
}
