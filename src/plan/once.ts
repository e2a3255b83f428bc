/** `compute()` on the first call, its result after: what a plan computes only when something reads it. */
export function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}
