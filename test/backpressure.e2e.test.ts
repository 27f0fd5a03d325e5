import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SUBSCRIBER_QUEUE_CAPACITY } from '../domain/events/event-hub.js';
import type { ConsoleEntry } from '../domain/sessions/console-log.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { countReaches } from './helpers/progress.js';
import { reachableHeap } from './helpers/reachable-heap.js';

const PUBLISHED = 100_000;
const BATCH = 500;
/** 100,000 queued entries of ~300 bytes would hold ~40 MB; a bounded queue holds ~1,000 of them. */
const HEAP_GROWTH_LIMIT_BYTES = 15 * 1024 * 1024;

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.stop());

function entry(seq: number): ConsoleEntry {
  return {
    seq,
    sessionId: 's-synthetic',
    time: new Date(),
    type: 'log',
    text: `line ${seq} ${'x'.repeat(200)}`,
    source: 'RENDERER',
    windowId: 'w1',
    location: null,
  };
}

/** A raw graphql-ws client that keeps counts, not messages, so the test's own memory stays flat. */
async function subscriber(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const tally = { acked: false, delivered: 0, dropped: 0, lastSeq: 0, droppedWhileReading: 0 };
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      payload?: { data?: { console: { droppedBefore: number; entry: { seq: number } } } };
    };
    if (message.type === 'connection_ack') tally.acked = true;
    const event = message.payload?.data?.console;
    if (message.type !== 'next' || !event) return;
    tally.delivered += 1;
    tally.dropped += event.droppedBefore;
    tally.lastSeq = event.entry.seq;
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await expect.poll(() => tally.acked).toBe(true);
  socket.send(
    JSON.stringify({
      id: '1',
      type: 'subscribe',
      payload: { query: 'subscription { console { droppedBefore entry { seq } } }' },
    }),
  );
  const tcp = (socket as unknown as { _socket: Socket })._socket;
  // Once seen stuck for 60 s at load 15 (not reproduced since): whether bytes still arrive, and whether they
  // are read, tells the server's side from the client's.
  const state = () =>
    `client socket: ${tcp.bytesRead} bytes read, flowing ${tcp.readableFlowing}, ${tcp.readableLength} unread; ` +
    `delivered ${tally.delivered}, dropped ${tally.dropped}`;
  return { socket, tally, state, pause: () => tcp.pause(), resume: () => tcp.resume() };
}

describe('a subscriber that stops reading', () => {
  it('costs bounded memory, does not hold back a reading subscriber, and is told what it lost', async () => {
    const stalled = await subscriber(gateway.wsUrl);
    const reader = await subscriber(gateway.wsUrl);
    await expect.poll(() => gateway.gateway.hub.subscriberCount).toBe(2);
    // The stalled client stops reading its TCP socket: kernel buffers fill, graphql-ws waits on each
    // send, and only the subscriber's bounded queue is left to absorb what keeps being published.
    stalled.pause();

    const heapBefore = reachableHeap();
    for (let seq = 1; seq <= PUBLISHED; seq += 1) {
      gateway.gateway.hub.publish('console', entry(seq));
      if (seq % BATCH === 0) {
        // Pace like a live app: the reading client keeps up batch by batch.
        await expect.poll(() => reader.tally.lastSeq, { interval: 1 }).toBe(seq);
      }
    }
    // Measured while the stalled client still reads nothing: everything it is owed is held right now.
    expect(reachableHeap() - heapBefore).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES);
    expect(reader.tally).toMatchObject({ delivered: PUBLISHED, dropped: 0, lastSeq: PUBLISHED });

    stalled.resume();
    // Draining its queue and the socket buffers takes what the machine gives it: wait while it moves.
    await countReaches(
      () => stalled.tally.lastSeq,
      PUBLISHED,
      'the stalled subscriber, reading again',
      undefined,
      () => stalled.state(),
    );
    expect(stalled.tally.delivered + stalled.tally.dropped).toBe(PUBLISHED);
    // What it still got is its queue plus what the kernel's socket buffers (bounded, a few MB) held.
    expect(stalled.tally.dropped).toBeGreaterThan(PUBLISHED / 2);
    expect(stalled.tally.delivered).toBeGreaterThanOrEqual(SUBSCRIBER_QUEUE_CAPACITY);

    stalled.socket.close();
    reader.socket.close();
    await expect.poll(() => gateway.gateway.hub.subscriberCount).toBe(0);
  });
});
