import { describe, expect, it } from 'vitest';
import { MemoryStreams, replicaKnowingEverySession } from '../../test/helpers/memory-streams.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { auditFeed, clusterAuditPage } from './cluster-audit.js';
import { ClusterEvents } from './cluster-events.js';
import { clusterStreamOf } from './event-streams.js';

/** A replica's audit log as ClusterEvents sees it: records sealed here reach its observers. */
function replicaOn(streams: MemoryStreams, replicaId: string) {
  const sealed = new EventHub<{ record: AuditRecord }>();
  const failures: unknown[] = [];
  const events = new ClusterEvents(
    streams,
    new EventHub<SessionTopics>(),
    replicaKnowingEverySession(replicaId),
    (error) => failures.push(error),
    { observe: (listener) => sealed.observe('record', listener) },
  );
  return { events, failures, seal: (record: AuditRecord) => sealed.publish('record', record) };
}

const record = (seq: number, operation: string) =>
  ({ seq, operation, time: new Date(seq).toISOString() }) as AuditRecord;
const noLocal = { subscribe: () => expect.unreachable('a cluster reads its stream') } as never;

describe('audit across replicas', () => {
  it("streams every replica's records, each with its replica, and resumes after a cursor", async () => {
    const streams = new MemoryStreams();
    const [a, b] = [replicaOn(streams, 'a'), replicaOn(streams, 'b')];
    const feed = await auditFeed(noLocal, a.events, { operations: ['click'] }, null);
    b.seal(record(1, 'click'));
    a.seal(record(1, 'stop'));
    a.seal(record(2, 'click'));
    await Promise.all([a.events.topics.close(), b.events.topics.close()]);
    expect([...a.failures, ...b.failures]).toEqual([]);
    const first = (await feed.next()).value;
    expect(first).toMatchObject({ event: { seq: 1, replica: 'b' }, droppedBefore: 0, cursor: '1' });
    // The refused `stop` is not a loss: the click after it arrives with nothing dropped.
    expect((await feed.next()).value).toMatchObject({ event: { seq: 2, replica: 'a' }, droppedBefore: 0 });
    await feed.return();

    const resumed = await auditFeed(noLocal, b.events, null, first?.cursor);
    expect((await resumed.next()).value).toMatchObject({
      event: { operation: 'stop', replica: 'a' },
      cursor: '2',
    });
    await resumed.return();
    expect(streams.openReaders).toBe(0);
  });

  it('counts what the stream trimmed and what a replica could not write as droppedBefore', async () => {
    const streams = new MemoryStreams(2);
    const a = replicaOn(streams, 'a');
    for (const seq of [1, 2, 3]) a.seal(record(seq, 'click'));
    await a.events.topics.close();
    streams.failure = new Error('Redis is out');
    a.seal(record(4, 'click'));
    await a.events.topics.close();
    expect(a.failures).toHaveLength(1);
    streams.failure = null;
    const feed = await auditFeed(noLocal, a.events, null, '0');
    expect((await feed.next()).value).toMatchObject({ event: { seq: 2 }, droppedBefore: 1 });
    expect((await feed.next()).value).toMatchObject({ event: { seq: 3 }, droppedBefore: 0 });
    a.seal(record(5, 'click'));
    expect((await feed.next()).value).toMatchObject({ event: { seq: 5 }, droppedBefore: 1 });
    await feed.return();
  });

  it('reads a stream the store lost (Redis restarted empty) from its new start, and says records were lost', async () => {
    const streams = new MemoryStreams();
    const a = replicaOn(streams, 'a');
    for (const seq of [1, 2, 3]) a.seal(record(seq, 'click'));
    await a.events.topics.close();
    streams.streams.clear();
    const feed = await auditFeed(noLocal, a.events, null, '3');
    a.seal(record(4, 'click'));
    expect((await feed.next()).value).toMatchObject({ event: { seq: 4 }, droppedBefore: 1, cursor: '1' });
    await feed.return();
  });

  it('says how many records the stream trimmed before a page of the merged trail, from its start or an old cursor', async () => {
    const streams = new MemoryStreams(3);
    const [a, b] = [replicaOn(streams, 'a'), replicaOn(streams, 'b')];
    for (const seq of [1, 2, 3]) a.seal(record(seq, 'click'));
    await a.events.topics.close();
    for (const seq of [1, 2]) b.seal(record(seq, seq === 2 ? 'stop' : 'click'));
    await b.events.topics.close();
    const page = (after: number | null, operations?: string[]) =>
      clusterAuditPage(a.events, { first: 2, after, filter: operations ? { operations } : null });
    const fromStart = await page(null);
    expect(fromStart).toMatchObject({ trimmedBefore: 2, hasNextPage: true, endCursor: 4 });
    expect(fromStart.records).toMatchObject([
      { replica: 'a', seq: 3, cursor: 3 },
      { replica: 'b', seq: 1, cursor: 4 },
    ]);
    expect(await page(1)).toMatchObject({ trimmedBefore: 1, endCursor: 4 });
    expect(await page(4)).toMatchObject({ trimmedBefore: 0, hasNextPage: false, endCursor: 5 });
    // Whether the trimmed records matched the filter nobody can tell: they are counted all the same.
    expect(await page(0, ['stop'])).toMatchObject({ trimmedBefore: 2, records: [{ cursor: 5 }] });
    expect(await page(0, ['press'])).toMatchObject({ trimmedBefore: 2, records: [], hasNextPage: false });
  });

  it('ends a page at a stretch the stream trimmed while the page was read, for the next page to count', async () => {
    const streams = new MemoryStreams(1_000);
    const a = replicaOn(streams, 'a');
    for (let seq = 1; seq <= 700; seq += 1) a.seal(record(seq, 'click'));
    await a.events.topics.close();
    const range = streams.range.bind(streams);
    // Between the page's first chunk and its second, the stream loses entries 501 to 510.
    streams.range = async (stream, after, count) => {
      const events = await range(stream, after, count);
      if (after === 0) {
        const held = streams.streams.get(clusterStreamOf('audit')) ?? [];
        streams.streams.set(
          clusterStreamOf('audit'),
          held.filter((event) => event.number <= 500 || event.number > 510),
        );
      }
      return events;
    };
    const page = (after: number) => clusterAuditPage(a.events, { first: 600, after, filter: null });
    // The records after the stretch would have fitted on the page: it ends before them all the same.
    expect(await page(0)).toMatchObject({ trimmedBefore: 0, hasNextPage: true, endCursor: 500 });
    const next = await page(500);
    expect(next).toMatchObject({ trimmedBefore: 10, hasNextPage: false, endCursor: 700 });
    expect(next.records[0]).toMatchObject({ seq: 511, cursor: 511 });
  });

  it('refuses `after` without a cluster, and a cursor that is not one', () => {
    expect(() => auditFeed(noLocal, null, null, '3')).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
    const { events } = replicaOn(new MemoryStreams(), 'a');
    expect(() => auditFeed(noLocal, events, null, 'last')).toThrow(/takes the `cursor` of an event/);
  });
});
