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
 * events that never reached the stream (its `missedBefore`), and entries this subscriber's filter refused
 * after such a loss — is counted in that delivery's `droppedBefore`. Ending it ends its StreamFeed at once.
 */
export class ClusterTopicFeed<T, U> implements AsyncIterableIterator<CursoredDelivery<U>> {
  readonly #feed: StreamFeed<TopicEntry<T>>;
  readonly #request: TopicFeedRequest<T, U>;

  private constructor(feed: StreamFeed<TopicEntry<T>>, request: TopicFeedRequest<T, U>) {
    this.#feed = feed;
    this.#request = request;
  }

  static async open<T, U>(
    streams: EventStreams,
    request: TopicFeedRequest<T, U>,
  ): Promise<ClusterTopicFeed<T, U>> {
    const feed = await StreamFeed.open(streams, {
      stream: clusterStreamOf(request.topic),
      after: request.after,
      decode: (json) => JSON.parse(json) as TopicEntry<T>,
      accepts: () => true,
    });
    return new ClusterTopicFeed(feed, request);
  }

  async next(): Promise<IteratorResult<CursoredDelivery<U>>> {
    let dropped = 0;
    for (;;) {
      const result = await this.#feed.next();
      if (result.done) return { value: undefined, done: true };
      const { event: entry, droppedBefore, cursor } = result.value;
      dropped += droppedBefore + entry.missedBefore;
      const event = this.#request.shape(entry.event, entry.replica);
      if (!this.#request.accepts(event)) continue;
      return { value: { event, droppedBefore: dropped, ...(cursor ? { cursor } : {}) }, done: false };
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
