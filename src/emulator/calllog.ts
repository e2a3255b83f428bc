/** Every API call the emulator saw (admin calls excluded), for assertions like "created once". */

export type CallOutcome = 'answered' | 'reset' | 'hang' | 'reset-after-write' | 'status-after-write';

export interface CallRecord {
  method: string;
  /** `"METHOD /path"`, the key faults and counts use. */
  route: string;
  path: string;
  /** HTTP status sent; null when no response was (reset, hang). */
  status: number | null;
  outcome: CallOutcome;
  /** Emulator clock, ms. */
  time: number;
  durationMs: number;
}

/** Bounded so a long soak run does not grow without end; counts are kept exactly. */
const MAX_RECORDS = 10_000;

export class CallLog {
  private records: CallRecord[] = [];
  private perRoute = new Map<string, number>();

  record(call: CallRecord): void {
    this.records.push(call);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
    this.perRoute.set(call.route, (this.perRoute.get(call.route) ?? 0) + 1);
  }

  calls(): CallRecord[] {
    return this.records.map((c) => ({ ...c }));
  }

  counts(): Record<string, number> {
    return Object.fromEntries([...this.perRoute].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  count(route: string): number {
    return this.perRoute.get(route) ?? 0;
  }

  reset(): void {
    this.records = [];
    this.perRoute.clear();
  }
}
