import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stoppable, tracked } from '../../test/helpers/stoppable.js';
import { TransportError } from '../contract/transport-error.js';
import { MAIN_ANSWER_MARGIN_MS, MAIN_CALL_TIMEOUT_MS, withMainDeadline } from './main-call-deadline.js';

/**
 * A main process that can be stopped and continued: while stopped, calls wait; on continue they run, as a
 * stopped process runs what its inspector queued. A call's source runs as the main process would run it.
 */
function fakeMain() {
  const mainProcess = stoppable();
  const ran: unknown[] = [];
  const execute = (source: string, arg: unknown) => {
    // biome-ignore lint/security/noGlobalEval: runs the call's source as the main process would
    const compile = globalThis.eval;
    const value = compile(source)(null, arg);
    ran.push(value);
    return value;
  };
  const run = vi.fn(
    (source: string, arg?: unknown) =>
      new Promise<unknown>((resolve, reject) =>
        mainProcess.whenRunning(() => {
          try {
            resolve(execute(source, arg));
          } catch (error) {
            reject(error);
          }
        }),
      ),
  );
  return { run, ran, stop: mainProcess.stop, resume: mainProcess.resume };
}

const CALL = '(electron, arg) => arg';

describe('withMainDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a call on a stopped main process at its deadline with MAIN_NOT_RESPONDING', async () => {
    const main = fakeMain();
    const run = withMainDeadline(main.run);
    main.stop();
    const call = tracked(run(CALL, 'invoke'));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS - 1);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.result).toMatchObject({
      code: 'MAIN_NOT_RESPONDING',
      retryable: true,
      details: { silentMs: MAIN_CALL_TIMEOUT_MS },
    });
  });

  it('gives a call made while the process is known silent only the rest of the first call’s time', async () => {
    const main = fakeMain();
    const run = withMainDeadline(main.run);
    main.stop();
    const read = tracked(run(CALL, 'menu'));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS);
    expect(await read.result).toMatchObject({ code: 'MAIN_NOT_RESPONDING' });
    const invoke = tracked(run(CALL, 'invoke'));
    await vi.advanceTimersByTimeAsync(MAIN_ANSWER_MARGIN_MS);
    expect(await invoke.result).toMatchObject({ code: 'MAIN_NOT_RESPONDING' });
  });

  it('works again once the process is continued, with the whole timeout', async () => {
    const main = fakeMain();
    const run = withMainDeadline(main.run);
    main.stop();
    const stalled = tracked(run(CALL, 'a'));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS);
    expect(await stalled.result).toMatchObject({ code: 'MAIN_NOT_RESPONDING' });
    main.resume();
    await expect(run(CALL, 'b')).resolves.toBe('b');
    main.stop();
    const next = tracked(run(CALL, 'c'));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS - 1);
    expect(next.settled).toBe(false);
  });

  it('does not run, once continued, a call it already answered MAIN_NOT_RESPONDING for', async () => {
    const main = fakeMain();
    const run = withMainDeadline(main.run);
    main.stop();
    const invoke = tracked(run(CALL, 'clicked'));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS + 1);
    expect(await invoke.result).toMatchObject({ code: 'MAIN_NOT_RESPONDING' });
    main.resume();
    await expect(run(CALL, 'again')).resolves.toBe('again');
    expect(main.ran).toEqual(['again']);
  });

  it("names the protocol call's own timeout as the process not answering; other failures pass", async () => {
    const timedOut = withMainDeadline(() =>
      Promise.reject(
        new TransportError('timeout', 'no answer within 10000 ms.', { method: 'Runtime.evaluate' }),
      ),
    );
    await expect(timedOut('a')).rejects.toMatchObject({ code: 'MAIN_NOT_RESPONDING' });
    const threw = withMainDeadline(() => Promise.reject(new TransportError('protocol', 'TypeError: nope')));
    await expect(threw('a')).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('leaves calls that wait by design to whoever asked', async () => {
    const main = fakeMain();
    const run = withMainDeadline(main.run);
    main.stop();
    const poll = tracked(run(CALL, 'next', { waits: true }));
    await vi.advanceTimersByTimeAsync(MAIN_CALL_TIMEOUT_MS * 3);
    expect(poll.settled).toBe(false);
    main.resume();
    expect(await poll.result).toBe('next');
  });
});
