/** Running changes of a plan one at a time or in batches, each ending in exactly one recorded result. */
import type { ChangeResult } from '../audit/change-result.js';
import { isRampartError } from '../errors.js';
import type { Change } from '../model/change.js';
import type { ExecuteContext, Outcome } from './execute.js';

/** A change with its place in the plan (results and audit refer to it by index). */
export interface Indexed<C = Change> {
  readonly change: C;
  readonly index: number;
}

/** What every change runs with. */
export interface ChangeRun {
  readonly context: ExecuteContext;
  /** Graceful stop: changes not started yet are skipped. */
  readonly stop?: AbortSignal | undefined;
  readonly record: (result: ChangeResult) => void;
  readonly concurrency: number;
}

export interface Skipped {
  readonly status: 'skipped';
  readonly detail: string;
}

/** Runs `call` for one change and records what became of it; never throws. */
export async function runChange(item: Indexed, run: ChangeRun, call: () => Promise<Outcome | Skipped>): Promise<void> {
  const { change, index } = item;
  if (run.stop?.aborted) {
    run.record({ index, change, status: 'skipped', detail: 'stopped before this change' });
    return;
  }
  try {
    run.record({ index, change, ...(await call()) });
  } catch (error) {
    run.record({ index, change, ...failure(error) });
  }
}

export function failure(error: unknown): Pick<ChangeResult, 'status' | 'errorCode' | 'detail'> {
  return {
    status: 'failed',
    errorCode: isRampartError(error) ? error.code : 'internal',
    detail: error instanceof Error ? error.message : String(error),
  };
}

/** Failures no retry can mend: the token's rights, a request the service refuses as built. */
const PERMANENT_ERRORS: ReadonlySet<string> = new Set(['api_auth', 'api_validation', 'api_request']);

/** Whether every failure of a run is one a second run would meet again. */
export function onlyPermanentFailures(results: readonly Pick<ChangeResult, 'status' | 'errorCode'>[]): boolean {
  const failed = results.filter((result) => result.status === 'failed');
  return failed.length > 0 && failed.every((result) => result.errorCode !== undefined && PERMANENT_ERRORS.has(result.errorCode));
}

export function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
