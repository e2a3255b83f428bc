/**
 * The one polling helper of the suite: waits for something the test cannot
 * be told about directly (a process's output, a listing, a loop's state).
 * Where the code under test takes a scheduler, tests drive it instead
 * (manual-scheduler.ts) and poll nothing.
 */

/**
 * Polls `check` (sync or async) until it returns a value other than
 * `undefined` or `false`, and returns that value. Fails after `timeoutMs`
 * naming `what` and the last error `check` threw.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
