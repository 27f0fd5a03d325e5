import { describe, expect, it } from 'vitest';
import { MemoryStreams } from '../../test/helpers/memory-streams.js';
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
    const writer = new SessionStreamWriter(streams, hub, (error) => {
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
    const writer = new SessionStreamWriter(streams, hub, (error) => failures.push(error));
    streams.failure = new Error('Redis is gone.');
    hub.publish('console', entry('a-s1', 1));
    streams.failure = null;
    hub.publish('console', entry('a-s1', 2));
    await writer.close();
    hub.publish('console', entry('a-s1', 3));
    expect(failures).toEqual([expect.objectContaining({ message: 'Redis is gone.' })]);
    expect(streams.streams.get(streamOf('a-s1', 'console'))?.map(({ number }) => number)).toEqual([2]);
  });
});
