// Subscriptions besides console to a session another replica owns (notifications here; network, dialogs,
// nativeDialogs, ipc and contextMenus read their streams the same way), and what a subscriber on another
// replica is told when the owner dies (docs/cluster.md, "Events across replicas").
import { parse } from 'graphql';
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

  it('kill -9 of the owner ends the subscription with SESSION_LOST, and sessionEvents reports LOST', async () => {
    const notifications = cluster.subscribe(cluster.a, NOTIFICATIONS, { session: 'b-s1' });
    await notifyUntilStreaming(notifications);
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
    expect(error.extensions).toMatchObject({ code: 'SESSION_LOST' });
    expect(error.message).toMatch(/b-s1 is LOST: its replica b lost its lease/);
  });
});
