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
  /** Called once when the feed ends, whoever ends it. */
  readonly closed?: () => void;
}

/** How a feed ends once its stream can get no more events: with one last event, or with an error. */
export type FeedEnding<T> = { readonly event: T } | { readonly error: Error };

/**
 * One subscriber's reading of a session's stream, as an async iterator. It reads only when its consumer
 * asks for more, so a slow consumer holds nothing: what the stream trimmed meanwhile is reported as
 * `droppedBefore` on the next delivery (the numbers are dense: a hole is a loss). Ending it (`return`)
 * closes its connection, and a read under way ends with it; a failing read ends it with the store's error.
 * Told that its stream's writer is gone (`end`), it delivers what the stream still holds, then its ending.
 */
export class StreamFeed<T> implements AsyncIterableIterator<CursoredDelivery<T>> {
  readonly #reader: StreamReader;
  readonly #request: FeedRequest<T>;
  #after: number;
  #ready: CursoredDelivery<T>[] = [];
  #dropped = 0;
  #closed = false;
  #readerClosed = false;
  #ending: { readonly final: number; readonly ending: FeedEnding<T> } | undefined;

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
      if (this.#ending && this.#endsNow()) return this.#finish(this.#ending.ending);
      await this.#readMore();
    }
    return { value: undefined, done: true };
  }

  return(): Promise<IteratorResult<CursoredDelivery<T>>> {
    this.#close();
    return Promise.resolve({ value: undefined, done: true });
  }

  /**
   * No event will follow number `final` (the stream's writer is gone): the feed delivers up to it, then
   * `ending`. A read waiting for more is cut short.
   */
  end(final: number, ending: FeedEnding<T>): void {
    if (this.#closed || this.#ending) return;
    this.#ending = { final, ending };
    if (this.#after >= final) this.#closeReader();
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
      if (this.#closed || this.#endsNow()) return;
      this.#close();
      throw error;
    }
    // A stream that ends short of `final` (it expired meanwhile) has nothing more to give.
    if (events.length === 0 && this.#ending) {
      this.#dropped += Math.max(0, this.#ending.final - this.#after);
      this.#after = this.#ending.final;
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

  #endsNow(): boolean {
    return this.#ending !== undefined && this.#after >= this.#ending.final;
  }

  #finish(ending: FeedEnding<T>): IteratorResult<CursoredDelivery<T>> {
    const droppedBefore = this.#dropped;
    this.#close();
    if ('error' in ending) throw ending.error;
    return { value: { event: ending.event, droppedBefore }, done: false };
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready = [];
    this.#closeReader();
    this.#request.closed?.();
  }

  #closeReader(): void {
    if (this.#readerClosed) return;
    this.#readerClosed = true;
    this.#reader.close();
  }
}
