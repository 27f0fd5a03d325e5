import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { MemoryStreams, writingBoot } from '../../test/helpers/memory-streams.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import type { ConsoleEntry } from '../sessions/console-log.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { ClusterEvents } from './cluster-events.js';
import type { DirectoryEntry } from './cluster-store.js';
import { RemoteSession } from './remote-session.js';
import { TOPIC_FEEDS, topicFeed } from './topic-feeds.js';

const entryOf = (status: DirectoryEntry['status']): DirectoryEntry => ({
  id: 'b-s1',
  replicaId: 'b',
  epoch: 1,
  status,
  transportId: 'playwright-electron',
  startedAt: new Date(0),
  endedAt: null,
});

/** Knows b-s1 (another replica's) and nothing else, as the directory would; `lose` marks it LOST. */
function fakeDirectory() {
  const listeners = new Set<(entry: DirectoryEntry) => void>();
  let status: DirectoryEntry['status'] = 'RUNNING';
  return {
    session: async (id: string | null | undefined) => {
      if (id === 'b-s1') return new RemoteSession(entryOf(status), undefined);
      throw new StagegraphError('SESSION_NOT_FOUND', `No session ${id}.`);
    },
    onLost: (listener: (entry: DirectoryEntry) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replica: () => undefined,
    ...writingBoot('a'),
    assertServing: () => {},
    lose: () => {
      status = 'LOST';
      for (const listener of listeners) listener(entryOf('LOST'));
    },
    listeners,
  };
}
const directory = fakeDirectory();
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
    const feed = await topicFeed(reader, TOPIC_FEEDS.console, {
      session: 'b-s1',
      after: '0',
      textContains: 'hello',
    });
    const first = (await feed.next()).value;
    const second = (await feed.next()).value;
    expect([first?.cursor, second?.cursor]).toEqual(['1', '3']);
    expect(second?.event).toEqual(line(3, 'hello again'));
    await feed.return?.();
  });

  it("refuses, once this replica is fenced, to read another replica's stream or a cluster-wide topic", async () => {
    const fenced = {
      ...fakeDirectory(),
      assertServing: () => {
        throw new StagegraphError('REPLICA_FENCED', 'Replica a lost its lease.');
      },
    };
    const clusterEvents = new ClusterEvents(
      new MemoryStreams(),
      new EventHub<SessionTopics>(),
      fenced,
      () => {},
    );
    const feeds = { hub: new EventHub<SessionTopics>(), sessions: noLocalSessions, clusterEvents };
    await expect(topicFeed(feeds, TOPIC_FEEDS.console, { session: 'b-s1' })).rejects.toMatchObject({
      code: 'REPLICA_FENCED',
    });
    expect(() => clusterEvents.topicEntries('audit', 0, 10)).toThrow(
      expect.objectContaining({ code: 'REPLICA_FENCED' }),
    );
    await expect(
      clusterEvents.topicFeed({ topic: 'audit', after: null, shape: (event) => event, accepts: () => true }),
    ).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
  });

  it('refuses an unknown session, and a cursor that is not one, before reading', async () => {
    const { hub, sessions, clusterEvents } = sources();
    const feeds = { hub, sessions, clusterEvents };
    await expect(topicFeed(feeds, TOPIC_FEEDS.sessionEvent, { session: 'zz-s9' })).rejects.toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    expect(() => topicFeed(feeds, TOPIC_FEEDS.network, { session: 'b-s1', after: 'last' })).toThrow(
      /takes the `cursor` of an event/,
    );
    expect(() => topicFeed(feeds, TOPIC_FEEDS.ipc, { after: '3' })).toThrow(/give `session` too/);
  });

  it('refuses `after` without a cluster: there is no stream to resume from', () => {
    const hub = new EventHub<SessionTopics>();
    expect(() =>
      topicFeed({ hub, sessions: noLocalSessions }, TOPIC_FEEDS.sessionEvent, {
        session: 'a-s1',
        after: '3',
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
  });

  it("ends a subscription to a session whose owner is lost: SESSION_LOST, or sessionEvents' own LOST event", async () => {
    const lossy = fakeDirectory();
    const owner = sources();
    const reader = {
      hub: new EventHub<SessionTopics>(),
      sessions: noLocalSessions,
      clusterEvents: new ClusterEvents(owner.streams, new EventHub<SessionTopics>(), lossy, () => {}),
    };
    owner.hub.publish('notification', {
      seq: 1,
      sessionId: 'b-s1',
      title: 'Saved',
      body: '',
      subtitle: '',
      silent: false,
      urgency: 'normal',
      time: new Date(0),
      beforeArm: false,
    });
    const notifications = await topicFeed(reader, TOPIC_FEEDS.notification, { session: 'b-s1', after: '0' });
    const events = await topicFeed(reader, TOPIC_FEEDS.sessionEvent, { session: 'b-s1' });
    const waiting = events.next();
    lossy.lose();
    expect((await notifications.next()).value?.event).toMatchObject({ title: 'Saved' });
    await expect(notifications.next()).rejects.toMatchObject({
      code: 'SESSION_LOST',
      message: expect.stringContaining('replica b'),
    });
    expect((await waiting).value?.event).toMatchObject({ type: 'LOST', sessionId: 'b-s1', status: 'LOST' });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(lossy.listeners.size).toBe(0);
    // Opened once the session is LOST, a subscription ends at once.
    const late = await topicFeed(reader, TOPIC_FEEDS.network, { session: 'b-s1' });
    await expect(late.next()).rejects.toMatchObject({ code: 'SESSION_LOST' });
  });
});
