import { type DocumentNode, parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { expect } from 'vitest';
import { type ReplicaSet, replicaSet } from './cluster-replicas.js';
import { type Subscription, subscribe, wsClient } from './gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './gateway-client.js';
import type { GatewayProcess } from './gateway-process.js';
import { type RedisServer, startRedis } from './redis-server.js';

/** A generous bound for a loaded machine, not an expected time. */
export const STREAM_WAIT_MS = 60_000;
export const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
const SECRET = 'cluster-test-secret';

/** One event of a subscription read from a cluster stream (under `key`), with where it stands in the stream. */
export type Streamed<Key extends string, Event> = {
  readonly cursor: string;
  readonly droppedBefore: number;
} & { readonly [key in Key]: Event };

/** The events `feed` has delivered so far: what the subscription's root `field` held in each. */
export const delivered = <Event>(feed: Subscription<Loose>, field: string): Event[] =>
  feed.received.map((value) => value[field] as Event);

/** Replicas a and b of one cluster, on a Redis of their own, and the subscriptions opened on them. */
export interface TwoReplicas {
  readonly redis: RedisServer;
  readonly replicas: ReplicaSet;
  readonly a: GatewayProcess;
  readonly b: GatewayProcess;
  readonly onA: GatewayClient;
  readonly onB: GatewayClient;
  /** Opens `document` on `gateway` over a socket of its own, closed by `end`. */
  subscribe(
    gateway: GatewayProcess,
    document: DocumentNode | string,
    variables?: Record<string, unknown>,
  ): Subscription<Loose>;
  /** Closes the sockets, ends the replicas (reaping what one killed with -9 left), then Redis. */
  end(): Promise<void>;
}

/** Starts Redis, then replicas a (with `aArguments`) and b (with `bArguments`) as users start them. */
export async function startTwoReplicas(
  aArguments: readonly string[] = [],
  bArguments: readonly string[] = [],
): Promise<TwoReplicas> {
  const redis = await startRedis();
  const replicas = replicaSet(redis.url, ['--cluster-secret', SECRET]);
  const [a, b] = await Promise.all([replicas.start('a', ...aArguments), replicas.start('b', ...bArguments)]);
  const sockets: Client[] = [];
  return {
    redis,
    replicas,
    a,
    b,
    onA: gatewayClient(a.url),
    onB: gatewayClient(b.url),
    subscribe(gateway, document, variables = {}) {
      const socket = wsClient(gateway.wsUrl);
      sockets.push(socket);
      const parsed = typeof document === 'string' ? parse(document) : document;
      return subscribe<Loose, Record<string, unknown>>(socket, parsed, variables);
    },
    async end() {
      await Promise.all(sockets.map((socket) => socket.dispose()));
      await replicas.stop();
      await redis.stop();
    },
  };
}

/**
 * Causes an event until `feed` has delivered one, for graphql-ws does not say when a subscription reads:
 * then it surely does.
 */
export async function untilStreaming(
  feed: Subscription<Loose>,
  cause: () => Promise<unknown>,
  what: string,
): Promise<void> {
  const deadline = Date.now() + STREAM_WAIT_MS;
  while (feed.received.length === 0 && feed.errors.length === 0) {
    if (Date.now() > deadline) throw new Error(`no event on the subscription to ${what}`);
    await cause();
    await feed.waitFor(() => true, 2_000).catch(() => undefined);
  }
  expect(feed.errors).toEqual([]);
}

/**
 * The merged audit trail's first page (`audit` without `replica`, asked of `via`: edge cursors and
 * `trimmedBefore`) once the cluster's audit stream has numbered every record the `replicas` sealed: its
 * records and what it trimmed then add up to their own trails. A record reaches the stream just after it is
 * sealed, so this waits for that, never for time.
 */
export async function mergedAuditOnceStreamed(
  via: GatewayClient,
  replicas: readonly string[],
): Promise<Loose> {
  const trailLength = async (replica: string): Promise<number> =>
    (await via.data(`{ audit(replica: "${replica}", first: 500) { edges { cursor } } }`)).audit.edges.length;
  let merged: Loose = {};
  await expect
    .poll(
      async () => {
        merged = (await via.data('{ audit(first: 500) { edges { cursor } pageInfo { trimmedBefore } } }'))
          .audit;
        const trails = await Promise.all(replicas.map(trailLength));
        return merged.pageInfo.trimmedBefore + merged.edges.length - trails.reduce((sum, n) => sum + n, 0);
      },
      { timeout: STREAM_WAIT_MS },
    )
    .toBe(0);
  return merged;
}
