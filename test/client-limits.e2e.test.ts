import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIBERS, MAX_SUBSCRIPTIONS_PER_CLIENT } from '../domain/events/event-hub.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { serveInChild } from './helpers/gateway-process.js';
import { sseSubscription, subscribingConnection } from './helpers/subscription-tally.js';

// The client: one connection that opens more subscriptions than the whole server allows.
const GREEDY = MAX_SUBSCRIBERS + 100;
const AUDIT = 'subscription { audit { record { operation } } }';
/** Audited (every mutation is), and fails without touching anything. */
const AUDITED_MUTATION = 'mutation { stop(id: "s404") { id } }';
const AGENT_A = 'client-limits-agent-a';
const AGENT_B = 'client-limits-agent-b';

type Connection = Awaited<ReturnType<typeof subscribingConnection>>;
type Closable = { close(): Promise<void> };

async function served(args: readonly string[], environment: NodeJS.ProcessEnv = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'stagegraph-client-limits-'));
  const gateway = await serveInChild(
    ['--artifacts', join(dir, 'artifacts'), '--audit-dir', join(dir, 'audit'), ...args],
    environment,
  );
  return {
    gateway,
    async stop() {
      if (gateway.child.exitCode === null) {
        gateway.child.kill('SIGTERM');
        await gateway.exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Sends audited mutations until `done` holds. graphql-ws acknowledges no subscription's start, so a
 * record written just after the subscribe message was sent may come before the subscription listens;
 * each later record reaches every subscription that does.
 */
async function auditUntil(client: GatewayClient, done: () => boolean): Promise<void> {
  await expect
    .poll(async () => {
      if (!done()) await client.send(AUDITED_MUTATION);
      return done();
    })
    .toBe(true);
}

/**
 * Opens the greedy connection (kept in `open`, to be closed after the test whatever happens) and
 * waits for every subscription past its share to be refused.
 */
async function greedyConnection(
  open: Closable[],
  wsUrl: string,
  connectionParams: Record<string, unknown> = {},
): Promise<Connection> {
  const greedy = await subscribingConnection(wsUrl, connectionParams);
  open.push(greedy);
  for (let n = 0; n < GREEDY; n += 1) greedy.subscribe(AUDIT);
  // Before the fix, 2,000 were accepted and the last 100 refused with SUBSCRIPTION_LIMIT.
  await expect
    .poll(() => Object.fromEntries(greedy.tally.refused))
    .toEqual({ CLIENT_LIMIT: GREEDY - MAX_SUBSCRIPTIONS_PER_CLIENT });
  return greedy;
}

describe('per-client subscription limits on a tokenless loopback gateway (every client anonymous)', () => {
  let gateway: Awaited<ReturnType<typeof served>>;
  const open: Closable[] = [];
  beforeAll(async () => {
    gateway = await served([]);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((each) => each.close()));
  });
  afterAll(() => gateway?.stop());

  it('a second connection, and an SSE stream, still subscribe while the first holds its share', async () => {
    const greedy = await greedyConnection(open, gateway.gateway.wsUrl);
    const second = await subscribingConnection(gateway.gateway.wsUrl);
    open.push(second);
    second.subscribe(AUDIT);
    const stream = sseSubscription(gateway.gateway.url, AUDIT);
    open.push(stream);

    // Every accepted subscription streams the audit records: the greedy connection's share, the second
    // connection's and the SSE stream's.
    await auditUntil(
      gatewayClient(gateway.gateway.url),
      () =>
        second.tally.delivering.size === 1 &&
        stream.tally.delivering.size === 1 &&
        greedy.tally.delivering.size === MAX_SUBSCRIPTIONS_PER_CLIENT,
    );
    expect(second.tally.refused.size).toBe(0);
    expect(stream.tally.refused.size).toBe(0);
    expect(stream.failure()).toBeUndefined();
    expect(Object.fromEntries(greedy.tally.refused)).toEqual({
      CLIENT_LIMIT: GREEDY - MAX_SUBSCRIPTIONS_PER_CLIENT,
    });
  });

  it('a closed connection gives its share back', async () => {
    const greedy = await greedyConnection(open, gateway.gateway.wsUrl);
    await greedy.close();
    // Its 500 are freed: the next greedy connection is held to its share, not to what was left.
    await greedyConnection(open, gateway.gateway.wsUrl);
  });
});

describe('per-client subscription limits with tokens', () => {
  let gateway: Awaited<ReturnType<typeof served>>;
  const open: Closable[] = [];
  beforeAll(async () => {
    gateway = await served([], { STAGEGRAPH_TOKEN: `${AGENT_A},${AGENT_B}` });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((each) => each.close()));
  });
  afterAll(() => gateway?.stop());

  it('a token at its share is refused on every connection and over SSE; another token is not', async () => {
    await greedyConnection(open, gateway.gateway.wsUrl, { authorization: `Bearer ${AGENT_A}` });
    const sameToken = await subscribingConnection(gateway.gateway.wsUrl, {
      authorization: `Bearer ${AGENT_A}`,
    });
    open.push(sameToken);
    sameToken.subscribe(AUDIT);
    const sameTokenStream = sseSubscription(gateway.gateway.url, AUDIT, {
      authorization: `Bearer ${AGENT_A}`,
    });
    open.push(sameTokenStream);
    await expect.poll(() => sameToken.tally.refused.get('CLIENT_LIMIT')).toBe(1);
    await expect.poll(() => sameTokenStream.tally.refused.get('CLIENT_LIMIT')).toBe(1);

    const other = await subscribingConnection(gateway.gateway.wsUrl, { authorization: `Bearer ${AGENT_B}` });
    open.push(other);
    other.subscribe(AUDIT);
    const otherStream = sseSubscription(gateway.gateway.url, AUDIT, { authorization: `Bearer ${AGENT_B}` });
    open.push(otherStream);
    const agentB = gatewayClient(gateway.gateway.url, { authorization: `Bearer ${AGENT_B}` });
    await auditUntil(
      agentB,
      () => other.tally.delivering.size === 1 && otherStream.tally.delivering.size === 1,
    );
    expect(other.tally.refused.size).toBe(0);
    expect(otherStream.tally.refused.size).toBe(0);
  });
});
