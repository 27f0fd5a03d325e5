import {
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '../domain/bounded/subscriber-queue.js';
import { EventHub, MAX_SUBSCRIPTIONS_PER_CLIENT } from '../domain/events/event-hub.js';
import { sharesExecutionPerEvent } from '../schema/shared-execution.js';
import { maskError } from './error-format.js';
import { SharedSubscriptions } from './shared-subscriptions.js';

interface Tick {
  readonly n: number;
  readonly word: string;
}

/** A schema with one shared and one ordinary subscription over a hub, counting executions of `word`. */
function fixture(capacity = 100) {
  const hub = new EventHub<{ tick: Tick }>();
  const executions = { word: 0 };
  const tickEvent = new GraphQLObjectType<Delivery<Tick>>({
    name: 'TickEvent',
    fields: {
      droppedBefore: { type: new GraphQLNonNull(GraphQLInt) },
      n: { type: new GraphQLNonNull(GraphQLInt), resolve: (delivery) => delivery.event.n },
      word: {
        type: GraphQLString,
        args: { shout: { type: GraphQLString } },
        resolve: (delivery, args) => {
          executions.word += 1;
          if (delivery.event.word === 'boom') throw new Error('secret internals');
          return args.shout ? delivery.event.word.toUpperCase() : delivery.event.word;
        },
      },
    },
  });
  const stream = (_root: unknown, args: { startsWith?: string }) => {
    if (args.startsWith === '!') throw new GraphQLError('refused at setup');
    return hub.subscribe('tick', {
      capacity,
      accepts: (tick) => tick.word.startsWith(args.startsWith ?? ''),
    });
  };
  const field = {
    type: new GraphQLNonNull(tickEvent),
    args: { startsWith: { type: GraphQLString } },
    subscribe: stream,
    resolve: (delivery: Delivery<Tick>) => delivery,
  };
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: { ticks: { ...field, ...sharesExecutionPerEvent }, plainTicks: field },
    }),
  });
  const logged: unknown[] = [];
  const shared = new SharedSubscriptions(
    (error) => maskError(error, (cause) => logged.push(cause)) as GraphQLError,
  );
  const enveloped = vi.fn((_args: ExecutionArgs) => ({ errors: [new GraphQLError('enveloped')] }));
  const agent = { id: 'agent' };
  const start = async (query: string, variables: Record<string, unknown> = {}, client: object = agent) => {
    const args = { schema, document: parse(query), variableValues: variables, contextValue: { client, hub } };
    return shared.subscribe(args, enveloped);
  };
  const iterate = (result: Awaited<ReturnType<typeof start>>) =>
    (result as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
  return { hub, executions, logged, enveloped, start, iterate };
}

const TICKS =
  'subscription ($s: String, $shout: String) { ticks(startsWith: $s) { n droppedBefore word(shout: $shout) } }';

