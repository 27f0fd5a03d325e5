import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ClockControl } from '../../transports/contract/renderer-control.js';
import { pageStateActions } from './next-actions.js';

/**
 * The longest a single advance or runFor may cover: a day of fake time runs every timer due in it, and
 * an interval of a few milliseconds would make that millions of callbacks in the page.
 */
export const CLOCK_STEP_MAX_MS = 24 * 60 * 60 * 1000;

export interface ClockState {
  readonly installed: boolean;
  readonly paused: boolean;
  /** The fake time the page reads; null when not installed or no window answers. */
  readonly now: Date | null;
}

/** A session's fake clock: the transport moves time, this remembers what state it was left in. */
export class SessionClock {
  readonly #sessionId: string;
  readonly #control: () => ClockControl;
  #installed = false;
  #paused = false;

  constructor(sessionId: string, control: () => ClockControl) {
    this.#sessionId = sessionId;
    this.#control = control;
  }

  async state(): Promise<ClockState> {
    const now = this.#installed ? await this.#control().now() : null;
    return { installed: this.#installed, paused: this.#paused, now };
  }

  async install(time: Date | null): Promise<ClockState> {
    await this.#control().install(time);
    this.#installed = true;
    return this.state();
  }

  async setFixedTime(time: Date): Promise<ClockState> {
    await this.#control().setFixedTime(time);
    this.#installed = true;
    return this.state();
  }

  async setSystemTime(time: Date): Promise<ClockState> {
    await this.#control().setSystemTime(time);
    this.#installed = true;
    return this.state();
  }

  async advance(ms: number): Promise<ClockState> {
    await this.#installedControl().advance(this.#step(ms));
    return this.state();
  }

  async runFor(ms: number): Promise<ClockState> {
    await this.#installedControl().runFor(this.#step(ms));
    return this.state();
  }

  async pauseAt(time: Date): Promise<ClockState> {
    await this.#installedControl().pauseAt(time);
    this.#paused = true;
    return this.state();
  }

  async resume(): Promise<ClockState> {
    await this.#installedControl().resume();
    this.#paused = false;
    return this.state();
  }

  #step(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0 || ms > CLOCK_STEP_MAX_MS) {
      throw new StagegraphError('BAD_INPUT', `A clock step must be 0..${CLOCK_STEP_MAX_MS} ms, got ${ms}.`);
    }
    return ms;
  }

  #installedControl(): ClockControl {
    if (this.#installed) return this.#control();
    throw new StagegraphError(
      'CLOCK_NOT_INSTALLED',
      `Session ${this.#sessionId} has no fake clock installed.`,
      {
        nextActions: [pageStateActions.installClock(this.#sessionId)],
      },
    );
  }
}
