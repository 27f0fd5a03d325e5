/**
 * How long a count may stand still before a wait calls it stuck, and how long a single change a test
 * caused may take to show (`expect.poll`'s 1 s default is a quiet machine's figure): far longer than any
 * pause a loaded machine puts between two events, far shorter than a flood test's own timeout.
 */
export const STALL_MS = 60_000;
/** Reads are cheap; this only spaces them out. */
const READ_INTERVAL_MS = 250;

/**
 * Waits until what `read` returns is `done`, for as long as it keeps changing: a slow machine only makes
 * the wait longer, while a value that stops changing short of done fails with where it stopped. Nothing
 * here depends on how fast the events come. Returns the value that was done.
 */
export async function whileMoving<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  stallMs = STALL_MS,
  explain?: () => string,
): Promise<T> {
  let last = await read();
  let movedAt = Date.now();
  while (!done(last)) {
    if (Date.now() - movedAt > stallMs)
      throw new Error(
        `${what}: stuck at ${JSON.stringify(last)} for ${stallMs / 1000} s${explain ? `; ${explain()}` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, READ_INTERVAL_MS));
    const now = await read();
    if (JSON.stringify(now) !== JSON.stringify(last)) movedAt = Date.now();
    last = now;
  }
  return last;
}

/**
 * Waits until a count reaches `expected` while it keeps rising; one that overshoots fails at once. A stall's
 * error ends with what `explain` says about the state behind the count.
 */
export async function countReaches(
  read: () => number | undefined | Promise<number | undefined>,
  expected: number,
  what: string,
  stallMs = STALL_MS,
  explain?: () => string,
): Promise<void> {
  const past = (count: number | undefined) => count !== undefined && count > expected;
  const last = await whileMoving(
    read,
    (count) => count === expected || past(count),
    `${what} (of ${expected})`,
    stallMs,
    explain,
  );
  if (past(last)) throw new Error(`${what}: ${last}, past the ${expected} expected`);
}
