import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { buildSchema, parse } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { buildSchema as buildGatewaySchema } from '../schema/index.js';
import { CLUSTER_SECRET_HEADER, FORWARDED_BY_HEADER, FORWARDED_EPOCH_HEADER } from './owner-routing.js';
import {
  RELAYED_FIELDS,
  type RelayCluster,
  RelayedErrors,
  type RelayStreamOptions,
  relayedSession,
  relayStream,
  SubscriptionRelay,
} from './subscription-relay.js';

describe('which subscriptions are relayed, and for which session', () => {
  const session = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
    relayedSession(parse(query), operationName, variables);

  it('a screencast or snapshotChanges naming a session, literally or by variable', () => {
    expect(session('subscription { screencast(session: "b-s1") { seq } }')).toBe('b-s1');
    expect(
      session('subscription ($s: ID) { snapshotChanges(session: $s) { windowId } }', { s: 'b-s2' }),
    ).toBe('b-s2');
    expect(
      session(
        'subscription One { console { text } } subscription Two { screencast(session: "b-s3") { seq } }',
        {},
        'Two',
      ),
    ).toBe('b-s3');
  });

  it("names subscriptions of the gateway's schema that take a `session`", () => {
    const subscriptions = buildGatewaySchema().getSubscriptionType()?.getFields() ?? {};
    for (const name of RELAYED_FIELDS)
      expect(
        subscriptions[name]?.args.map((arg) => arg.name),
        name,
      ).toContain('session');
  });

  it('nothing else: other subscriptions, queries, a session left to the registry, several or spread fields', () => {
    expect(session('subscription { console(session: "b-s1") { text } }')).toBeNull();
    expect(session('query { screencast(session: "b-s1") }')).toBeNull();
    expect(session('subscription { snapshotChanges { windowId } }')).toBeNull();
    expect(session('subscription ($s: ID) { snapshotChanges(session: $s) { windowId } }', {})).toBeNull();
    expect(
      session(
        'subscription { a: screencast(session: "b-s1") { seq } b: screencast(session: "b-s1") { seq } }',
      ),
    ).toBeNull();
    expect(
      session('subscription { ...F } fragment F on Subscription { screencast(session: "b-s1") { seq } }'),
    ).toBeNull();
  });
});

