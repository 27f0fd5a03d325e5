import type { BrowserContext, Page } from 'playwright-core';
import type { ClockControl } from '../contract/renderer-control.js';

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
    return this.#context.clock.install(time === null ? {} : { time });
  }

  setFixedTime(time: Date): Promise<void> {
    return this.#context.clock.setFixedTime(time);
  }

  setSystemTime(time: Date): Promise<void> {
    return this.#context.clock.setSystemTime(time);
  }

  advance(ms: number): Promise<void> {
    return this.#context.clock.fastForward(ms);
  }

  runFor(ms: number): Promise<void> {
    return this.#context.clock.runFor(ms);
  }

  pauseAt(time: Date): Promise<void> {
    return this.#context.clock.pauseAt(time);
  }

  resume(): Promise<void> {
    return this.#context.clock.resume();
  }

  async now(): Promise<Date | null> {
    for (const page of this.#pages()) {
      const now = await page.evaluate(() => Date.now()).catch(() => null);
      if (now !== null) return new Date(now);
    }
    return null;
  }
}
