/**
 * The overall deadline of a one-shot command's reading of the account. Without
 * it, a host that accepts connections and never answers costs every attempt's
 * full request timeout, retries included (over 3 minutes). The error names the
 * host and what the calls were doing when time ran out.
 */
import { ApiTimeoutError } from '../errors.js';

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

function describeMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}
