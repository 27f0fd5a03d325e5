import type { EventPort, TopicHandlers, TransportEvent } from './transport-events.js';

/**
 * Events waiting for a session's first subscription are kept up to this many (the oldest go first): enough
 * for the windows, console lines and output of a start-up, bounded for an app that floods before anyone reads.
 */
export const EARLY_EVENT_LIMIT = 1_000;

/**
 * A transport session's event port. A session emits as soon as it exists (its first windows, a launched
 * process's first output), before its owner has subscribed: those events wait, bounded, and go to the
 * first subscription, so nothing is lost in between.
 */
export class EventRelay implements EventPort {
  readonly #subscriptions = new Set<readonly TopicHandlers[]>();
  #early: TransportEvent[] = [];
  #closed = false;

  emit(event: TransportEvent): void {
    if (this.#closed) return;
    if (this.#subscriptions.size === 0) {
      this.#early.push(event);
      if (this.#early.length > EARLY_EVENT_LIMIT) this.#early.shift();
      return;
    }
    for (const subscribers of this.#subscriptions) deliver(subscribers, event);
  }

  subscribe(subscribers: readonly TopicHandlers[]): () => void {
    const own = [...subscribers];
    this.#subscriptions.add(own);
    const early = this.#early;
    this.#early = [];
    for (const event of early) deliver(own, event);
    return () => this.#subscriptions.delete(own);
  }

  close(): void {
    this.#closed = true;
    this.#subscriptions.clear();
    this.#early = [];
  }
}

function deliver(subscribers: readonly TopicHandlers[], event: TransportEvent): void {
  for (const handlers of subscribers) {
    // TopicHandlers pairs each topic with its own event type; indexing by a union topic loses that pairing.
    const handler = handlers[event.type] as ((event: TransportEvent) => void) | undefined;
    handler?.(event);
  }
}
