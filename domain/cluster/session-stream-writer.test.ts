import { describe, expect, it } from 'vitest';
import { MemoryStreams, writingBoot } from '../../test/helpers/memory-streams.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { ConsoleEntry } from '../sessions/console-log.js';
import { streamOf } from './event-streams.js';
import { SessionStreamWriter } from './session-stream-writer.js';

const entry = (sessionId: string, seq: number): ConsoleEntry => ({
  seq,
  sessionId,
  time: new Date(0),
  type: 'log',
  text: `line ${seq}`,
  source: 'RENDERER',
  windowId: 'w1',
  location: null,
});

describe('SessionStreamWriter', () => {
  it('numbers each session’s events in publishing order, appends them, and names the number as the cursor', async () => {
    const hub = new EventHub<SessionTopics>();
    const streams = new MemoryStreams();
    const writer = new SessionStreamWriter(streams, hub, writingBoot('a'), (error) => {
      throw error;
    });
    const published = [entry('a-s1', 1), entry('a-s2', 1), entry('a-s1', 2)];
    for (const event of published) hub.publish('console', event);
    expect(published.map((event) => writer.cursorOf(event))).toEqual(['1', '1', '2']);
    await writer.close();
    expect(streams.streams.get(streamOf('a-s1', 'console'))?.map(({ number }) => number)).toEqual([1, 2]);
    expect(JSON.parse(streams.streams.get(streamOf('a-s2', 'console'))?.[0]?.json ?? '')).toMatchObject({
      sessionId: 'a-s2',
      text: 'line 1',
    });
  });

  it('reports a failed append and numbers on, so readers see the hole; after close it writes nothing', async () => {
    const hub = new EventHub<SessionTopics>();
    const streams = new MemoryStreams();
    const failures: unknown[] = [];
    const writer = new SessionStreamWriter(streams, hub, writingBoot('a'), (error) => failures.push(error));
    streams.failure = new Error('Redis is gone.');
    hub.publish('console', entry('a-s1', 1));
    streams.failure = null;
    hub.publish('console', entry('a-s1', 2));
    await writer.close();
    hub.publish('console', entry('a-s1', 3));
    expect(failures).toEqual([expect.objectContaining({ message: 'Redis is gone.' })]);
    expect(streams.streams.get(streamOf('a-s1', 'console'))?.map(({ number }) => number)).toEqual([2]);
  });

  it('numbers and appends nothing once its replica is fenced; local subscribers still get the event', async () => {
    const hub = new EventHub<SessionTopics>();
    const streams = new MemoryStreams();
    const boot = writingBoot('a');
    const writer = new SessionStreamWriter(streams, hub, boot, (error) => {
      throw error;
    });
    const local: ConsoleEntry[] = [];
    hub.observe('console', (event) => local.push(event));
    boot.fenced = true;
    const late = entry('a-s1', 1);
    hub.publish('console', late);
    await writer.close();
    expect(writer.cursorOf(late)).toBeUndefined();
    expect(streams.streams.size).toBe(0);
    expect(local).toEqual([late]);
  });

  it('an event published before its replica learnt it was fenced is refused by the store, which fences it', async () => {
    const hub = new EventHub<SessionTopics>();
    const streams = new MemoryStreams();
    const boot = writingBoot('a', 1);
    const writer = new SessionStreamWriter(streams, hub, boot, (error) => {
      throw error;
    });
    hub.publish('console', entry('a-s1', 1));
    // Reaped while paused (or a later boot of its id joined): the store holds another boot now.
    streams.holders.set('a', 2);
    hub.publish('console', entry('a-s1', 2));
    await writer.close();
    expect(streams.streams.get(streamOf('a-s1', 'console'))?.map(({ number }) => number)).toEqual([1]);
    expect(boot).toMatchObject({ fenced: true, refused: 1 });
  });
});
