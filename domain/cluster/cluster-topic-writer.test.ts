import { describe, expect, it } from 'vitest';
import { MemoryStreams, writingBoot } from '../../test/helpers/memory-streams.js';
import type { ReplicaBoot } from './cluster-store.js';
import { ClusterTopicWriter, MAX_QUEUED_APPENDS, type TopicEntry } from './cluster-topic-writer.js';
import { clusterStreamOf } from './event-streams.js';

describe('ClusterTopicWriter', () => {
  it('appends in publishing order; what could not be written is carried by the next entry as missedBefore', async () => {
    const streams = new MemoryStreams();
    const failures: unknown[] = [];
    const writer = new ClusterTopicWriter(streams, writingBoot('a'), (error) => failures.push(error));
    expect(await writer.append('audit', { n: 1 })).toBe(1);
    streams.failure = new Error('Redis is out');
    expect(await writer.append('audit', { n: 2 })).toBeNull();
    streams.failure = null;
    expect(await writer.append('audit', { n: 3 })).toBe(2);
    const entries = streams.streams.get(clusterStreamOf('audit'))?.map(({ json }) => JSON.parse(json));
    expect(entries).toEqual<TopicEntry<{ n: number }>[]>([
      { replica: 'a', missedBefore: 0, event: { n: 1 } },
      { replica: 'a', missedBefore: 1, event: { n: 3 } },
    ]);
    expect(failures).toHaveLength(1);
  });

  it('counts an event as missed at once, rather than queue it, while the store answers slower than events come', async () => {
    const streams = new MemoryStreams();
    let answer = () => {};
    const slow = Object.assign(Object.create(streams) as MemoryStreams, {
      appendNext: (stream: string, json: string, boot: ReplicaBoot) =>
        new Promise<number | null>((resolve) => {
          answer = () => void streams.appendNext(stream, json, boot).then(resolve);
        }),
    });
    const writer = new ClusterTopicWriter(slow, writingBoot('a'), () => {});
    const queued = Array.from({ length: MAX_QUEUED_APPENDS }, (_, n) => writer.append('audit', { n }));
    expect(await writer.append('audit', { n: 'one too many' })).toBeNull();
    answer();
    expect(await queued[0]).toBe(1);
  });

  it('appends nothing once its replica is fenced, what was queued before included', async () => {
    const streams = new MemoryStreams();
    let answer = () => {};
    let reached = () => {};
    const sending = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const slow = Object.assign(Object.create(streams) as MemoryStreams, {
      appendNext: (stream: string, json: string, boot: ReplicaBoot) =>
        new Promise<number | null>((resolve) => {
          answer = () => void streams.appendNext(stream, json, boot).then(resolve);
          reached();
        }),
    });
    const boot = writingBoot('a');
    const writer = new ClusterTopicWriter(slow, boot, () => {});
    const sent = writer.append('audit', { n: 1 });
    const queued = writer.append('audit', { n: 2 });
    await sending;
    boot.fenced = true;
    answer();
    expect(await sent).toBe(1);
    expect(await queued).toBeNull();
    expect(await writer.append('audit', { n: 3 })).toBeNull();
    expect(streams.streams.get(clusterStreamOf('audit'))?.map(({ number }) => number)).toEqual([1]);
  });

  it('an event sent before its replica learnt it was fenced is refused by the store, which fences it', async () => {
    const streams = new MemoryStreams();
    const failures: unknown[] = [];
    const boot = writingBoot('a', 1);
    const writer = new ClusterTopicWriter(streams, boot, (error) => failures.push(error));
    // Reaped while paused (or a later boot of its id joined): the store holds another boot now.
    streams.holders.set('a', 2);
    expect(await writer.append('audit', { n: 1 })).toBeNull();
    expect(boot).toMatchObject({ fenced: true, refused: 1 });
    expect(streams.streams.size).toBe(0);
    expect(failures).toEqual([]);
  });
});
