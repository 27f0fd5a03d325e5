import { type ExecutionResult, parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { EventHub, MAX_SUBSCRIPTIONS_PER_CLIENT } from '../domain/events/event-hub.js';
import { ANONYMOUS_LOOPBACK, type ClientIdentity } from '../domain/governance/clients/client-identity.js';
import type { GatewayContext } from '../schema/context.js';
import { useClientSubscriptions } from './client-subscriptions.js';

type Topics = { tick: number };
const agent: ClientIdentity = { id: 'agent-1', role: 'agent' };

function gateway() {
  const hub = new EventHub<Topics>();
  const yoga = createYoga({
    schema: createSchema<{ hub: EventHub<Topics> }>({
      typeDefs: 'type Query { ok: Int } type Subscription { tick(fail: Boolean): Int }',
      resolvers: {
        Subscription: {
          tick: {
            subscribe: (_root: unknown, args: { fail?: boolean }, context: { hub: EventHub<Topics> }) => {
              if (args.fail) throw new Error('no such session');
              return context.hub.subscribe('tick');
            },
            resolve: (delivery: { event: number }) => delivery.event,
          },
        },
      },
    }),
    plugins: [useClientSubscriptions()],
    logging: false,
  });
  const subscribe = async (context: Partial<GatewayContext> & { socket?: object }, fail = false) => {
    const { subscribe, contextFactory, schema } = yoga.getEnveloped({ ...context, hub });
    return subscribe({
      schema,
      document: parse(fail ? 'subscription { tick(fail: true) }' : 'subscription { tick }'),
      contextValue: await contextFactory(),
    }) as Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
  };
  return { hub, subscribe };
}

const isStream = (result: unknown): result is AsyncIterableIterator<ExecutionResult> =>
  typeof result === 'object' && result !== null && Symbol.asyncIterator in result;

describe('useClientSubscriptions', () => {
  it('refuses a connection past its share with CLIENT_LIMIT while another connection subscribes', async () => {
    const { subscribe } = gateway();
    const first = { socket: {}, client: ANONYMOUS_LOOPBACK };
    const held = [];
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT; n += 1) held.push(await subscribe(first));
    expect(held.every(isStream)).toBe(true);
    const refused = await subscribe(first);
    expect(isStream(refused)).toBe(false);
    expect((refused as ExecutionResult).errors?.map((error) => error.extensions)).toEqual([
      expect.objectContaining({ code: 'CLIENT_LIMIT', retryable: true }),
    ]);
    expect(isStream(await subscribe({ socket: {}, client: ANONYMOUS_LOOPBACK }))).toBe(true);
    const [oldest] = held;
    if (isStream(oldest)) await oldest.return?.();
    expect(isStream(await subscribe(first))).toBe(true);
  });

  it('a token is held to its share across its connections', async () => {
    const { subscribe } = gateway();
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT; n += 1) await subscribe({ socket: {}, client: agent });
    expect(isStream(await subscribe({ socket: {}, client: agent }))).toBe(false);
    expect(isStream(await subscribe({ client: agent }))).toBe(false);
    expect(isStream(await subscribe({ socket: {}, client: { id: 'agent-2', role: 'agent' } }))).toBe(true);
  });

  it('a subscription that fails to set up, or ends, holds nothing', async () => {
    const { hub, subscribe } = gateway();
    const first = { socket: {}, client: ANONYMOUS_LOOPBACK };
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT + 10; n += 1)
      expect(isStream(await subscribe(first, true))).toBe(false);
    const stream = await subscribe(first);
    if (!isStream(stream)) throw new Error('expected a stream');
    hub.publish('tick', 7);
    expect((await stream.next()).value).toEqual({ data: { tick: 7 } });
    await stream.return?.();
    expect(hub.subscriberCount).toBe(0);
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT; n += 1)
      expect(isStream(await subscribe(first))).toBe(true);
  });
});
