/**
 * What the status page shows of the past, kept bounded: the last cycles (with
 * their changes by action and how many writes repaired drift) and the last
 * writes from the audit records. Ring buffers: old entries fall off.
 */
import type { AuditEntry } from '../../audit/entry.js';
import type { ObjectCounts } from '../../plan/counts.js';
import type { CycleOutcome } from '../../reconcile/outcome.js';

export interface CycleSummary {
  readonly id: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly result: string;
  /** Objects written (a cycle that applied), or planned and not written (dry run, paused, refused). */
  readonly changes?: ObjectCounts;
  readonly written: boolean;
  /** Writes that repaired drift (audit cause `drift`). */
  readonly drift: number;
}

export const MAX_CYCLES = 120;
export const MAX_WRITES = 50;

export class StatusHistory {
  private readonly cyclesKept: CycleSummary[] = [];
  private readonly writesKept: AuditEntry[] = [];

  record(id: string, outcome: CycleOutcome, startedAt: number, endedAt: number): void {
    const writes = outcome.writes ?? [];
    push(this.cyclesKept, {
      id, startedAt, durationMs: Math.max(0, endedAt - startedAt), result: outcome.result,
      ...(outcome.changes ? { changes: outcome.changes } : {}),
      written: outcome.writes !== undefined,
      drift: writes.filter((write) => write.cause === 'drift' && write.status === 'applied').length,
    }, MAX_CYCLES);
    for (const write of writes) push(this.writesKept, write, MAX_WRITES);
  }

  /** Newest first. */
  cycles(): readonly CycleSummary[] {
    return [...this.cyclesKept].reverse();
  }

  /** Newest first. */
  writes(): readonly AuditEntry[] {
    return [...this.writesKept].reverse();
  }
}

function push<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
