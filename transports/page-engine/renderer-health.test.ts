import { EventEmitter } from 'node:events';
import { errors, type Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { RENDERER_PROBE_MS, RendererHealth, watchRenderer } from './renderer-health.js';

/** A page whose renderer answers, or not, as the test says; it can crash on demand. */
function fakePage(answers: { now: boolean }) {
  const events = new EventEmitter();
  const page = Object.assign(events, {
    evaluate: () => (answers.now ? Promise.resolve(true) : new Promise<never>(() => {})),
  });
  return { page: page as unknown as Page, crash: () => events.emit('crash') };
}

const never = () => new Promise<never>(() => {});

describe('RendererHealth', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails a pending call with RENDERER_CRASHED when the renderer crashes, and later calls at once', async () => {
    const { page, crash } = fakePage({ now: true });
    const health = new RendererHealth(page);
    const pending = health.guard('click', 5_000, never);
    crash();
    await expect(pending).rejects.toMatchObject({ code: 'RENDERER_CRASHED', retryable: false });
    const work = vi.fn(never);
    await expect(health.guard('snapshot', 5_000, work)).rejects.toMatchObject({ code: 'RENDERER_CRASHED' });
    expect(work).not.toHaveBeenCalled();
  });

  it('knows of a crash from before its driver existed: noted where the transport tracked the page', async () => {
    const { page, crash } = fakePage({ now: true });
    watchRenderer(page);
    crash();
    await expect(new RendererHealth(page).guard('click', 5_000, never)).rejects.toMatchObject({
      code: 'RENDERER_CRASHED',
    });
  });

  it('names a crash the probe finds after a wait ran out, not a missing element', async () => {
    const page = Object.assign(new EventEmitter(), {
      evaluate: () => Promise.reject(new Error('page.evaluate: Target crashed')),
    }) as unknown as Page;
    const missing = () => Promise.reject(new StagegraphError('SELECTOR_NO_MATCH', 'No element matches.'));
    await expect(new RendererHealth(page).guard('finding x', 1_000, missing)).rejects.toMatchObject({
      code: 'RENDERER_CRASHED',
    });
  });

  it("reads Playwright's crash message (before the event has arrived) as RENDERER_CRASHED", async () => {
    const health = new RendererHealth(fakePage({ now: true }).page);
    const failed = health.guard('click', 5_000, () =>
      Promise.reject(new StagegraphError('ACTION_TIMEOUT', 'failed', { cause: new Error('Target crashed') })),
    );
    await expect(failed).rejects.toMatchObject({ code: 'RENDERER_CRASHED' });
  });

  it('gives up on a renderer that does not answer, past the bound and the probe, as ACTION_TIMEOUT', async () => {
    const health = new RendererHealth(fakePage({ now: false }).page);
    const pending = health.guard('click on test id "log"', 2_000, never);
    const settled = vi.fn();
    pending.catch(settled);
    await vi.advanceTimersByTimeAsync(2_000 + RENDERER_PROBE_MS);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(RENDERER_PROBE_MS);
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'ACTION_TIMEOUT',
      retryable: true,
      details: { rendererAnswering: false },
      message: expect.stringContaining('click on test id "log" did not complete'),
    });
  });

  it('keeps waiting on a slow operation while the renderer answers', async () => {
    const health = new RendererHealth(fakePage({ now: true }).page);
    let finish: (value: string) => void = () => {};
    const pending = health.guard(
      'snapshot',
      1_000,
      () => new Promise<string>((resolve) => (finish = resolve)),
    );
    await vi.advanceTimersByTimeAsync(3 * (1_000 + RENDERER_PROBE_MS));
    finish('done');
    await expect(pending).resolves.toBe('done');
  });

  it('turns a bare Playwright timeout into ACTION_TIMEOUT, never an unexpected error', async () => {
    const health = new RendererHealth(fakePage({ now: true }).page);
    const timedOut = () => Promise.reject(new errors.TimeoutError('elementHandle: Timeout 200ms exceeded.'));
    await expect(health.guard('finding x', 200, timedOut)).rejects.toMatchObject({
      code: 'ACTION_TIMEOUT',
      message: 'finding x did not complete within its timeout.',
    });
  });

  it('names a stopped renderer, not a missing element, when a wait for the element ran out', async () => {
    const answers = { now: true };
    const health = new RendererHealth(fakePage(answers).page);
    const missing = () => Promise.reject(new StagegraphError('SELECTOR_NO_MATCH', 'No element matches.'));
    await expect(health.guard('finding x', 1_000, missing)).rejects.toMatchObject({
      code: 'SELECTOR_NO_MATCH',
    });
    answers.now = false;
    const stopped = health.guard('finding x', 1_000, missing).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(RENDERER_PROBE_MS);
    expect(await stopped).toMatchObject({ code: 'ACTION_TIMEOUT', details: { rendererAnswering: false } });
  });
});
