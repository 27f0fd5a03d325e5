import { RingBuffer } from './ring-buffer.js';

/** An entry of a sequenced log: its per-session sequence number, strictly increasing. */
export interface Sequenced {
  readonly seq: number;
}

export interface SequencedRead {
  /** Only entries after this sequence number: resume reading without gaps or repeats. */
  readonly afterSeq?: number | null;
  /** Only the newest N matching entries. */
  readonly last?: number | null;
}

export interface LogSnapshot<T> {
  readonly entries: T[];
  /** Entries pushed out of the ring so far. */
  readonly overflowed: number;
  /** Entries ever appended. */
  readonly total: number;
}

/** A bounded ring of entries numbered as they arrive, read oldest first through a filter. */
export class SequencedLog<T extends Sequenced> {
  readonly #ring: RingBuffer<T>;
  #seq = 0;

  constructor(capacity: number) {
    this.#ring = new RingBuffer<T>(capacity);
  }

  append(make: (seq: number) => T): T {
    this.#seq += 1;
    const entry = make(this.#seq);
    this.#ring.push(entry);
    return entry;
  }

  /** Entries pushed out of the ring so far. */
  get overflowed(): number {
    return this.#ring.overflowed;
  }

  snapshot(read: SequencedRead, matches: (entry: T) => boolean = () => true): LogSnapshot<T> {
    const after = read.afterSeq ?? 0;
    const matching = this.#ring.toArray().filter((entry) => entry.seq > after && matches(entry));
    const entries = read.last == null ? matching : read.last > 0 ? matching.slice(-read.last) : ([] as T[]);
    return { entries, overflowed: this.overflowed, total: this.#seq };
  }
}
