import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENDERER_ASK_AFTER_MS } from '../renderer/renderer-liveness.js';
import { pageTitle, TITLE_SILENCE_MS, TITLE_WAIT_MS } from './page-title.js';

/**
 * A page whose renderer answers (with `title`, after `titleMs` when set) or, once stopped, leaves every
 * question waiting.
 */
function fakePage(title: string) {
  const state = { stopped: false, titleMs: 0 };
  const waiting = new Promise<never>(() => {});
  const page = Object.assign(new EventEmitter(), {
    title: () =>
      state.stopped
        ? waiting
        : state.titleMs === 0
          ? Promise.resolve(title)
          : new Promise<string>((resolve) => setTimeout(() => resolve(title), state.titleMs)),
    evaluate: () => (state.stopped ? waiting : Promise.resolve(true)),
  }) as unknown as Page;
  return { page, state };
}

describe('pageTitle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the last title known once a stopped renderer has been silent for TITLE_SILENCE_MS', async () => {
    const { page, state } = fakePage('Ledger');
    await expect(pageTitle(page)).resolves.toBe('Ledger');
    state.stopped = true;
    const settled = vi.fn();
    const reading = pageTitle(page).then((title) => {
      settled();
      return title;
    });
    await vi.advanceTimersByTimeAsync(RENDERER_ASK_AFTER_MS + TITLE_SILENCE_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(reading).resolves.toBe('Ledger');
    // Known silent: the next listing does not wait the silence out again.
    const next = pageTitle(page);
    await vi.advanceTimersByTimeAsync(RENDERER_ASK_AFTER_MS);
    await expect(next).resolves.toBe('Ledger');
  });

  it('waits for a slow title while the renderer answers, up to TITLE_WAIT_MS', async () => {
    const { page, state } = fakePage('Ledger');
    state.titleMs = TITLE_SILENCE_MS + 500;
    const reading = pageTitle(page);
    await vi.advanceTimersByTimeAsync(TITLE_SILENCE_MS + 500);
    await expect(reading).resolves.toBe('Ledger');
    expect(TITLE_SILENCE_MS + 500).toBeLessThan(TITLE_WAIT_MS);
  });
});
