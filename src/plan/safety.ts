import { planClassOf } from './classes/index.js';
import { impactUnsafe } from './impact-guard.js';
import type { Change } from '../model/change.js';
import type { Plan, Safety } from './model.js';
import type { GuardedDeletes } from './classes/class.js';

/**
 * The guard against a plan that empties the account: a policy directory
 * mounted wrong, a wrong `--owner`, a deleted file. Deletes of objects no
 * policy declares count, and so do the holders `--adopt` deletes to move their
 * values into another list (the values leave the list they were in);
 * replacements and duplicates do not take protection away. Below `minOwned`
 * owned objects the guard does not apply.
 */

export interface SafetyLimits {
  /** Largest share (0..1) of owned objects a plan may delete. */
  readonly maxDeleteShare: number;
  /** The guard applies only once Rampart owns at least this many objects. */
  readonly minOwned: number;
}

export const DEFAULT_SAFETY: SafetyLimits = { maxDeleteShare: 0.3, minOwned: 10 };

export interface SafetyOptions extends Partial<SafetyLimits> {
  /** `--force`: apply anyway (the verdict says so). */
  readonly force?: boolean;
}

export interface SafetyVerdict {
  readonly ok: boolean;
  readonly deleteCount: number;
  readonly ownedCount: number;
  /** deleteCount / ownedCount (0 when nothing is owned). */
  readonly share: number;
  readonly threshold: number;
  /** True when the plan exceeds the limit and only `force` let it through. */
  readonly forced: boolean;
  readonly message: string;
}

/** What the plan deletes that the guard counts (see the module comment). */
export function guardedDeletes(changes: readonly Change[]): GuardedDeletes {
  let count = 0;
  let moves = 0;
  for (const change of changes) {
    const guarded = planClassOf(change).guarded(change);
    count += guarded.count;
    moves += guarded.moves;
  }
  return { count, moves };
}

/** ` (3 of them moves made by --adopt)`, or nothing. */
export function movesPhrase(moves: number | undefined): string {
  return moves ? ` (${moves} of them ${moves === 1 ? 'a move' : 'moves'} made by --adopt)` : '';
}

function exceeds(deleteCount: number, ownedCount: number, limits: SafetyLimits): boolean {
  return ownedCount >= limits.minOwned && ownedCount > 0 && deleteCount / ownedCount > limits.maxDeleteShare;
}

/** What `buildPlan` records in `plan.safety`. */
export function safetyOf(changes: readonly Change[], ownedCount: number, limits: SafetyLimits): Safety {
  const { count: deleteCount, moves } = guardedDeletes(changes);
  return {
    ok: !exceeds(deleteCount, ownedCount, limits),
    deleteCount,
    ...(moves > 0 ? { moveCount: moves } : {}),
    ownedCount,
    share: ownedCount > 0 ? deleteCount / ownedCount : 0,
    threshold: limits.maxDeleteShare,
    minOwned: limits.minOwned,
  };
}

const percent = (x: number): string => `${Math.round(x * 1000) / 10}%`;

export function checkSafety(plan: Plan, options: SafetyOptions = {}): SafetyVerdict {
  const limits: SafetyLimits = {
    maxDeleteShare: options.maxDeleteShare ?? DEFAULT_SAFETY.maxDeleteShare,
    minOwned: options.minOwned ?? DEFAULT_SAFETY.minOwned,
  };
  const { count: deleteCount, moves } = guardedDeletes(plan.changes);
  const { ownedCount } = plan.safety;
  const share = ownedCount > 0 ? deleteCount / ownedCount : 0;
  const over = exceeds(deleteCount, ownedCount, limits);
  const what = `the plan deletes ${deleteCount} of the ${ownedCount} objects owned by "${plan.owner}" (${percent(share)})${movesPhrase(moves)}`;
  let message: string;
  if (!over) {
    message = ownedCount < limits.minOwned
      ? `Safe: ${what}; the ${percent(limits.maxDeleteShare)} limit applies from ${limits.minOwned} owned objects.`
      : `Safe: ${what}, within the ${percent(limits.maxDeleteShare)} limit.`;
  } else if (options.force) {
    message = `Forced: ${what}, more than the ${percent(limits.maxDeleteShare)} limit; applying because of --force.`;
  } else {
    message = `Refusing: ${what}, more than the ${percent(limits.maxDeleteShare)} limit. ` +
      'Check the policy directory and the --owner name; if these deletions are intended, re-run with --force.';
  }
  const verdict = {
    ok: !over || options.force === true,
    deleteCount, ownedCount, share, threshold: limits.maxDeleteShare,
    forced: over && options.force === true,
    message,
  };
  return over && !options.force ? verdict : withImpactLimit(verdict, plan, options.force === true);
}

/**
 * `--impact-limit` (impact-guard.ts): a change past the limit, or an impact
 * too incomplete to tell, makes the plan unsafe, as a mass delete does.
 */
function withImpactLimit(verdict: SafetyVerdict, plan: Plan, force: boolean): SafetyVerdict {
  const why = impactUnsafe(plan.impact);
  if (why === undefined) return verdict;
  return force
    ? { ...verdict, forced: true, message: `${verdict.message} Forced: ${why}; applying because of --force.` }
    : { ...verdict, ok: false, message: `Refusing: ${why}. Read the plan's impact; if these effects are intended, re-run with --force.` };
}
