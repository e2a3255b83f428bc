/** What happened to each change of a plan, and the report an apply ends with. */
import type { ChangeResult, ChangeStatus } from '../audit/change-result.js';
import type { ConcurrentCopy } from './copy-finder.js';

export interface ApplyReport {
  readonly results: readonly ChangeResult[];
  readonly applied: number;
  readonly alreadyDone: number;
  readonly skipped: number;
  readonly failed: number;
  /** Creates the service stored differently from what was sent. */
  readonly rewritten: number;
  /** API calls actually sent during the apply (retries and checks included). */
  readonly calls: number;
  readonly durationMs: number;
  /** Whether the listings showed every write before apply returned. */
  readonly settled: boolean;
  /** The policy revision the plan was made from, when known. */
  readonly revision?: string;
  /** Present when some result's cause is `unknown`: why, said once. */
  readonly unknownCause?: string;
  /** Copies another writer of the same owner made at the same time, deleted (apply/concurrent-copies.ts). */
  readonly concurrentCopies: readonly ConcurrentCopy[];
}

export function summarize(
  results: readonly ChangeResult[],
  extra: Pick<ApplyReport, 'calls' | 'durationMs' | 'settled' | 'revision' | 'unknownCause'> & { readonly concurrentCopies?: readonly ConcurrentCopy[] },
): ApplyReport {
  const count = (status: ChangeStatus) => results.filter((result) => result.status === status).length;
  return {
    results: [...results].sort((a, b) => a.index - b.index),
    applied: count('applied'),
    alreadyDone: count('already-done'),
    skipped: count('skipped'),
    failed: count('failed'),
    rewritten: results.filter((result) => (result.rewrites?.length ?? 0) > 0).length,
    ...extra,
    concurrentCopies: extra.concurrentCopies ?? [],
  };
}
