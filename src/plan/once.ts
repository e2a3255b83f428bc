/**
 * `compute()` on the first call, its result after: what a plan computes only
 * when something reads it. `compute` is let go once called, and with it what it
 * would have read (a plan kept for long must not hold the live state it came from).
 */
export function once<T>(compute: () => T): () => T {
  let pending: (() => T) | undefined = compute;
  let value: T | undefined;
  return () => {
    if (pending) {
      value = pending();
      pending = undefined;
    }
    return value as T;
  };
}
