/**
 * Time as the daemon's loop and watcher see it: the clock and one-shot
 * timers, injected so tests drive them without waiting on the wall clock.
 */
export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `ms`; the handle cancels it. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** What `setTimeout` returns; opaque to the caller. */
export type TimerHandle = { readonly timer: unknown };

/** The process's clock and timers (looked up at each call, so vitest's fake timers apply too). */
export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => ({ timer: setTimeout(callback, ms) }),
  clearTimeout: (handle) => clearTimeout(handle.timer as ReturnType<typeof setTimeout>),
};
