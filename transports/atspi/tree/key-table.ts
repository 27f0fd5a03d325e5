import type { AccessibleRef } from '../bus/atspi-bus.js';

/**
 * Walker keys for accessible objects. The window-driver contract names elements by number; AT-SPI names
 * them by bus name and object path. One table per application hands each object one key for its life
 * in that application, so a ref stays the same across re-reads while the object lives.
 */
export class KeyTable {
  readonly #keys = new Map<string, number>();
  readonly #refs = new Map<number, AccessibleRef>();
  #next = 1;

  keyOf(ref: AccessibleRef): number {
    const id = `${ref.busName}${ref.path}`;
    let key = this.#keys.get(id);
    if (key === undefined) {
      key = this.#next++;
      this.#keys.set(id, key);
      this.#refs.set(key, ref);
    }
    return key;
  }

  refOf(key: number): AccessibleRef | undefined {
    return this.#refs.get(key);
  }

  /** Forgets an object that has left its application; returns its key when it had one. */
  forget(ref: AccessibleRef): number | undefined {
    const id = `${ref.busName}${ref.path}`;
    const key = this.#keys.get(id);
    if (key === undefined) return undefined;
    this.#keys.delete(id);
    this.#refs.delete(key);
    return key;
  }
}
