import type { Delivery } from '../bounded/delivery.js';
import type { EventStreams, StreamReader } from './event-streams.js';

/** A delivery that says where it sits in its session's stream, so a subscriber can resume after it. */
export interface CursoredDelivery<T> extends Delivery<T> {
  readonly cursor?: string;
}

/** The longest one read waits for an event; the feed then reads again, or stops if it was ended. */
export const READ_WAIT_MS = 5_000;

export interface FeedRequest<T> {
  readonly stream: string;
  /** Deliver the events after this number; null: only those appended from now on. */
  readonly after: number | null;
  readonly decode: (json: string) => T;
  readonly accepts: (event: T) => boolean;
}

/**
 * One subscriber's reading of a session's stream, as an async iterator. It reads only when its consumer
 * asks for more, so a slow consumer holds nothing: what the stream trimmed meanwhile is reported as
 * `droppedBefore` on the next delivery (the numbers are dense: a hole is a loss). Ending it (`return`)
 * closes its connection, and a read under way ends with it; a failing read ends it with the store's error.
 */
export class StreamFeed<T> implements AsyncIterableIterator<CursoredDelivery<T>> {
  readonly #reader: StreamReader;
  readonly #request: FeedRequest<T>;
  #after: number;
  #ready: CursoredDelivery<T>[] = [];
  #dropped = 0;
  #closed = false;

  private constructor(reader: StreamReader, request: FeedRequest<T>, after: number) {
    this.#reader = reader;
    this.#request = request;
    this.#after = after;
  }

  /** Opens a reader and fixes where reading starts, so nothing appended after this call is missed. */
  static async open<T>(streams: EventStreams, request: FeedRequest<T>): Promise<StreamFeed<T>> {
    const after = request.after ?? (await streams.newest(request.stream));
    return new StreamFeed(await streams.openReader(), request, after);
  }

  async next(): Promise<IteratorResult<CursoredDelivery<T>>> {
    while (!this.#closed) {
      const ready = this.#ready.shift();
      if (ready) return { value: ready, done: false };
      await this.#readMore();
    }
    return { value: undefined, done: true };
  }

  return(): Promise<IteratorResult<CursoredDelivery<T>>> {
    this.#close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async #readMore(): Promise<void> {
    const { stream, decode, accepts } = this.#request;
    let events: Awaited<ReturnType<StreamReader['read']>>;
    try {
      events = await this.#reader.read(stream, this.#after, READ_WAIT_MS);
    } catch (error) {
      if (this.#closed) return;
      this.#close();
      throw error;
    }
    for (const { number, json } of events) {
      this.#dropped += number - this.#after - 1;
      this.#after = number;
      const event = decode(json);
      if (!accepts(event)) continue;
      this.#ready.push({ event, droppedBefore: this.#dropped, cursor: String(number) });
      this.#dropped = 0;
    }
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready = [];
    this.#reader.close();
  }
}
