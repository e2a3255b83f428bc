/**
 * Runs tasks with at most `limit` in flight. The first failure stops new tasks
 * from starting, aborts `abort` (so tasks in flight can stop early) and is thrown
 * once the tasks in flight have settled.
 */
export async function runBounded(tasks: readonly (() => Promise<void>)[], limit: number, abort?: AbortController): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < tasks.length && !failure) {
      const task = tasks[next++];
      if (!task) break;
      try {
        await task();
      } catch (error) {
        failure ??= { error };
        abort?.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  if (failure) throw failure.error;
}

/**
 * A shared bound on calls in flight: `run(call)` starts the call when fewer
 * than `limit` are running, in the order the calls were handed in.
 */
export function createLimiter(limit: number): <R>(call: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished call hands its slot straight to the next waiting one.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async <R>(call: () => Promise<R>): Promise<R> => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await call();
    } finally {
      release();
    }
  };
}
