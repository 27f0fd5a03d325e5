import { StagegraphError } from '../../errors/stagegraph-error.js';
import { type ClientKey, ClientShares, type Release } from '../bounded/client-shares.js';
import { SubscriberQueue } from '../bounded/subscriber-queue.js';

/**
 * Events a subscriber may queue before the oldest are dropped. Large enough to ride out a burst of
 * console output between two reads of a healthy client, small enough that a stalled one costs little.
 */
export const SUBSCRIBER_QUEUE_CAPACITY = 1_000;

/** Live subscriptions the hub accepts in all; each holds at most one full queue of memory. */
export const MAX_SUBSCRIBERS = 2_000;
/**
 * Subscriptions one client may hold (a client: see server/client-subscriptions.ts): a quarter of the
 * server's, so that it takes four clients, not one, to fill the server, and a client at its share has
 * far more than any observer page or agent opens (tens).
 */
export const MAX_SUBSCRIPTIONS_PER_CLIENT = MAX_SUBSCRIBERS / 4;

interface Subscriber<T> {
  readonly queue: SubscriberQueue<T>;
  readonly accepts: (event: T) => boolean;
}

export interface SubscribeOptions<T> {
  accepts?: (event: T) => boolean;
  capacity?: number;
}

/**
 * Fan-out of typed topics to bounded per-subscriber queues. Publishing never blocks and never grows
 * memory past `capacity` per subscriber; the cost of a slow observer is borne by that observer alone.
 */
export class EventHub<Topics extends Record<string, unknown>> {
  #subscribers: { [K in keyof Topics]?: Set<Subscriber<Topics[K]>> } = {};
  #observers: { [K in keyof Topics]?: Set<(event: Topics[K]) => void> } = {};
  #count = 0;
  readonly #clients = new ClientShares('subscriptions', MAX_SUBSCRIPTIONS_PER_CLIENT, MAX_SUBSCRIBERS);

  get subscriberCount(): number {
    return this.#count;
  }

  /**
   * Charges one subscription to the client that opens it (each of its keys), before it subscribes, or
   * throws CLIENT_LIMIT; the release ends the charge when the subscription ends. Charged per operation,
   * where clients are known (the server), not per `subscribe` here: one operation may watch several
   * topics, or none of this hub's.
   */
  admit(client: readonly ClientKey[]): Release {
    return this.#clients.take(client);
  }

  subscribe<K extends keyof Topics>(
    topic: K,
    options: SubscribeOptions<Topics[K]> = {},
  ): SubscriberQueue<Topics[K]> {
    if (this.#count >= MAX_SUBSCRIBERS) {
      throw new StagegraphError(
        'SUBSCRIPTION_LIMIT',
        `This server already holds ${MAX_SUBSCRIBERS} subscriptions.`,
        { details: { serverLimit: MAX_SUBSCRIBERS } },
      );
    }
    const subscribers = this.#subscribers[topic] ?? new Set<Subscriber<Topics[K]>>();
    this.#subscribers[topic] = subscribers;
    const subscriber: Subscriber<Topics[K]> = {
      accepts: options.accepts ?? (() => true),
      queue: new SubscriberQueue<Topics[K]>(options.capacity ?? SUBSCRIBER_QUEUE_CAPACITY, () => {
        subscribers.delete(subscriber);
        this.#count -= 1;
      }),
    };
    subscribers.add(subscriber);
    this.#count += 1;
    return subscriber.queue;
  }

  /**
   * Runs `listener` synchronously at every publish of `topic`, before any subscriber can read the event:
   * for what must tag an event as it is published (the cluster numbers it in its session's stream, and
   * local subscribers read that number). Not a subscription: never counted, never queued. Returns its removal.
   */
  observe<K extends keyof Topics>(topic: K, listener: (event: Topics[K]) => void): () => void {
    const observers = this.#observers[topic] ?? new Set<(event: Topics[K]) => void>();
    this.#observers[topic] = observers;
    observers.add(listener);
    return () => observers.delete(listener);
  }

  publish<K extends keyof Topics>(topic: K, event: Topics[K]): void {
    for (const observer of this.#observers[topic] ?? []) observer(event);
    for (const subscriber of this.#subscribers[topic] ?? []) {
      if (subscriber.accepts(event)) subscriber.queue.push(event);
    }
  }

  /** Ends every subscription (server shutdown): each consumer sees its iterator finish. */
  closeAll(): void {
    for (const topic of Object.keys(this.#subscribers) as (keyof Topics)[]) {
      for (const subscriber of [...(this.#subscribers[topic] ?? [])]) subscriber.queue.close();
    }
  }
}
