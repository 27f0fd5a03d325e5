import { describe, expect, it } from 'vitest';
import { MemoryStreams, replicaKnowingEverySession } from '../../test/helpers/memory-streams.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { ApprovalStream } from './approval-stream.js';
import { ClusterEvents } from './cluster-events.js';
import type { SharedEvent } from './shared-approvals.js';

const eventsOf = (streams: MemoryStreams, replicaId: string) =>
  new ClusterEvents(streams, new EventHub<SessionTopics>(), replicaKnowingEverySession(replicaId), () => {});

const event = (id: string, state: SharedEvent['state']): SharedEvent =>
  ({ replicaId: 'b', state, request: { id }, decidedBy: null, reason: null }) as unknown as SharedEvent;

/** A's mirror of the approval stream, with what its handlers were told. */
function mirrorOn(streams: MemoryStreams) {
  const told = { mirrored: [] as [string, string, string | null][], resyncs: 0, failures: 0 };
  const stream = new ApprovalStream(eventsOf(streams, 'a'), 1, {
    mirror: (shared, cursor) => told.mirrored.push([shared.request.id, shared.state, cursor]),
    resync: async () => {
      told.resyncs += 1;
    },
    failed: () => {
      told.failures += 1;
    },
  });
  return { stream, told };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('ApprovalStream', () => {
  it('mirrors every event after its start, with its cursor, and reads on after a lost connection from there', async () => {
    const streams = new MemoryStreams();
    const b = new ApprovalStream(eventsOf(streams, 'b'), 1, {
      mirror() {},
      resync: async () => {},
      failed() {},
    });
    expect(await b.append(event('r0', 'PENDING'))).toBe('1');
    const { stream, told } = mirrorOn(streams);
    await stream.start(1);
    expect(await b.append(event('r1', 'PENDING'))).toBe('2');
    await until(() => told.mirrored.length === 1);
    streams.fail(new Error('Redis is out'));
    await until(() => told.failures > 0);
    streams.failure = null;
    await b.append(event('r1', 'APPROVED'));
    await until(() => told.mirrored.length === 2);
    expect(told.mirrored).toEqual([
      ['r1', 'PENDING', '2'],
      ['r1', 'APPROVED', '3'],
    ]);
    expect(told.resyncs).toBe(0);
    await stream.stop();
    expect(streams.openReaders).toBe(0);
  });

  it('reads the pending requests again when the stream shows a gap: trimmed, or not written', async () => {
    const streams = new MemoryStreams(1);
    const b = new ApprovalStream(eventsOf(streams, 'b'), 1, {
      mirror() {},
      resync: async () => {},
      failed() {},
    });
    for (const id of ['r1', 'r2']) await b.append(event(id, 'PENDING'));
    const { stream, told } = mirrorOn(streams);
    await stream.start(0);
    await until(() => told.mirrored.length === 1);
    expect(told).toMatchObject({ mirrored: [['r2', 'PENDING', '2']], resyncs: 1 });

    streams.failure = new Error('Redis is out');
    expect(await b.append(event('r2', 'DENIED'))).toBeNull();
    streams.failure = null;
    await b.append(event('r3', 'PENDING'));
    await until(() => told.mirrored.length === 2);
    expect(told.resyncs).toBe(2);
    await stream.stop();
  });
});
