import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { MemoryStreams } from '../../test/helpers/memory-streams.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { ConsoleEntry } from '../sessions/console-log.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { Cluster } from './cluster.js';
import { ClusterEvents, consoleFeed, sessionEventFeed } from './cluster-events.js';

/** Knows b-s1 (another replica's) and nothing else, as the directory would. */
const directory = {
  session: async (id: string | null | undefined) => {
    if (id === 'b-s1') return {} as Awaited<ReturnType<Cluster['session']>>;
    throw new StagegraphError('SESSION_NOT_FOUND', `No session ${id}.`);
  },
};
/** A registry that holds none of the sessions asked about: they are all elsewhere. */
const noLocalSessions = { find: () => undefined } as unknown as SessionRegistry;

function sources() {
  const hub = new EventHub<SessionTopics>();
  const streams = new MemoryStreams();
  const clusterEvents = new ClusterEvents(streams, hub, directory, (error) => {
    throw error;
  });
  return { hub, sessions: noLocalSessions, clusterEvents, streams };
}

const line = (seq: number, text: string): ConsoleEntry => ({
  seq,
  sessionId: 'b-s1',
  time: new Date(1_000 * seq),
  type: 'log',
  text,
  source: 'RENDERER',
  windowId: 'w1',
  location: null,
});

describe('subscriptions across replicas', () => {
  it("reads another replica's session from its stream, filtered as the owner filters, with times as Dates", async () => {
    const owner = sources();
    for (const entry of [line(1, 'hello'), line(2, 'noise'), line(3, 'hello again')])
      owner.hub.publish('console', entry);
    const reader = {
      hub: new EventHub<SessionTopics>(),
      sessions: noLocalSessions,
      clusterEvents: new ClusterEvents(owner.streams, new EventHub<SessionTopics>(), directory, () => {}),
    };
    const feed = await consoleFeed(reader, { session: 'b-s1', after: '0', textContains: 'hello' });
    const first = (await feed.next()).value;
    const second = (await feed.next()).value;
    expect([first?.cursor, second?.cursor]).toEqual(['1', '3']);
    expect(second?.event).toEqual(line(3, 'hello again'));
    await feed.return?.();
  });

  it('refuses an unknown session, and a cursor that is not one, before reading', async () => {
    const { hub, sessions, clusterEvents } = sources();
    await expect(sessionEventFeed({ hub, sessions, clusterEvents }, 'zz-s9', null)).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    expect(() => sessionEventFeed({ hub, sessions, clusterEvents }, 'b-s1', 'last')).toThrow(
      /takes the `cursor` of an event/,
    );
    expect(() => consoleFeed({ hub, sessions, clusterEvents }, { after: '3' })).toThrow(/give `session` too/);
  });

  it('refuses `after` without a cluster: there is no stream to resume from', () => {
    const hub = new EventHub<SessionTopics>();
    expect(() => sessionEventFeed({ hub, sessions: noLocalSessions }, 'a-s1', '3')).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT' }),
    );
  });
});
