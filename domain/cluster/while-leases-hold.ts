/** Entries kept at most: one per session (or sender) asked about while its owner's lease holds. */
export const MAX_REMEMBERED = 4_096;

/**
 * Answers read from the store, remembered until a moment (monotonic clock) before which the store
 * cannot have changed them: the lease the answer rests on (a replica UP with `n` ms of its lease left
 * cannot be reaped for `n` ms) and this replica's own lease (while it holds, no reaper has fenced it).
 * Bounded by count: past MAX_REMEMBERED the oldest is forgotten, and read again when next asked.
 */
export class WhileLeasesHold<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly until: number }>();
  readonly #max: number;

  constructor(max = MAX_REMEMBERED) {
    this.#max = max;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value remembered for `key` while `now` is before its moment; undefined otherwise. */
  get(key: string, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now < entry.until) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /** Remembers `value` until `until`; a moment already past forgets what was remembered. */
  remember(key: string, value: V, until: number, now: number): void {
    this.#entries.delete(key);
    if (until <= now) return;
    this.#entries.set(key, { value, until });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#max) break;
      this.#entries.delete(oldest);
    }
  }

  /** Forgets every value `matches`: one pass, on a failure only. */
  forgetWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }
}
