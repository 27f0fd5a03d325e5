import { EventEmitter } from 'node:events';
import { errors, type Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { stoppable, tracked } from '../../../test/helpers/stoppable.js';
import { healthOf, RENDERER_SLOW_CALL_MS, RendererHealth, watchRenderer } from './renderer-health.js';
import { RENDERER_ANSWER_MARGIN_MS, RENDERER_ASK_AFTER_MS } from './renderer-liveness.js';

/**
 * A page whose renderer can be stopped and continued as SIGSTOP and SIGCONT do: while stopped, every
 * evaluation waits, and on continue they all answer. It can crash on demand.
 */
function fakeRenderer() {
  const events = new EventEmitter();
  const renderer = stoppable();
  const page = Object.assign(events, {
    evaluate: () => new Promise<boolean>((resolve) => renderer.whenRunning(() => resolve(true))),
  }) as unknown as Page;
  return { page, stop: renderer.stop, resume: renderer.resume, crash: () => events.emit('crash') };
}

const never = () => new Promise<never>(() => {});
/** Work that completes after `ms`, as a slow operation on a live renderer does. */
const completesAfter =
  <T>(ms: number, value: T) =>
  () =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('RendererHealth', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails a pending call with RENDERER_CRASHED when the renderer crashes, and later calls at once', async () => {
    const { page, crash } = fakeRenderer();
    const health = new RendererHealth(page);
    const pending = health.guard('click', 5_000, never);
    crash();
    await expect(pending).rejects.toMatchObject({ code: 'RENDERER_CRASHED', retryable: false });
    const work = vi.fn(never);
    await expect(health.guard('snapshot', 5_000, work)).rejects.toMatchObject({ code: 'RENDERER_CRASHED' });
    expect(work).not.toHaveBeenCalled();
  });

  it('knows of a crash from before its driver existed: noted where the transport tracked the page', async () => {
    const { page, crash } = fakeRenderer();
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
    const health = new RendererHealth(fakeRenderer().page);
    const failed = health.guard('click', 5_000, () =>
      Promise.reject(new StagegraphError('ACTION_TIMEOUT', 'failed', { cause: new Error('Target crashed') })),
    );
    await expect(failed).rejects.toMatchObject({ code: 'RENDERER_CRASHED' });
  });

  it('answers a call on a stopped renderer at its own deadline plus the margin, with RENDERER_NOT_RESPONDING', async () => {
    const renderer = fakeRenderer();
    renderer.stop();
    const call = tracked(healthOf(renderer.page).guard('click on test id "log"', 2_000, never));
    await vi.advanceTimersByTimeAsync(2_000 - 1);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(RENDERER_ANSWER_MARGIN_MS + 1);
    expect(call.settled).toBe(true);
    expect(await call.result).toMatchObject({
      code: 'RENDERER_NOT_RESPONDING',
      retryable: true,
      details: { silentMs: expect.any(Number) },
      message: expect.stringContaining('click on test id "log" did not complete'),
    });
  });

  it('works again once the renderer is continued', async () => {
    const renderer = fakeRenderer();
    const health = healthOf(renderer.page);
    renderer.stop();
    const stalled = tracked(health.guard('snapshot', 1_000, never));
    await vi.advanceTimersByTimeAsync(1_000 + RENDERER_ANSWER_MARGIN_MS);
    expect(await stalled.result).toMatchObject({ code: 'RENDERER_NOT_RESPONDING' });
    renderer.resume();
    const again = health.guard('snapshot', 1_000, completesAfter(300, 'read'));
    await vi.advanceTimersByTimeAsync(300);
    await expect(again).resolves.toBe('read');
  });

  it('gives a call on a renderer silent since before it only the rest of its time, and hands the call that time', async () => {
    const renderer = fakeRenderer();
    const health = healthOf(renderer.page);
    renderer.stop();
    // A preview's short wait finds the renderer silent first; the action that follows has what is left of
    // its own time, counted from when the renderer fell silent, and sets its own timeouts to it.
    const preview = tracked(health.guard('finding x', 1_000, never));
    await vi.advanceTimersByTimeAsync(1_000 + RENDERER_ANSWER_MARGIN_MS);
    expect(await preview.result).toMatchObject({ code: 'RENDERER_NOT_RESPONDING' });
    const given: number[] = [];
    const click = tracked(
      health.guard('click on x', 2_000, (ms) => {
        given.push(ms);
        return never();
      }),
    );
    const left = RENDERER_ASK_AFTER_MS + 2_000 - (1_000 + RENDERER_ANSWER_MARGIN_MS);
    expect(given).toEqual([left]);
    await vi.advanceTimersByTimeAsync(left - 1);
    expect(click.settled).toBe(false);
    // Silent throughout: nothing it sent was taken in, so it has no margin to wait for its own report.
    await vi.advanceTimersByTimeAsync(1);
    expect(click.settled).toBe(true);
    expect(await click.result).toMatchObject({ code: 'RENDERER_NOT_RESPONDING' });
  });

  it("lets an action's own timeout say it reached a page that then stopped answering", async () => {
    const renderer = fakeRenderer();
    // The click is dispatched, then the page's handler blocks it; the action's own timeout says so.
    const dispatched = (ms: number) =>
      new Promise<never>((_, reject) => {
        setTimeout(renderer.stop, 50);
        setTimeout(
          () =>
            reject(
              new StagegraphError('ACTION_UNCONFIRMED', 'click reached the page but was not confirmed.'),
            ),
          ms + 10,
        );
      });
    const call = tracked(healthOf(renderer.page).guard('click on save', 2_000, dispatched));
    await vi.advanceTimersByTimeAsync(2_000 + RENDERER_ANSWER_MARGIN_MS);
    expect(await call.result).toMatchObject({ code: 'ACTION_UNCONFIRMED' });
  });

  it('never fails a call that completes in time, even when the renderer leaves the question unanswered', async () => {
    const renderer = fakeRenderer();
    renderer.stop();
    const done = healthOf(renderer.page).guard('snapshot', 2_000, completesAfter(1_900, 'read'));
    await vi.advanceTimersByTimeAsync(1_900);
    await expect(done).resolves.toBe('read');
  });

  it('lets a slow call on a live renderer finish within the margin past its deadline', async () => {
    const health = healthOf(fakeRenderer().page);
    const done = health.guard(
      'snapshot',
      1_000,
      completesAfter(1_000 + RENDERER_ANSWER_MARGIN_MS - 50, 'read'),
    );
    await vi.advanceTimersByTimeAsync(1_000 + RENDERER_ANSWER_MARGIN_MS);
    await expect(done).resolves.toBe('read');
  });

  it('answers ACTION_TIMEOUT by the deadline and margin when a live renderer never finishes the call', async () => {
    const call = tracked(healthOf(fakeRenderer().page).guard('snapshot', 3_000, never));
    await vi.advanceTimersByTimeAsync(3_000 + RENDERER_ANSWER_MARGIN_MS - 1);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.settled).toBe(true);
    expect(await call.result).toMatchObject({ code: 'ACTION_TIMEOUT', details: { rendererAnswering: true } });
  });

  it('gives a read-it-now call (bound 1 ms) on a live but loaded renderer RENDERER_SLOW_CALL_MS', async () => {
    const read = healthOf(fakeRenderer().page).guard(
      'finding x',
      1,
      completesAfter(RENDERER_SLOW_CALL_MS - 100, 'x'),
    );
    await vi.advanceTimersByTimeAsync(RENDERER_SLOW_CALL_MS);
    await expect(read).resolves.toBe('x');
  });

  it('turns a bare Playwright timeout into ACTION_TIMEOUT, never an unexpected error', async () => {
    const health = healthOf(fakeRenderer().page);
    const timedOut = () => Promise.reject(new errors.TimeoutError('elementHandle: Timeout 200ms exceeded.'));
    await expect(health.guard('finding x', 200, timedOut)).rejects.toMatchObject({
      code: 'ACTION_TIMEOUT',
      message: 'finding x did not complete within its timeout.',
    });
  });

  it('names a stopped renderer, not a missing element, when a wait for the element ran out', async () => {
    const renderer = fakeRenderer();
    const health = healthOf(renderer.page);
    const missing = () => Promise.reject(new StagegraphError('SELECTOR_NO_MATCH', 'No element matches.'));
    await expect(health.guard('finding x', 1_000, missing)).rejects.toMatchObject({
      code: 'SELECTOR_NO_MATCH',
    });
    renderer.stop();
    const stopped = tracked(health.guard('finding x', 1_000, missing));
    await vi.advanceTimersByTimeAsync(RENDERER_ANSWER_MARGIN_MS);
    expect(await stopped.result).toMatchObject({ code: 'RENDERER_NOT_RESPONDING' });
  });

  it("keeps the call's own timeout when the renderer answered during the call, however slow it is now", async () => {
    const renderer = fakeRenderer();
    const missing = () =>
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new StagegraphError('SELECTOR_NO_MATCH', 'No element matches.')), 1_000),
      );
    const call = tracked(healthOf(renderer.page).guard('finding x', 1_000, missing));
    await vi.advanceTimersByTimeAsync(RENDERER_ASK_AFTER_MS);
    // A loaded machine: a fresh question now would take longer than the margin to answer.
    renderer.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await call.result).toMatchObject({ code: 'SELECTOR_NO_MATCH' });
  });

  it('says the window closed when Playwright reports the page or browser gone', async () => {
    const health = healthOf(fakeRenderer().page);
    const closed = () =>
      Promise.reject(new Error('page.evaluate: Target page, context or browser has been closed'));
    await expect(health.guard('snapshot', 1_000, closed)).rejects.toMatchObject({
      code: 'SESSION_NOT_RUNNING',
    });
  });
});
