import { StagegraphError } from '../../errors/stagegraph-error.js';
import { TransportError } from '../contract/transport-error.js';
import { transportActions } from '../contract/transport-next-actions.js';
import { withDeadline } from '../protocol/deadline.js';
import { injectFailed } from './inject-failed.js';

/**
 * One inject's time budget, shared by its steps: each step waits at most for what is left of it, and a
 * step that outlives it fails as INJECT_TIMEOUT naming that step. A process that is stopped, or an
 * inspector that accepts a connection and never answers, cannot hold an inject (or a shutdown) past it.
 * The server's shutdown abandons the inject through `signal`: every step, running or to come, fails at once.
 */
export class InjectDeadline {
  readonly pid: number;
  readonly timeoutMs: number;
  readonly #start = Date.now();
  readonly #end: number;
  readonly #abandoned: Promise<never>;
  /** Each step begun, with when (ms into the budget) and, once it ended, how long it took. */
  readonly #steps: { step: string; atMs: number; tookMs: number | null }[] = [];
  #aborted: StagegraphError | null = null;

  constructor(pid: number, timeoutMs: number, signal?: AbortSignal) {
    this.pid = pid;
    this.timeoutMs = timeoutMs;
    this.#end = Date.now() + timeoutMs;
    this.#abandoned = new Promise<never>((_, reject) => {
      const abandon = () => {
        this.#aborted = new StagegraphError(
          'INJECT_FAILED',
          `Inject into pid ${pid} was abandoned: the server is shutting down.`,
        );
        reject(this.#aborted);
      };
      if (signal?.aborted) abandon();
      else signal?.addEventListener('abort', abandon, { once: true });
    });
    this.#abandoned.catch(() => undefined);
  }

  remainingMs(): number {
    return this.#aborted ? 0 : Math.max(0, this.#end - Date.now());
  }

  get expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** Whether the server's shutdown gave up on this inject (rather than its budget running out). */
  get abandoned(): boolean {
    return this.#aborted !== null;
  }

  /**
   * `work` within what is left of the budget. `late` receives what the step made if it finishes after
   * the step gave up on it (an open connection, say), so it is closed rather than left behind.
   */
  step<T>(name: string, work: Promise<T>, late?: (made: T) => unknown): Promise<T> {
    const begun = { step: name, atMs: Date.now() - this.#start, tookMs: null as number | null };
    this.#steps.push(begun);
    const ended = () => {
      begun.tookMs = Date.now() - this.#start - begun.atMs;
    };
    work.then(ended, ended);
    const running = Promise.race([work, this.#abandoned]);
    return withDeadline(running, this.remainingMs(), () => this.timedOut(name)).catch((error: unknown) => {
      // A protocol call's own deadline inside the step is the step running out of time too.
      const callTimedOut = error instanceof TransportError && error.kind === 'timeout';
      const stepTimedOut = error instanceof StagegraphError && error.code === 'INJECT_TIMEOUT';
      if (this.#aborted !== null || callTimedOut || stepTimedOut) {
        if (late) void work.then(late).catch(() => undefined);
        throw callTimedOut ? this.timedOut(name) : error;
      }
      // The inspector went away or refused mid-inject: there is no session yet for SESSION_NOT_RUNNING
      // or ATTACH_FAILED's hints to speak of, so it is said as a failed inject, naming the step.
      if (error instanceof TransportError) {
        throw injectFailed(this.pid, `${error.message.replace(/\.$/, '')} (while ${name})`, error);
      }
      throw error;
    });
  }

  /**
   * Why `step` gave up: the inject was abandoned, or its budget is spent. The steps taken so far, each
   * with its start and length, say where the budget went: a slow start or one step that never ended.
   */
  timedOut(step: string): StagegraphError {
    if (this.#aborted) return this.#aborted;
    return new StagegraphError(
      'INJECT_TIMEOUT',
      `Inject into pid ${this.pid} timed out after ${this.timeoutMs} ms while ${step}.`,
      {
        details: {
          pid: this.pid,
          step,
          timeoutMs: this.timeoutMs,
          steps: this.#steps.map((taken) => ({ ...taken })),
        },
        nextActions: [
          'query { sessions { id pid status } }',
          transportActions.injectAgain(this.pid, this.timeoutMs),
        ],
      },
    );
  }
}
