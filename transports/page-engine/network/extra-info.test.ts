import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkExtraInfo } from './extra-info.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('NetworkExtraInfo', () => {
  it('gives each hop that has ExtraInfo its own pair, in order, whether they came before or after', async () => {
    const extra = new NetworkExtraInfo();
    extra.request({ cookie: 'a' });
    extra.response({ 'set-cookie': 'b' });
    const first = extra.nextHop('wait');
    const none = extra.nextHop('none');
    const second = extra.nextHop('wait');
    extra.request({ cookie: 'b' });
    extra.response({ 'set-cookie': 'c' });
    expect(await first).toEqual({ request: { cookie: 'a' }, response: { 'set-cookie': 'b' } });
    expect(await none).toEqual({ request: undefined, response: undefined });
    expect(await second).toEqual({ request: { cookie: 'b' }, response: { 'set-cookie': 'c' } });
  });

  it('stops waiting after its timeout, or when released, with what came', async () => {
    const extra = new NetworkExtraInfo();
    extra.request({ cookie: 'a' });
    const timedOut = extra.nextHop('wait');
    await vi.runAllTimersAsync();
    expect(await timedOut).toEqual({ request: { cookie: 'a' }, response: undefined });
    const released = extra.nextHop('wait');
    extra.release();
    expect(await released).toEqual({ request: undefined, response: undefined });
  });

  it('peeks without waiting for a hop that never said whether it has any', async () => {
    const extra = new NetworkExtraInfo();
    extra.request({ cookie: 'a' });
    expect(await extra.nextHop('peek')).toEqual({ request: { cookie: 'a' }, response: undefined });
  });
});
