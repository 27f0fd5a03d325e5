import { describe, expect, it } from 'vitest';
import { EventHub, MAX_SUBSCRIBERS, MAX_SUBSCRIPTIONS_PER_CLIENT } from './event-hub.js';

type Topics = { tick: { session: string; n: number } };

describe('EventHub', () => {
  it('fans out to every accepting subscriber and forgets closed ones', async () => {
    const hub = new EventHub<Topics>();
    const all = hub.subscribe('tick');
    const onlyB = hub.subscribe('tick', { accepts: (event) => event.session === 'b' });
    hub.publish('tick', { session: 'a', n: 1 });
    hub.publish('tick', { session: 'b', n: 2 });
    expect(all.pending).toBe(2);
    expect((await onlyB.next()).value?.event).toEqual({ session: 'b', n: 2 });
    expect(hub.subscriberCount).toBe(2);
    await all.return();
    expect(hub.subscriberCount).toBe(1);
  });

  it('an observer sees each event of its topic as it is published, uncounted, until removed', () => {
    const hub = new EventHub<Topics>();
    const seen: number[] = [];
    const remove = hub.observe('tick', (event) => seen.push(event.n));
    hub.publish('tick', { session: 'a', n: 1 });
    expect(seen).toEqual([1]);
    expect(hub.subscriberCount).toBe(0);
    remove();
    hub.publish('tick', { session: 'a', n: 2 });
    expect(seen).toEqual([1]);
  });

  it('a stalled subscriber does not hold back a reading one', async () => {
    const hub = new EventHub<Topics>();
    const stalled = hub.subscribe('tick', { capacity: 10 });
    const reader = hub.subscribe('tick', { capacity: 10 });
    const received: number[] = [];
    for (let n = 0; n < 1_000; n += 1) {
      hub.publish('tick', { session: 'a', n });
      received.push((await reader.next()).value!.event.n);
    }
    expect(received).toHaveLength(1_000);
    expect(stalled.pending).toBe(10);
    expect(stalled.droppedTotal).toBe(990);
  });

  it('admits a client up to its share, a quarter of the server, and another client beside it', () => {
    const hub = new EventHub<Topics>();
    expect(MAX_SUBSCRIPTIONS_PER_CLIENT).toBe(MAX_SUBSCRIBERS / 4);
    const first = {};
    const held = Array.from({ length: MAX_SUBSCRIPTIONS_PER_CLIENT }, () => hub.admit([first]));
    expect(() => hub.admit([first])).toThrow(
      expect.objectContaining({ code: 'CLIENT_LIMIT', details: expect.objectContaining({ share: 500 }) }),
    );
    expect(() => hub.admit([{}])).not.toThrow();
    held[0]?.();
    expect(() => hub.admit([first])).not.toThrow();
  });
});
