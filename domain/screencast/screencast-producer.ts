import type {
  ScreencastHandle,
  ScreencastImage,
  ScreencastOptions,
} from '../../transports/contract/screencast-contract.js';
import { SubscriberQueue } from '../bounded/subscriber-queue.js';
import { FrameThrottle } from './frame-throttle.js';

/** One frame of a window's live view, as every viewer of its producer receives it. */
export interface ScreencastFrame extends ScreencastImage {
  readonly sessionId: string;
  readonly windowId: string;
  /** 1 for the producer's first frame, one more for each after it. */
  readonly seq: number;
  readonly mimeType: 'image/jpeg';
}

/**
 * Frames a viewer may hold unread: one. A newer frame replaces an unread one (the viewer's next frame
 * counts it in `droppedBefore`), so a viewer that stops reading holds one frame and slows no one.
 */
export const VIEWER_SLOT_FRAMES = 1;

export interface ProducerSetup {
  readonly sessionId: string;
  readonly windowId: string;
  readonly options: ScreencastOptions;
  /** Starts the transport's screencast; its frames are throttled here to `options.maxFps`. */
  readonly start: (onFrame: (image: ScreencastImage) => void) => Promise<ScreencastHandle>;
  /** Called once when the producer ends (its last viewer left, or its window or session ended). */
  readonly onEnd: () => void;
}

/**
 * One running screencast of one window with one set of options, shared by all its viewers. It starts with
 * its first viewer and stops when the last one leaves; each viewer has a one-frame slot of its own, and a
 * viewer who joins a running producer gets its latest frame at once.
 */
export class ScreencastProducer {
  /** Settles once the transport's screencast runs (or failed to start). */
  readonly started: Promise<void>;
  readonly #setup: ProducerSetup;
  readonly #viewers = new Set<SubscriberQueue<ScreencastFrame>>();
  readonly #throttle: FrameThrottle<ScreencastImage>;
  readonly #handle: Promise<ScreencastHandle>;
  #last: ScreencastFrame | undefined;
  #seq = 0;
  #ended = false;

  constructor(setup: ProducerSetup) {
    this.#setup = setup;
    this.#throttle = new FrameThrottle(1_000 / setup.options.maxFps, (image) => this.#publish(image));
    this.#handle = startSafely(() => setup.start((image) => this.#throttle.push(image)));
    this.started = this.#handle.then(
      () => undefined,
      (error: unknown) => {
        this.end();
        throw error;
      },
    );
    // A failed start is reported through `started` to whoever awaits it; the handle's own rejection is seen.
    this.#handle.catch(() => undefined);
  }

  get viewerCount(): number {
    return this.#viewers.size;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Frames produced so far (after throttling), the `seq` of the latest. */
  get produced(): number {
    return this.#seq;
  }

  /** A new viewer's slot, holding the latest frame already when there is one; closing it leaves. */
  join(): SubscriberQueue<ScreencastFrame> {
    const slot: SubscriberQueue<ScreencastFrame> = new SubscriberQueue(VIEWER_SLOT_FRAMES, () =>
      this.#leave(slot),
    );
    if (this.#ended) {
      slot.close();
      return slot;
    }
    this.#viewers.add(slot);
    if (this.#last) slot.push(this.#last);
    return slot;
  }

  /** Ends every viewer's stream and stops the transport's screencast. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#throttle.cancel();
    const viewers = [...this.#viewers];
    this.#viewers.clear();
    for (const viewer of viewers) viewer.close();
    this.#last = undefined;
    this.#setup.onEnd();
    void this.#handle.then((handle) => handle.stop()).catch(() => undefined);
  }

  #leave(slot: SubscriberQueue<ScreencastFrame>): void {
    if (!this.#viewers.delete(slot)) return;
    if (this.#viewers.size === 0) this.end();
  }

  #publish(image: ScreencastImage): void {
    if (this.#ended) return;
    this.#seq += 1;
    const frame: ScreencastFrame = {
      ...image,
      sessionId: this.#setup.sessionId,
      windowId: this.#setup.windowId,
      seq: this.#seq,
      mimeType: 'image/jpeg',
    };
    this.#last = frame;
    for (const viewer of this.#viewers) viewer.push(frame);
  }
}

/** A start that throws instead of rejecting fails the same way. */
function startSafely(start: () => Promise<ScreencastHandle>): Promise<ScreencastHandle> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error);
  }
}