describe('where a subscription runs in a cluster', () => {
  const owner: ReplicaRecord = {
    id: 'b',
    url: 'http://127.0.0.1:1/graphql',
    status: 'UP',
    epoch: 1,
    lastSeen: new Date(0),
    sessions: 1,
  } as ReplicaRecord;
  const cluster = {
    replicaId: 'a',
    settings: { renewMs: 2_000, leaseMs: 6_000 },
    ownerElsewhere: async (id: string) => (id.startsWith('b-') ? owner : null),
    stillUp: async () => true,
    /** Fenced, as the store says: replica z's boot 4, whose record reads DOWN. */
    assertForwardedBy: async (sender: string, epoch: number | null) => {
      if (sender === 'z' && epoch === 4)
        throw new StagegraphError('REPLICA_FENCED', 'Replica z, which forwarded this call, lost its lease.');
    },
  } as unknown as RelayCluster;
  const screencast = parse('subscription { screencast(session: "b-s1") { seq } }');
  const payload = { query: 'subscription { screencast(session: "b-s1") { seq } }' };

  it("on the session's owner when another replica owns it", async () => {
    const relay = new SubscriptionRelay(() => cluster, null);
    expect(await relay.route(screencast, payload, false)).toEqual({ session: 'b-s1', owner });
    const own = parse('subscription { screencast(session: "a-s1") { seq } }');
    expect(await relay.route(own, payload, false)).toBeNull();
  });

  it('here without a cluster, and here when another replica relayed it (never twice)', async () => {
    expect(await new SubscriptionRelay(() => null, null).route(screencast, payload, false)).toBeNull();
    expect(await new SubscriptionRelay(() => cluster, null).route(screencast, payload, true)).toBeNull();
  });

  it('a relayed connection must carry the cluster secret', async () => {
    const relay = new SubscriptionRelay(() => cluster, 'secret');
    await expect(relay.assertForwardedFrom({})).resolves.toBeUndefined();
    await expect(
      relay.assertForwardedFrom({ [FORWARDED_BY_HEADER]: 'c', [CLUSTER_SECRET_HEADER]: 'secret' }),
    ).resolves.toBeUndefined();
    for (const presented of ['wrong', undefined])
      await expect(
        relay.assertForwardedFrom({ [FORWARDED_BY_HEADER]: 'c', [CLUSTER_SECRET_HEADER]: presented }),
      ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('a relayed connection from a boot the cluster fenced is refused, whatever its secret', async () => {
    const relay = new SubscriptionRelay(() => cluster, 'secret');
    await expect(
      relay.assertForwardedFrom({
        [FORWARDED_BY_HEADER]: 'z',
        [FORWARDED_EPOCH_HEADER]: '4',
        [CLUSTER_SECRET_HEADER]: 'secret',
      }),
    ).rejects.toMatchObject({ code: 'REPLICA_FENCED' });
  });
});

/**
 * A graphql-ws server standing in for the owner: `count(n)` streams 1..n, `open` never ends. With
 * `refusal`, it closes every connection at connection_init as the gateway refuses a credential.
 */
async function ownerServer(refusal?: string) {
  const schema = buildSchema(
    'type Query { ok: Boolean } type Subscription { count(n: Int!): Int open: Int }',
  );
  const http: Server = createHttpServer();
  const wsServer = new WebSocketServer({ server: http, path: '/graphql' });
  const upgrades: IncomingHttpHeaders[] = [];
  const params: unknown[] = [];
  const closed: Promise<void>[] = [];
  wsServer.on('connection', (socket, request) => {
    upgrades.push(request.headers);
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  const roots = {
    subscription: {
      count: async function* ({ n }: { n: number }) {
        for (let i = 1; i <= n; i += 1) yield { count: i };
      },
      open: () => ({
        [Symbol.asyncIterator]() {
          return this;
        },
        next: () => new Promise<never>(() => {}),
        return: async () => ({ value: undefined, done: true }),
      }),
    },
  };
  const onConnect = (ctx: {
    connectionParams?: unknown;
    extra: { socket: { close(code: number, reason: string): void } };
  }) => {
    params.push(ctx.connectionParams);
    if (refusal === undefined) return true;
    ctx.extra.socket.close(4403, refusal);
    return false;
  };
  useServer({ schema, roots, onConnect }, wsServer);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    upgrades,
    params,
    closed,
    dropAll: () => {
      for (const client of wsServer.clients) client.terminate();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wsServer.clients) client.terminate();
        wsServer.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

describe('a relayed subscription', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function relayTo(query: string, overrides: Partial<RelayStreamOptions> = {}, refusal?: string) {
    const owner = await ownerServer(refusal);
    cleanups.push(owner.close);
    let ends = 0;
    const stream = relayStream({
      url: owner.url,
      headers: { [FORWARDED_BY_HEADER]: 'a', [CLUSTER_SECRET_HEADER]: 'secret' },
      authorization: 'Bearer caller',
      payload: { query },
      // Deadlines of a loaded machine: these tests wait for what they cause, never for these.
      connectMs: 60_000,
      checkEveryMs: 20,
      droppedForMs: 60_000,
      ownerUp: async () => true,
      lost: () => new StagegraphError('SESSION_LOST', 'lost'),
      unanswered: (why) => new StagegraphError('SESSION_REMOTE', why),
      ended: () => {
        ends += 1;
      },
      ...overrides,
    });
    cleanups.push(async () => {
      await stream.return?.();
    });
    return { owner, stream, ends: () => ends };
  }

  async function drain(stream: AsyncIterableIterator<unknown>): Promise<unknown[]> {
    const values: unknown[] = [];
    for await (const value of stream) values.push(value);
    return values;
  }

  it("delivers the owner's results as they are, then its end; with the caller's credential and the relay headers", async () => {
    const { owner, stream, ends } = await relayTo('subscription { count(n: 3) }');
    expect(await drain(stream)).toEqual([1, 2, 3].map((count) => ({ data: { count } })));
    expect(ends()).toBe(1);
    expect(owner.params).toEqual([{ authorization: 'Bearer caller' }]);
    expect(owner.upgrades[0]).toMatchObject({
      [FORWARDED_BY_HEADER]: 'a',
      [CLUSTER_SECRET_HEADER]: 'secret',
    });
  });

  it("ends with the owner's own `error` message, unchanged", async () => {
    const { stream } = await relayTo('subscription { nope }');
    const error = await drain(stream).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RelayedErrors);
    expect((error as RelayedErrors).errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('nope') }),
    ]);
  });

  it('refused by the owner at connection_init, it ends with the code the owner gave', async () => {
    const { stream } = await relayTo('subscription { open }', {}, 'UNAUTHENTICATED: unknown token');
    await expect(stream.next()).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'The owner refused the relay: unknown token',
    });
  });

  it("closes its socket when the subscriber leaves, and the owner's side ends", async () => {
    const { owner, stream, ends } = await relayTo('subscription { open }');
    const waiting = stream.next();
    await expect.poll(() => owner.closed.length).toBe(1);
    await stream.return?.();
    await owner.closed[0];
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(ends()).toBe(1);
  });

  it('dropped by an owner whose lease is gone, it ends with SESSION_LOST; by one still up, it gives up with SESSION_REMOTE', async () => {
    let up = true;
    const gone = await relayTo('subscription { open }', { ownerUp: async () => up });
    const kept = await relayTo('subscription { open }', { droppedForMs: 50 });
    for (const { owner } of [gone, kept]) await expect.poll(() => owner.closed.length).toBe(1);
    gone.owner.dropAll();
    kept.owner.dropAll();
    up = false;
    await expect(gone.stream.next()).rejects.toMatchObject({ code: 'SESSION_LOST' });
    await expect(kept.stream.next()).rejects.toMatchObject({ code: 'SESSION_REMOTE' });
    // The error is told once; the stream has ended.
    expect(await gone.stream.next()).toEqual({ value: undefined, done: true });
  });

  it('a paused owner (its lease gone) ends it with SESSION_LOST though its socket stays open', async () => {
    let up = true;
    const { owner, stream } = await relayTo('subscription { open }', { ownerUp: async () => up });
    await expect.poll(() => owner.closed.length).toBe(1);
    const ending = stream.next();
    up = false;
    await expect(ending).rejects.toMatchObject({ code: 'SESSION_LOST' });
    await owner.closed[0];
  });

  it('an owner that accepts the connection and never answers is given up at the connect deadline', async () => {
    const accepted: Socket[] = [];
    const silent = createTcpServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of accepted) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as AddressInfo;
    const { stream } = await relayTo('subscription { open }', {
      url: `ws://127.0.0.1:${port}/graphql`,
      connectMs: 200,
    });
    await expect(stream.next()).rejects.toMatchObject({ code: 'SESSION_REMOTE' });
  });
});
