import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ClockControl } from '../../transports/contract/renderer-control.js';
import { pageStateActions } from './next-actions.js';

/**
 * The longest a single advance or runFor may cover: a day of fake time runs every timer due in it, and
 * an interval of a few milliseconds would make that millions of callbacks in the page.
 */
export const CLOCK_STEP_MAX_MS = 24 * 60 * 60 * 1000;

/**
 * The instants a fake clock may be set to: years 0000 to 9999, what ISO-8601 writes without an expanded
 * year. JavaScript's Date ends at ±8.64e15 ms (year ±275760); a clock set near that end ran past it within
 * a millisecond, and every later read of `now` (a Date past the end, which cannot be printed) answered
 * INTERNAL. From 9999, steps of at most CLOCK_STEP_MAX_MS would take some 97 million calls to get there.
 */
export const CLOCK_TIME_MIN = new Date('0000-01-01T00:00:00.000Z');
export const CLOCK_TIME_MAX = new Date('9999-12-31T23:59:59.999Z');

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
    // A page's clock this gateway did not set (the app's own fake, say) can read past Date's end.
    return { installed: this.#installed, paused: this.#paused, now: now && inDateRange(now) ? now : null };
  }

  async install(time: Date | null): Promise<ClockState> {
    await this.#control().install(time === null ? null : this.#time(time));
    this.#installed = true;
    return this.state();
  }

  async setFixedTime(time: Date): Promise<ClockState> {
    await this.#control().setFixedTime(this.#time(time));
    this.#installed = true;
    return this.state();
  }

  async setSystemTime(time: Date): Promise<ClockState> {
    await this.#control().setSystemTime(this.#time(time));
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
    await this.#installedControl().pauseAt(this.#time(time));
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

  /** Every clock mutation names its instant `time`. */
  #time(time: Date): Date {
    if (time >= CLOCK_TIME_MIN && time <= CLOCK_TIME_MAX) return time;
    const shown = inDateRange(time) ? time.toISOString() : String(time.getTime());
    throw new StagegraphError(
      'BAD_INPUT',
      `A fake clock's \`time\` must be in years 0000 to 9999, got ${shown}.`,
      {
        hint: `Give an ISO-8601 instant from ${CLOCK_TIME_MIN.toISOString()} to ${CLOCK_TIME_MAX.toISOString()}.`,
        details: { argument: 'time' },
      },
    );
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

const inDateRange = (date: Date) => !Number.isNaN(date.getTime());
