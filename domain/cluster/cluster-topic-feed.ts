import type { ClusterTopic, TopicEntry } from './cluster-topic-writer.js';
import { clusterStreamOf, type EventStreams } from './event-streams.js';
import { type CursoredDelivery, StreamFeed } from './stream-feed.js';

export interface TopicFeedRequest<T, U> {
  readonly topic: ClusterTopic;
  /** Deliver the events after this number; null: only those appended from now on. */
  readonly after: number | null;
  /** The delivered event, made of what the stream holds: the event as written, and its replica. */
  readonly shape: (event: T, replica: string) => U;
  readonly accepts: (event: U) => boolean;
}

/**
 * One subscriber's reading of a cluster-wide topic's stream: a StreamFeed of its entries, each shaped with
 * its replica. What was lost before a delivery — a hole in the stream's numbers (trimmed), a writer's
 * events that never reached the stream (its `missedBefore`), a stream the store lost, and entries this
 * subscriber's filter refused after such a loss — is counted in that delivery's `droppedBefore`. Ending
 * it ends its StreamFeed at once.
 */
export class ClusterTopicFeed<T, U> implements AsyncIterableIterator<CursoredDelivery<U>> {
  readonly #feed: StreamFeed<TopicEntry<T>>;
  readonly #request: TopicFeedRequest<T, U>;
  /** Lost before the next delivery, beyond what the stream's numbers show. */
  #lost: number;

  private constructor(feed: StreamFeed<TopicEntry<T>>, request: TopicFeedRequest<T, U>, lost: number) {
    this.#feed = feed;
    this.#request = request;
    this.#lost = lost;
  }

  static async open<T, U>(
    streams: EventStreams,
    request: TopicFeedRequest<T, U>,
  ): Promise<ClusterTopicFeed<T, U>> {
    const stream = clusterStreamOf(request.topic);
    // The store numbers the entries, so a store that lost the stream (a Redis restarted empty) numbers
    // from 1 again: a cursor past its newest entry is one of the lost stream. Read the new one from its
    // start, and count the events lost with the old one as one at least, since nobody can count them.
    const reset = request.after !== null && request.after > (await streams.newest(stream));
    const feed = await StreamFeed.open(streams, {
      stream,
      after: reset ? 0 : request.after,
      decode: (json) => JSON.parse(json) as TopicEntry<T>,
      accepts: () => true,
    });
    return new ClusterTopicFeed(feed, request, reset ? 1 : 0);
  }

  async next(): Promise<IteratorResult<CursoredDelivery<U>>> {
    for (;;) {
      const result = await this.#feed.next();
      if (result.done) return { value: undefined, done: true };
      const { event: entry, droppedBefore, cursor } = result.value;
      this.#lost += droppedBefore + entry.missedBefore;
      const event = this.#request.shape(entry.event, entry.replica);
      if (!this.#request.accepts(event)) continue;
      const delivery = { event, droppedBefore: this.#lost, ...(cursor ? { cursor } : {}) };
      this.#lost = 0;
      return { value: delivery, done: false };
    }
  }

  async return(): Promise<IteratorResult<CursoredDelivery<U>>> {
    await this.#feed.return();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
