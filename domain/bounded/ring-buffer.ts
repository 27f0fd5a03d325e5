/**
 * A fixed-capacity buffer that keeps the newest items. `overflowed` counts what was pushed out, so a
 * reader always knows whether it is seeing everything.
 */
export class RingBuffer<T> {
  readonly capacity: number;
  #items: (T | undefined)[];
  #start = 0;
  #size = 0;
  #overflowed = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    this.capacity = capacity;
    this.#items = new Array(capacity);
  }

  push(item: T): void {
    if (this.#size < this.capacity) {
      this.#items[(this.#start + this.#size) % this.capacity] = item;
      this.#size += 1;
      return;
    }
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.capacity;
    this.#overflowed += 1;
  }

  get size(): number {
    return this.#size;
  }

  get overflowed(): number {
    return this.#overflowed;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = new Array(this.#size);
    for (let i = 0; i < this.#size; i += 1) out[i] = this.#items[(this.#start + i) % this.capacity] as T;
    return out;
  }
}