describe('SharedSubscriptions', () => {
  it('executes an event once for subscribers with the same client, document and variables', async () => {
    const { hub, executions, start, iterate } = fixture();
    const first = iterate(await start(TICKS));
    const second = iterate(await start(TICKS));
    hub.publish('tick', { n: 1, word: 'apple' });
    const [a, b] = [await first.next(), await second.next()];
    expect(a.value).toEqual({ data: { ticks: { n: 1, droppedBefore: 0, word: 'apple' } } });
    expect(b.value).toBe(a.value);
    expect(executions.word).toBe(1);
  });

  it('executes apart for other variables, another client, or an ordinary field, and filters per subscriber', async () => {
    const { hub, executions, start, iterate } = fixture();
    const plain = iterate(await start(TICKS, { shout: null }));
    const shouting = iterate(await start(TICKS, { shout: 'yes' }));
    const otherClient = iterate(await start(TICKS, { shout: null }, { id: 'observer' }));
    const onlyB = iterate(await start(TICKS, { s: 'b' }));
    const ordinary = iterate(
      await start('subscription { plainTicks { n word } }').then((result) => {
        expect(result).toEqual({ errors: [new GraphQLError('enveloped')] });
        return start('subscription { ticks { n word } }');
      }),
    );
    hub.publish('tick', { n: 1, word: 'apple' });
    hub.publish('tick', { n: 2, word: 'banana' });
    expect((await plain.next()).value.data.ticks.word).toBe('apple');
    expect((await shouting.next()).value.data.ticks.word).toBe('APPLE');
    expect((await otherClient.next()).value.data.ticks.word).toBe('apple');
    expect((await onlyB.next()).value.data.ticks).toMatchObject({ n: 2, word: 'banana' });
    expect((await ordinary.next()).value.data.ticks).toEqual({ n: 1, word: 'apple' });
    // apple: plain, shouting, other client, the other document; banana: onlyB.
    expect(executions.word).toBe(5);
  });

  it('gives a subscriber that lost events its own droppedBefore while the others share', async () => {
    const { hub, start, iterate } = fixture(2);
    const reading = iterate(await start(TICKS));
    const stalled = iterate(await start(TICKS));
    const seen: unknown[] = [];
    for (let n = 1; n <= 5; n += 1) {
      hub.publish('tick', { n, word: `w${n}` });
      seen.push((await reading.next()).value.data.ticks);
    }
    expect(seen.map((tick) => (tick as { droppedBefore: number }).droppedBefore)).toEqual([0, 0, 0, 0, 0]);
    const afterLoss = (await stalled.next()).value;
    expect(afterLoss.data.ticks).toEqual({ n: 4, droppedBefore: 3, word: 'w4' });
    expect((await stalled.next()).value.data.ticks).toEqual({ n: 5, droppedBefore: 0, word: 'w5' });
  });

  it('masks unexpected errors of an event and passes expected ones', async () => {
    const { hub, logged, start, iterate } = fixture();
    const feed = iterate(await start(TICKS));
    hub.publish('tick', { n: 1, word: 'boom' });
    const { value } = await feed.next();
    expect(value.data).toEqual({ ticks: { n: 1, droppedBefore: 0, word: null } });
    expect(value.errors.map((error: GraphQLError) => error.toJSON())).toEqual([
      expect.objectContaining({
        message: 'Unexpected error.',
        extensions: expect.objectContaining({ code: 'INTERNAL' }),
      }),
    ]);
    expect(JSON.stringify(value)).not.toContain('secret internals');
    expect(logged).toHaveLength(1);
  });

  it('hands a subscription whose setup fails to the enveloped path, and ends the stream on return', async () => {
    const { hub, enveloped, start, iterate } = fixture();
    expect(await start(TICKS, { s: '!' })).toEqual({ errors: [new GraphQLError('enveloped')] });
    expect(enveloped).toHaveBeenCalledTimes(1);
    const feed = iterate(await start(TICKS));
    const pending = feed.next();
    await feed.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
    hub.publish('tick', { n: 1, word: 'late' });
    expect(await feed.next()).toEqual({ value: undefined, done: true });
  });

  it("charges each subscription to its client's share until it ends, and a failed setup not at all", async () => {
    const { start, iterate } = fixture();
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT + 10; n += 1) await start(TICKS, { s: '!' });
    const held = [];
    for (let n = 0; n < MAX_SUBSCRIPTIONS_PER_CLIENT; n += 1) held.push(iterate(await start(TICKS)));
    const refused = (await start(TICKS)) as { errors: GraphQLError[] };
    expect(refused.errors.map((error) => error.extensions)).toEqual([
      expect.objectContaining({ code: 'CLIENT_LIMIT', retryable: true }),
    ]);
    expect(Symbol.asyncIterator in (await start(TICKS, {}, { id: 'observer' }))).toBe(true);
    await held[0]?.return?.();
    expect(Symbol.asyncIterator in (await start(TICKS))).toBe(true);
  });
});
