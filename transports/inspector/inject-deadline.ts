import { StagegraphError } from '../../errors/stagegraph-error.js';
import { withDeadline } from '../deadline.js';

/**
 * One inject's time budget, shared by its steps: each step waits at most for what is left of it, and a
 * step that outlives it fails as INJECT_TIMEOUT naming that step. A process that is stopped, or an
 * inspector that accepts a connection and never answers, cannot hold an inject (or a shutdown) past it.
 */
export class InjectDeadline {
  readonly pid: number;
  readonly timeoutMs: number;
  readonly #end: number;

  constructor(pid: number, timeoutMs: number) {
    this.pid = pid;
    this.timeoutMs = timeoutMs;
    this.#end = Date.now() + timeoutMs;
  }

  remainingMs(): number {
    return Math.max(0, this.#end - Date.now());
  }

  get expired(): boolean {
    return this.remainingMs() === 0;
  }

  /**
   * `work` within what is left of the budget. `late` receives what the step made if it finishes after
   * the deadline (an open connection, say), so it is closed rather than left behind.
   */
  step<T>(name: string, work: Promise<T>, late?: (made: T) => unknown): Promise<T> {
    return withDeadline(work, this.remainingMs(), () => this.timedOut(name)).catch((error: unknown) => {
      if (!(error instanceof StagegraphError)) throw error;
      // A protocol call's own deadline inside the step is the step running out of time too.
      if (error.code !== 'INJECT_TIMEOUT' && error.code !== 'CDP_TIMEOUT') throw error;
      if (late) void work.then(late).catch(() => undefined);
      throw error.code === 'INJECT_TIMEOUT' ? error : this.timedOut(name);
    });
  }

  timedOut(step: string): StagegraphError {
    return new StagegraphError(
      'INJECT_TIMEOUT',
      `Inject into pid ${this.pid} timed out after ${this.timeoutMs} ms while ${step}.`,
      {
        details: { pid: this.pid, step, timeoutMs: this.timeoutMs },
        nextActions: [
          'query { sessions { id pid status } }',
          `mutation { inject(input: { pid: ${this.pid}, timeoutMs: ${Math.min(this.timeoutMs * 2, 120_000)} }) { id status } }`,
        ],
      },
    );
  }
}
