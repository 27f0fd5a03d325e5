/**
 * A process that can be stopped and continued as SIGSTOP and SIGCONT do, for unit tests of deadlines: while it
 * is stopped, every call waits; on continue, the waiting calls all answer in the order they were made.
 */
export function stoppable() {
  let stopped = false;
  let waiting: (() => void)[] = [];
  return {
    /** Runs `answer` now, or when the process is continued. */
    whenRunning(answer: () => void) {
      if (stopped) waiting.push(answer);
      else answer();
    },
    stop() {
      stopped = true;
    },
    resume() {
      stopped = false;
      for (const answer of waiting) answer();
      waiting = [];
    },
  };
}

/** The promise, and a flag saying whether it has settled yet: a rejection is kept as the result, not thrown. */
export function tracked<T>(promise: Promise<T>) {
  const state = { settled: false, result: promise.catch((caught: unknown) => caught) };
  void state.result.then(() => {
    state.settled = true;
  });
  return state;
}
