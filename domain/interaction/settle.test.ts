import { describe, expect, it } from 'vitest';
import type { PendingRequest, RequestWatch, WindowDriver } from '../../transports/contract/window-driver.js';
import { settle } from './settle.js';

/** A page that is quiet at once: its change count never moves. */
const quietPage = { nextChange: async () => 1 } as unknown as WindowDriver;

/** A watch the test drives: requests start and finish when the test says. */
function drivenWatch() {
  const pending = new Map<string, PendingRequest>();
  const waiters = new Set<() => void>();
  let finished = 0;
  const watch: RequestWatch = {
    get finished() {
      return finished;
    },
    pending: () => [...pending.values()],
    idle: (timeoutMs) =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            waiters.add(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
    end: () => {},
  };
  return {
    watch,
    start(url: string) {
      pending.set(url, { method: 'GET', url, resourceType: 'fetch' });
    },
    finish(url: string) {
      pending.delete(url);
      finished += 1;
      if (pending.size === 0) for (const waiter of waiters) waiter();
    },
  };
}

/** Long enough that a test relying on it never hits it: only events end these waits. */
const NEVER_REACHED_MS = 60_000;

describe('settle', () => {
  it('waits for the requests the action started, however long they take within the bound', async () => {
    const page = drivenWatch();
    page.start('/api/order');
    let done = false;
    const settling = settle(quietPage, page.watch, NEVER_REACHED_MS).then((report) => {
      done = true;
      return report;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    page.finish('/api/order');
    expect(await settling).toMatchObject({ requestsFinished: 1, stillPending: [] });
  });

  it('waits in turn for a request that starts while the page settles', async () => {
    const page = drivenWatch();
    let reads = 0;
    // The follow-up request begins while the page is read for quiet, as a response handler's would.
    const startsLater = {
      nextChange: async () => {
        reads += 1;
        if (reads === 1) {
          page.start('/api/follow-up');
          setTimeout(() => page.finish('/api/follow-up'), 50);
        }
        return 1;
      },
    } as unknown as WindowDriver;
    const report = await settle(startsLater, page.watch, NEVER_REACHED_MS);
    expect(report).toMatchObject({ requestsFinished: 1, stillPending: [] });
  });

  it('gives up at the bound and names what was still running', async () => {
    const page = drivenWatch();
    page.start('/api/long-poll');
    const report = await settle(quietPage, page.watch, 100);
    expect(report.stillPending).toEqual([{ method: 'GET', url: '/api/long-poll', resourceType: 'fetch' }]);
    expect(report.requestsFinished).toBe(0);
  });
});
