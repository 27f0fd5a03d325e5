import { type Delivery, deliveryOf } from './delivery.js';

export type { Delivery };

/**
 * One subscriber's bounded queue, consumed as an async iterator. When the subscriber does not read fast
 * enough the oldest events are dropped (never the process's memory grown); the next delivery reports
 * how many were lost. Closing (by the consumer's `return`, or by `close`) runs `onClose` exactly once.
 */
export class SubscriberQueue<T> implements AsyncIterableIterator<Delivery<T>> {
  readonly capacity: number;
  #events: T[] = [];
  #head = 0;
  #droppedSinceLastDelivery = 0;
  #droppedTotal = 0;
  #waiting: ((result: IteratorResult<Delivery<T>>) => void) | undefined;
  #closed = false;
  #onClose: (() => void) | undefined;

  constructor(capacity: number, onClose?: () => void) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    this.capacity = capacity;
    this.#onClose = onClose;
  }

  get pending(): number {
    return this.#events.length - this.#head;
  }

  get droppedTotal(): number {
    return this.#droppedTotal;
  }

  get closed(): boolean {
    return this.#closed;
  }

  push(event: T): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: this.#deliver(event), done: false });
      return;
    }
    if (this.pending >= this.capacity) {
      this.#head += 1;
      this.#droppedSinceLastDelivery += 1;
      this.#droppedTotal += 1;
    }
    this.#events.push(event);
    this.#compact();
  }

  next(): Promise<IteratorResult<Delivery<T>>> {
    if (this.pending > 0) {
      const event = this.#events[this.#head] as T;
      this.#head += 1;
      this.#compact();
      return Promise.resolve({ value: this.#deliver(event), done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<Delivery<T>>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#events = [];
    this.#head = 0;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #deliver(event: T): Delivery<T> {
    const droppedBefore = this.#droppedSinceLastDelivery;
    this.#droppedSinceLastDelivery = 0;
    return deliveryOf(event, droppedBefore);
  }

  /** Reclaims the consumed prefix once it dominates, keeping pushes O(1) amortised. */
  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#events.length) {
      this.#events = this.#events.slice(this.#head);
      this.#head = 0;
    }
  }
}
