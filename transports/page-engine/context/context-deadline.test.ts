import { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENDERER_ANSWER_MARGIN_MS } from '../renderer/renderer-liveness.js';
import { withinContextDeadline } from './context-deadline.js';

/** A page that answers every evaluation, or (stopped) none. */
function fakePage(stopped: boolean): Page {
  return Object.assign(new EventEmitter(), {
    evaluate: () => (stopped ? new Promise<never>(() => {}) : Promise.resolve(true)),
  }) as unknown as Page;
}

const never = new Promise<never>(() => {});

describe('withinContextDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names a stopped page of the context when the call runs past its deadline', async () => {
    const call = withinContextDeadline('clock install', [fakePage(false), fakePage(true)], 1_000, never);
    const failed = call.catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(1_000 + RENDERER_ANSWER_MARGIN_MS);
    expect(await failed).toMatchObject({ code: 'RENDERER_NOT_RESPONDING' });
  });

  it('says CDP_TIMEOUT when every page answers and the call still did not', async () => {
    const call = withinContextDeadline('reading cookies', [fakePage(false)], 1_000, never);
    const failed = call.catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await failed).toMatchObject({ code: 'CDP_TIMEOUT' });
  });

  it('passes the answer of a call that completes in time', async () => {
    await expect(
      withinContextDeadline('reading cookies', [fakePage(true)], 1_000, Promise.resolve(3)),
    ).resolves.toBe(3);
  });
});
