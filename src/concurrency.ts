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
