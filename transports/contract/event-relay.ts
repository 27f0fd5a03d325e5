/**
 * Events waiting for a session's first listener are kept up to this many (the oldest go first): enough for
 * the windows, console lines and output of a start-up, bounded for an app that floods before anyone reads.
 */
export const EARLY_EVENT_LIMIT = 1_000;

/**
 * Fans a transport session's events out to its listeners. A session emits as soon as it exists (its first
 * windows, a launched process's first output), before its owner has subscribed: those events wait, bounded,
 * and go to the first listener, so nothing is lost in between.
 */
export class EventRelay<E> {
  readonly #listeners = new Set<(event: E) => void>();
  #early: E[] = [];
  #closed = false;

  emit(event: E): void {
    if (this.#closed) return;
    if (this.#listeners.size === 0) {
      this.#early.push(event);
      if (this.#early.length > EARLY_EVENT_LIMIT) this.#early.shift();
      return;
    }
    for (const listener of this.#listeners) listener(event);
  }

  on(listener: (event: E) => void): () => void {
    this.#listeners.add(listener);
    const early = this.#early;
    this.#early = [];
    for (const event of early) listener(event);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#early = [];
  }
}
