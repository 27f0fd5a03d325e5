import { describe, expect, it } from 'vitest';
import { TransportError } from '../contract/transport-error.js';
import { InjectDeadline } from './inject-deadline.js';

describe('InjectDeadline', () => {
  it("says a protocol call's own timeout inside a step as the inject timing out in that step", async () => {
    const deadline = new InjectDeadline(4242, 30_000);
    const timedOut = new TransportError('timeout', 'no answer within 10 ms.', { method: 'Runtime.evaluate' });
    await expect(deadline.step('reading the app', Promise.reject(timedOut))).rejects.toMatchObject({
      code: 'INJECT_TIMEOUT',
      details: { pid: 4242, step: 'reading the app' },
    });
  });

  it.each([
    ['closed', 'the DevTools connection closed before it answered.'],
    ['protocol', 'TypeError: agent is undefined'],
    ['unreachable', 'Cannot open the DevTools websocket ws://127.0.0.1:9/x: connection refused.'],
  ] as const)(
    'says a %s inspector as a failed inject naming the step, not a session code',
    async (kind, what) => {
      const deadline = new InjectDeadline(4242, 30_000);
      const failure = new TransportError(kind, what, { method: 'Runtime.evaluate' });
      const step = deadline.step('installing the inject agent', Promise.reject(failure));
      await expect(step).rejects.toMatchObject({
        code: 'INJECT_FAILED',
        message: expect.stringMatching(
          /^Cannot inject into pid 4242: Runtime\.evaluate: .*\(while installing the inject agent\)\.$/,
        ),
        cause: failure,
      });
    },
  );

  it('names every step it took, with its start and length, and the one still running when time ran out', async () => {
    const deadline = new InjectDeadline(4242, 50);
    await deadline.step('reading the app', Promise.resolve(true));
    const never = new Promise<never>(() => undefined);
    const error = await deadline.step('waiting for the inject agent to connect back', never).catch((e) => e);
    expect(error).toMatchObject({ code: 'INJECT_TIMEOUT' });
    const { steps } = error.details as { steps: { step: string; atMs: number; tookMs: number | null }[] };
    expect(steps.map((taken) => taken.step)).toEqual([
      'reading the app',
      'waiting for the inject agent to connect back',
    ]);
    expect(steps[0]?.tookMs).toEqual(expect.any(Number));
    expect(steps[1]?.tookMs).toBeNull();
  });

  it('passes on any other failure as it is', async () => {
    const other = new Error('something else');
    await expect(
      new InjectDeadline(4242, 30_000).step('listing its windows', Promise.reject(other)),
    ).rejects.toBe(other);
  });
});
