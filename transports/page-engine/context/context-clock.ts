import type { BrowserContext, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { ClockControl } from '../../contract/renderer-control.js';
import { CDP_CALL_TIMEOUT_MS } from '../../protocol/cdp-connection.js';
import { healthOf } from '../renderer/renderer-health.js';
import { withinContextDeadline } from './context-deadline.js';

/**
 * The fake clock of every page of a BrowserContext, through Playwright's `context.clock`: timers and Date
 * in current and future documents follow it once installed.
 */
export class PlaywrightClock implements ClockControl {
  readonly #context: BrowserContext;
  readonly #pages: () => readonly Page[];

  constructor(context: BrowserContext, pages: () => readonly Page[]) {
    this.#context = context;
    this.#pages = pages;
  }

  install(time: Date | null): Promise<void> {
    return this.#bounded('clock install', this.#context.clock.install(time === null ? {} : { time }));
  }

  setFixedTime(time: Date): Promise<void> {
    return this.#bounded('clock setFixedTime', this.#context.clock.setFixedTime(time));
  }

  setSystemTime(time: Date): Promise<void> {
    return this.#bounded('clock setSystemTime', this.#context.clock.setSystemTime(time));
  }

  advance(ms: number): Promise<void> {
    return this.#bounded('clock advance', this.#context.clock.fastForward(ms));
  }

  runFor(ms: number): Promise<void> {
    return this.#bounded('clock runFor', this.#context.clock.runFor(ms));
  }

  pauseAt(time: Date): Promise<void> {
    return this.#bounded('clock pauseAt', this.#context.clock.pauseAt(time));
  }

  resume(): Promise<void> {
    return this.#bounded('clock resume', this.#context.clock.resume());
  }

  async now(): Promise<Date | null> {
    for (const page of this.#pages()) {
      const now = await healthOf(page)
        .guard('reading the clock', CDP_CALL_TIMEOUT_MS, () => page.evaluate(() => Date.now()))
        .catch(() => null);
      if (now !== null) return new Date(now);
    }
    return null;
  }

  /** The clock evaluates in every page: one that does not answer must not hold the call for good. */
  #bounded(what: string, work: Promise<void>): Promise<void> {
    return withinContextDeadline(what, this.#pages(), CDP_CALL_TIMEOUT_MS, work).catch((error: unknown) => {
      throw refusedTime(error);
    });
  }
}

/** What Playwright's clock says of a time it cannot move to: the caller's input, not the gateway's fault. */
const REFUSED_TIME = /Cannot fast-forward to the past|Invalid date|Invalid time/i;

function refusedTime(error: unknown): unknown {
  if (!(error instanceof Error) || !REFUSED_TIME.test(error.message)) return error;
  const reason = error.message.split('\n')[0]?.replace(/^clock\.\w+: (?:Error: )?/, '');
  return new StagegraphError('BAD_INPUT', `The fake clock refused the time: ${reason}.`, {
    hint: "A paused or fixed clock only moves forward: give a time after the clock's now (`session { clock { now } }`), or install the clock again at an earlier time.",
    cause: error,
  });
}
