import { describe, expect, it } from 'vitest';
import type { NetworkControl, NetworkRecord } from '../../transports/contract/renderer-control.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { MAX_CAPTURES, SessionNetwork } from './network.js';

const record = (url: string): NetworkRecord => ({
  time: new Date(),
  windowId: 'w1',
  method: 'GET',
  url,
  resourceType: 'fetch',
  status: 200,
  requestHeaders: {},
  responseHeaders: {},
  durationMs: 1,
  failure: null,
  stubId: null,
  requestBody: null,
  responseBody: null,
});

/** A transport seam that only counts what it forgot; `ended` makes it refuse as a gone app's does. */
function transportSeam() {
  const seam = { droppedInFlight: 0, ended: false };
  const control = () => {
    if (seam.ended) throw new Error('the app has ended');
    return { droppedInFlight: seam.droppedInFlight } as NetworkControl;
  };
  return { seam, control };
}

describe('SessionNetwork.read', () => {
  it('filters the ring and says how many requests the transport forgot in flight', () => {
    const { seam, control } = transportSeam();
    const network = new SessionNetwork('s1', new EventHub<SessionTopics>(), control);
    network.onRecord(record('http://x/api/a'));
    network.onRecord(record('http://x/img/b'));
    seam.droppedInFlight = 7;
    const read = network.read({ urlContains: '/api/' });
    expect(read.entries.map((entry) => entry.url)).toEqual(['http://x/api/a']);
    expect(read).toMatchObject({ total: 2, overflowed: 0, droppedInFlight: 7 });
  });

  it('keeps telling the last count once the app has ended', () => {
    const { seam, control } = transportSeam();
    const network = new SessionNetwork('s1', new EventHub<SessionTopics>(), control);
    seam.droppedInFlight = 3;
    expect(network.read({}).droppedInFlight).toBe(3);
    seam.ended = true;
    expect(network.read({}).droppedInFlight).toBe(3);
  });
});

describe('SessionNetwork.arm', () => {
  it(`keeps at most ${MAX_CAPTURES} captures armed: one more answers CAPTURE_LIMIT, and stopping one makes room`, async () => {
    const control = () =>
      ({ arm: async () => undefined, disarm: async () => undefined }) as unknown as NetworkControl;
    const network = new SessionNetwork('s1', new EventHub<SessionTopics>(), control);
    for (let capture = 0; capture < MAX_CAPTURES; capture += 1) await network.arm({});
    await expect(network.arm({})).rejects.toMatchObject({
      code: 'CAPTURE_LIMIT',
      details: { limit: MAX_CAPTURES },
    });
    expect(network.captures()).toHaveLength(MAX_CAPTURES);
    await network.disarm('c1');
    await expect(network.arm({})).resolves.toMatchObject({ id: `c${MAX_CAPTURES + 1}` });
  });
});
