import { describe, expect, it } from 'vitest';
import { MemoryStreams } from '../../test/helpers/memory-streams.js';
import { ClusterTopicWriter, MAX_QUEUED_APPENDS, type TopicEntry } from './cluster-topic-writer.js';
import { clusterStreamOf } from './event-streams.js';

describe('ClusterTopicWriter', () => {
  it('appends in publishing order; what could not be written is carried by the next entry as missedBefore', async () => {
    const streams = new MemoryStreams();
    const failures: unknown[] = [];
    const writer = new ClusterTopicWriter(streams, 'a', (error) => failures.push(error));
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
      appendNext: (stream: string, json: string) =>
        new Promise<number>((resolve) => {
          answer = () => void streams.appendNext(stream, json).then(resolve);
        }),
    });
    const writer = new ClusterTopicWriter(slow, 'a', () => {});
    const queued = Array.from({ length: MAX_QUEUED_APPENDS }, (_, n) => writer.append('audit', { n }));
    expect(await writer.append('audit', { n: 'one too many' })).toBeNull();
    answer();
    expect(await queued[0]).toBe(1);
  });
});
