/**
 * The overall deadline of a one-shot command's reading of the account. Without
 * it, a host that accepts connections and never answers costs every attempt's
 * full request timeout, retries included (over 3 minutes). The error names the
 * host and what the calls were doing when time ran out.
 *
 * The timer cannot fire while synchronous work holds the thread (the
 * impact's evaluation of 100k recorded requests): such work asks
 * `throwIfPastDeadline` between its steps, which aborts the signal once its
 * time has passed.
 */
import { ApiTimeoutError } from '../errors.js';

/** When each deadline's signal is due, and how to abort it then. */
const due = new WeakMap<AbortSignal, { readonly at: number; readonly expire: (doing: string) => void }>();

export async function withDeadline<T>(
  ms: number,
  target: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (ms <= 0) return work(new AbortController().signal);
  const controller = new AbortController();
  const within = `within ${describeMs(ms)} (--timeout)`;
  const timer = setTimeout(() => {
    controller.abort(new ApiTimeoutError(`no complete answer from ${target} ${within}: the calls in flight had no answer yet`));
  }, ms);
  due.set(controller.signal, {
    at: Date.now() + ms,
    expire: (doing) => controller.abort(new ApiTimeoutError(`not done ${within}: ${doing} was still running (the answers of ${target} had been read)`)),
  });
  try {
    return await work(controller.signal);
  } catch (error) {
    if (!controller.signal.aborted || error === controller.signal.reason) throw error;
    // Aborted while waiting to retry: the failure it was retrying is the cause worth naming.
    const cause = error instanceof Error ? error.message : String(error);
    throw new ApiTimeoutError(`no complete answer from ${target} ${within}; last failure: ${cause}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For synchronous work between its steps: throws the signal's reason once it
 * is aborted, or once its deadline (`withDeadline`) has passed, aborting it
 * then. `doing` names the work in the error.
 */
export function throwIfPastDeadline(signal: AbortSignal | undefined, doing: string): void {
  if (!signal) return;
  const deadline = due.get(signal);
  if (!signal.aborted && deadline && Date.now() >= deadline.at) deadline.expire(doing);
  signal.throwIfAborted();
}

function describeMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}
