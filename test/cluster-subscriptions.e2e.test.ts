// Subscriptions besides console to a session another replica owns (notifications here; network, dialogs,
// nativeDialogs, ipc and contextMenus read their streams the same way), and what a subscriber on another
// replica is told when the owner dies (docs/cluster.md, "Events across replicas"), over graphql-ws and SSE
// alike: SSE has no `error` event, and a stream's failure is its last result, then `event: complete` (yoga's
// request handler maps it through maskError). Each stream replica a reads for a subscriber holds a Redis
// connection of its own: counting them shows the stream ended.
import { parse, print } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOSS_DEADLINE_MS } from './helpers/cluster-replicas.js';
import {
  delivered,
  LAUNCH,
  STREAM_WAIT_MS,
  type Streamed,
  startTwoReplicas,
  type TwoReplicas,
  untilStreaming,
} from './helpers/cluster-streams.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import type { Subscription } from './helpers/gateway.js';
import type { GatewayClient, Loose } from './helpers/gateway-client.js';
import { describeWithRedis } from './helpers/redis-suite.js';
import { type SseStream, sseStream } from './helpers/sse-frames.js';
import { connectionsTo } from './helpers/tcp-connections.js';

const NOTIFICATIONS = parse(`subscription ($session: ID!, $after: String) {
  notifications(session: $session, after: $after) { cursor droppedBefore notification { seq sessionId title } }
}`);

type Delivered = Streamed<
  'notification',
  { readonly seq: number; readonly sessionId: string; readonly title: string }
>;

describeWithRedis('subscriptions across replicas', () => {
  let cluster: TwoReplicas;

  const notificationsIn = (feed: Subscription<Loose>) => delivered<Delivered>(feed, 'notifications');

  /** One click of the fixture's notify button, sent to `via`: one notification "Hello" on b-s1. */
  const notifyOnce = (via: GatewayClient) =>
    via.data('mutation { click(session: "b-s1", target: { testId: "notify" }) { __typename } }');

  /** Notifies until the subscription has delivered one: then it is surely reading. */
  const notifyUntilStreaming = (feed: Subscription<Loose>) =>
    untilStreaming(feed, () => notifyOnce(cluster.onB), 'b-s1');

  /** The same, for a subscription over SSE. */
  async function notifyUntilStreamingOverSse(feed: SseStream<Loose>) {
    const deadline = Date.now() + STREAM_WAIT_MS;
    while (feed.results.length === 0) {
      if (Date.now() > deadline) throw new Error('no event on the SSE subscription to b-s1');
      await notifyOnce(cluster.onB);
      await feed.waitFor(() => true, 2_000).catch(() => undefined);
    }
    expect(feed.results[0]?.data?.notifications.notification).toMatchObject({ sessionId: 'b-s1' });
  }

  /** Replica a's connections to Redis: one more for each stream of b-s1 it reads for a subscriber. */
  const redisConnectionsOfA = () => connectionsTo(cluster.a.pid, Number(new URL(cluster.redis.url).port));

  const notificationsOverSse = () =>
    sseStream<Loose>(cluster.a.url, print(NOTIFICATIONS), { session: 'b-s1' });

  beforeAll(async () => {
    cluster = await startTwoReplicas();
    await cluster.onB.data(LAUNCH, { input: fixtureLaunch() });
    await cluster.onB.data(
      'mutation { armNotifications(session: "b-s1", titleContains: "Hello") { armed } }',
    );
  });
  afterAll(() => cluster?.end());

  it("a notifications subscription on one replica streams another's session, and resumes there from its cursor", async () => {
    const first = cluster.subscribe(cluster.a, NOTIFICATIONS, { session: 'b-s1' });
    await notifyUntilStreaming(first);
    const last = notificationsIn(first).at(-1) as Delivered;
    expect(last.notification).toMatchObject({ sessionId: 'b-s1', title: 'Hello' });
    expect(last.cursor).toMatch(/^\d+$/);
    first.dispose();
    for (let i = 0; i < 2; i += 1) await notifyOnce(cluster.onA);
    const resumed = cluster.subscribe(cluster.a, NOTIFICATIONS, { session: 'b-s1', after: last.cursor });
    await expect.poll(() => resumed.received.length, { timeout: STREAM_WAIT_MS }).toBeGreaterThanOrEqual(2);
    const events = notificationsIn(resumed);
    expect(resumed.errors).toEqual([]);
    expect(events.every((event) => event.droppedBefore === 0 && event.notification.title === 'Hello')).toBe(
      true,
    );
    expect(events.every((event) => event.notification.seq > last.notification.seq)).toBe(true);
    const cursors = events.map((event) => Number(event.cursor));
    expect(cursors[0]).toBeGreaterThan(Number(last.cursor));
    expect(cursors).toEqual([...cursors].sort((x, y) => x - y));
    resumed.dispose();
  });

  it('an SSE subscription whose client goes away ends the stream it read', async () => {
    const before = redisConnectionsOfA();
    const feed = notificationsOverSse();
    await notifyUntilStreamingOverSse(feed);
    await expect.poll(redisConnectionsOfA, { timeout: STREAM_WAIT_MS }).toBe(before + 1);
    await feed.close();
    await expect.poll(redisConnectionsOfA, { timeout: STREAM_WAIT_MS }).toBe(before);
  });

  it('kill -9 of the owner ends the subscription with SESSION_LOST over graphql-ws and SSE alike, and sessionEvents reports LOST', async () => {
    const before = redisConnectionsOfA();
    const notifications = cluster.subscribe(cluster.a, NOTIFICATIONS, { session: 'b-s1' });
    await notifyUntilStreaming(notifications);
    const overSse = notificationsOverSse();
    await notifyUntilStreamingOverSse(overSse);
    const sseEnding = { settled: false, failure: undefined as unknown };
    void overSse.ended.then((failure) => Object.assign(sseEnding, { settled: true, failure }));
    // From the stream's start: it is surely reading before the owner dies.
    const lifecycle = cluster.subscribe(
      cluster.a,
      'subscription { sessionEvents(session: "b-s1", after: "0") { type status cursor } }',
    );
    await lifecycle.waitFor((value) => value.sessionEvents.type === 'STARTED', STREAM_WAIT_MS);
    await cluster.replicas.killHard('b');
    const lost = await lifecycle.waitFor((value) => value.sessionEvents.type === 'LOST', LOSS_DEADLINE_MS);
    expect(lost.sessionEvents).toEqual({ type: 'LOST', status: 'LOST', cursor: null });
    expect(lifecycle.errors).toEqual([]);
    await expect.poll(() => notifications.errors.length, { timeout: LOSS_DEADLINE_MS }).toBeGreaterThan(0);
    const [error] = (notifications.errors as Loose[][])[0] ?? [];
    expect(error.extensions).toMatchObject({
      code: 'SESSION_LOST',
      hint: expect.any(String),
      retryable: false,
      nextActions: expect.any(Array),
    });
    expect(error.message).toMatch(/b-s1 is LOST: its replica b lost its lease/);

    // Over SSE: the same errors as a last result, then complete; a stream cut short would never end.
    await expect
      .poll(() => sseEnding.settled, {
        timeout: LOSS_DEADLINE_MS,
        message: "the SSE stream did not end after its session's owner died",
      })
      .toBe(true);
    expect(sseEnding.failure).toBeUndefined();
    expect(overSse.results.at(-1)).toEqual({ errors: [error] });
    expect(overSse.frames.at(-1)).toBe('event: complete\ndata:');
    await expect.poll(redisConnectionsOfA, { timeout: STREAM_WAIT_MS }).toBe(before);
  });
});
