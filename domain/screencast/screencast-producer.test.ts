import { describe, expect, it } from 'vitest';
import type { ScreencastImage } from '../../transports/contract/screencast-contract.js';
import { type ScreencastFrame, ScreencastProducer } from './screencast-producer.js';

const OPTIONS = { maxFps: 1_000, quality: 60, maxWidth: 800 };

function image(label: string): ScreencastImage {
  return { data: label, width: 8, height: 6, capturedAt: new Date(), source: 'SCREENSHOT' };
}

/** A producer over a fake transport: `emit` is what the transport would push, `stops` counts its stops. */
function fakeProducer() {
  const transport = { emit: (_image: ScreencastImage) => {}, starts: 0, stops: 0, ended: 0 };
  const producer = new ScreencastProducer({
    sessionId: 's1',
    windowId: 'w1',
    options: OPTIONS,
    start: async (onFrame) => {
      transport.starts += 1;
      transport.emit = onFrame;
      return {
        stop: async () => {
          transport.stops += 1;
        },
      };
    },
    onEnd: () => {
      transport.ended += 1;
    },
  });
  return { producer, transport };
}

/** Waits past the throttle's interval (1 ms at 1,000 fps) so the next frame passes at once. */
const nextInterval = () => new Promise((resolve) => setTimeout(resolve, 5));

async function read(slot: AsyncIterator<{ event: ScreencastFrame; droppedBefore: number }>) {
  const step = await slot.next();
  if (step.done) throw new Error('the stream ended');
  return { data: step.value.event.data, seq: step.value.event.seq, droppedBefore: step.value.droppedBefore };
}

describe('ScreencastProducer', () => {
  it("keeps one frame per viewer: a newer frame replaces an unread one and counts in that viewer's droppedBefore", async () => {
    const { producer, transport } = fakeProducer();
    const reader = producer.join();
    const stalled = producer.join();
    await producer.started;
    for (const label of ['a', 'b', 'c']) {
      transport.emit(image(label));
      expect(await read(reader)).toMatchObject({ data: label, droppedBefore: 0 });
      await nextInterval();
    }
    // The stalled viewer read nothing: it holds only the newest frame and is told of the two it lost.
    expect(stalled.pending).toBe(1);
    expect(await read(stalled)).toEqual({ data: 'c', seq: 3, droppedBefore: 2 });
  });

  it('gives a viewer who joins a running producer its latest frame at once', async () => {
    const { producer, transport } = fakeProducer();
    const first = producer.join();
    await producer.started;
    transport.emit(image('a'));
    await nextInterval();
    transport.emit(image('b'));
    const late = producer.join();
    expect(late.pending).toBe(1);
    expect(await read(late)).toEqual({ data: 'b', seq: 2, droppedBefore: 0 });
    first.close();
    late.close();
  });

  it('starts once for all its viewers and stops when the last one leaves', async () => {
    const { producer, transport } = fakeProducer();
    const one = producer.join();
    const two = producer.join();
    await producer.started;
    expect(transport.starts).toBe(1);
    one.close();
    expect(producer.ended).toBe(false);
    two.close();
    expect(producer.ended).toBe(true);
    await expect.poll(() => transport.stops).toBe(1);
    expect(transport.ended).toBe(1);
  });

  it("ending it completes every viewer's stream and delivers nothing more", async () => {
    const { producer, transport } = fakeProducer();
    const viewer = producer.join();
    await producer.started;
    producer.end();
    expect(await viewer.next()).toEqual({ value: undefined, done: true });
    transport.emit(image('late'));
    expect(producer.produced).toBe(0);
    expect(producer.join().closed).toBe(true);
    await expect.poll(() => transport.stops).toBe(1);
  });

  it('fails its viewers when the transport cannot start, and ends', async () => {
    const producer = new ScreencastProducer({
      sessionId: 's1',
      windowId: 'w1',
      options: OPTIONS,
      start: () => Promise.reject(new Error('no screencast here')),
      onEnd: () => {},
    });
    const viewer = producer.join();
    await expect(producer.started).rejects.toThrow('no screencast here');
    expect(producer.ended).toBe(true);
    expect(viewer.closed).toBe(true);
  });
});
