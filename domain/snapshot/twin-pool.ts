/** Items sharing one fingerprint, oldest first; `head` skips the ones already taken. */
class Bucket<T> {
  head = 0;
  constructor(readonly items: T[]) {}
}

/**
 * Detached refs waiting for a twin, by fingerprint, each fingerprint's queue oldest first. Items are not
 * removed when they stop waiting (revived, re-paired elsewhere, forgotten): `isWaiting` skips them on the
 * way out, and the owner calls `clear` and re-adds when `slots` says the dead ones pile up.
 */
export class TwinPool<T extends object> {
  /** Most fingerprints have a single item, held bare to spare an array per detached element. */
  #slots = new Map<string, T | Bucket<T>>();
  #count = 0;
  readonly #isWaiting: (item: T, print: string) => boolean;

  /** `isWaiting` tells whether an item still waits under `print` (it may wait under another one now). */
  constructor(isWaiting: (item: T, print: string) => boolean) {
    this.#isWaiting = isWaiting;
  }

  get isEmpty(): boolean {
    return this.#slots.size === 0;
  }

  /** Items added and not yet taken, dead ones included. */
  get slots(): number {
    return this.#count;
  }

  add(print: string, item: T): void {
    const slot = this.#slots.get(print);
    if (slot === undefined) this.#slots.set(print, item);
    else if (slot instanceof Bucket) slot.items.push(item);
    else this.#slots.set(print, new Bucket([slot, item]));
    this.#count += 1;
  }

  /** The oldest item with this fingerprint that is still waiting. */
  take(print: string): T | undefined {
    const slot = this.#slots.get(print);
    if (slot === undefined) return undefined;
    if (!(slot instanceof Bucket)) {
      this.#slots.delete(print);
      this.#count -= 1;
      return this.#isWaiting(slot, print) ? slot : undefined;
    }
    while (slot.head < slot.items.length) {
      const item = slot.items[slot.head]!;
      slot.head += 1;
      this.#count -= 1;
      if (!this.#isWaiting(item, print)) continue;
      if (slot.head === slot.items.length) this.#slots.delete(print);
      else if (slot.head * 2 > slot.items.length) {
        // Drops the taken prefix once it is most of the array, so a bucket that never empties stays bounded.
        slot.items.splice(0, slot.head);
        slot.head = 0;
      }
      return item;
    }
    this.#slots.delete(print);
    return undefined;
  }

  clear(): void {
    this.#slots = new Map();
    this.#count = 0;
  }
}
