/**
 * A scheduler (src/daemon/scheduler.ts) whose clock moves only when a test
 * says so: timers fire in order as `advance` passes them, and `waiting` shows
 * what is scheduled. The loop's waits and the watcher's debounce are then
 * checked exactly, with no wall-clock sleep and no flake on a busy machine.
 */
import type { Scheduler, TimerHandle } from '../../src/daemon/scheduler.js';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

export class ManualScheduler implements Scheduler {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();
  /** Every delay asked for, in order (a loop's backoff reads here). */
  readonly requested: number[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.time + ms, callback });
    this.requested.push(ms);
    return { timer: id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle.timer as number);
  }

  /** The delays, from now, of the timers scheduled and not yet fired. */
  get waiting(): number[] {
    return [...this.timers.values()].map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }

  /** Moves the clock on by `ms`, firing each timer due on the way at its own time, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.values()].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      this.time = Math.max(this.time, due.at);
      due.callback();
    }
    this.time = end;
  }
}
