import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { MemoryStreams, writingBoot } from '../../test/helpers/memory-streams.js';
import { StreamFeed } from './stream-feed.js';

const request = (after: number | null) => ({
  stream: 's',
  after,
  decode: (json: string) => JSON.parse(json) as { n: number },
  accepts: (event: { n: number }) => event.n !== 4,
});

async function appendAll(streams: MemoryStreams, numbers: number[]): Promise<void> {
  for (const n of numbers) await streams.append('s', n, JSON.stringify({ n }), writingBoot('a'));
}

describe('StreamFeed', () => {
  it('delivers from a cursor in order, each with its cursor, skipping what its filter refuses', async () => {
    const streams = new MemoryStreams();
    await appendAll(streams, [1, 2, 3, 4, 5]);
    const feed = await StreamFeed.open(streams, request(2));
    const delivered = [await feed.next(), await feed.next()].map((result) => result.value);
    expect(delivered).toEqual([
      { event: { n: 3 }, droppedBefore: 0, cursor: '3' },
      { event: { n: 5 }, droppedBefore: 0, cursor: '5' },
    ]);
    await feed.return();
  });

  it('without a cursor starts after the newest event, and waits for the next', async () => {
    const streams = new MemoryStreams();
    await appendAll(streams, [1, 2]);
    const feed = await StreamFeed.open(streams, request(null));
    const next = feed.next();
    await appendAll(streams, [3]);
    expect((await next).value).toEqual({ event: { n: 3 }, droppedBefore: 0, cursor: '3' });
    await feed.return();
  });

  it('counts the events the stream trimmed as droppedBefore of the first one after them', async () => {
    const streams = new MemoryStreams(2);
    await appendAll(streams, [1, 2, 3, 5, 6]);
    const feed = await StreamFeed.open(streams, request(1));
    expect((await feed.next()).value).toEqual({ event: { n: 5 }, droppedBefore: 3, cursor: '5' });
    expect((await feed.next()).value).toEqual({ event: { n: 6 }, droppedBefore: 0, cursor: '6' });
    await feed.return();
  });

  it('ends a waiting read when returned, and closes its reader', async () => {
    const streams = new MemoryStreams();
    const feed = await StreamFeed.open(streams, request(0));
    const waiting = feed.next();
    expect(streams.openReaders).toBe(1);
    await feed.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(streams.openReaders).toBe(0);
  });

  it("ends with the store's error when a read fails, and closes its reader", async () => {
    const streams = new MemoryStreams();
    const feed = await StreamFeed.open(streams, request(0));
    const waiting = feed.next();
    streams.fail(new StagegraphError('CLUSTER_UNAVAILABLE', 'Redis is gone.'));
    await expect(waiting).rejects.toMatchObject({ code: 'CLUSTER_UNAVAILABLE' });
    expect(streams.openReaders).toBe(0);
    expect(await feed.next()).toEqual({ value: undefined, done: true });
  });

  it('told its writer is gone, delivers what the stream still holds, then its last event, then ends', async () => {
    const streams = new MemoryStreams();
    await appendAll(streams, [1, 2, 3]);
    const feed = await StreamFeed.open(streams, request(1));
    feed.end(3, { event: { n: 99 } });
    const delivered = [await feed.next(), await feed.next()].map((result) => result.value?.event);
    expect(delivered).toEqual([{ n: 2 }, { n: 3 }]);
    expect((await feed.next()).value).toEqual({ event: { n: 99 }, droppedBefore: 0 });
    expect(await feed.next()).toEqual({ value: undefined, done: true });
    expect(streams.openReaders).toBe(0);
  });

  it('cuts a waiting read short when ended with an error, and ends with that error', async () => {
    const streams = new MemoryStreams();
    await appendAll(streams, [1]);
    const closed: string[] = [];
    const feed = await StreamFeed.open(streams, { ...request(null), closed: () => closed.push('closed') });
    const waiting = feed.next();
    feed.end(1, { error: new StagegraphError('SESSION_LOST', 'Session b-s1 is LOST.') });
    await expect(waiting).rejects.toMatchObject({ code: 'SESSION_LOST' });
    expect(streams.openReaders).toBe(0);
    expect(closed).toEqual(['closed']);
    expect(await feed.next()).toEqual({ value: undefined, done: true });
  });
});
