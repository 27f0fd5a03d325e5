/**
 * Rejects with `timedOut()` when `promise` has not settled within `ms`. The promise keeps running (a
 * protocol call cannot be taken back), but nobody waits on it past the deadline.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
