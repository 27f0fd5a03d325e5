/**
 * Records kept in memory while the folder cannot be written. They belong to the operations in flight when it
 * failed (new ones are refused before they act), so this is far above what a gateway holds; past it a record
 * is lost, and counted in the log line that reports the folder writable again.
 */
export const MAX_HELD_AUDIT_RECORDS = 1_000;

/** Records of operations that acted while the audit folder could not be written, oldest first. */
export class HeldRecords<T> {
  #items: T[] = [];
  #lost = 0;

  get size(): number {
    return this.#items.length;
  }

  hold(item: T): void {
    if (this.#items.length < MAX_HELD_AUDIT_RECORDS) this.#items.push(item);
    else this.#lost += 1;
  }

  /** All of them, to be written first, and how many were lost past the limit since the last take. */
  take(): { readonly items: T[]; readonly lost: number } {
    const taken = { items: this.#items, lost: this.#lost };
    this.#items = [];
    this.#lost = 0;
    return taken;
  }
}
