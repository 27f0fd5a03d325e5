import type { ConsoleMessage, ConsoleSource } from '../../transports/contract/transport.js';
import { RingBuffer } from '../bounded/ring-buffer.js';

/** Console entries kept per session; older ones are dropped and counted in `overflowed`. */
export const CONSOLE_CAPACITY = 1_000;

export interface ConsoleEntry {
  /** Per-session sequence number: strictly increasing, so `afterSeq` resumes reading without gaps or repeats. */
  readonly seq: number;
  readonly sessionId: string;
  readonly time: Date;
  readonly type: string;
  readonly text: string;
  readonly source: ConsoleSource;
  readonly windowId: string | null;
  readonly location: string | null;
}

/** Filters on console entries; absent or null means "any". */
export interface ConsoleQuery {
  readonly afterSeq?: number | null;
  readonly last?: number | null;
  readonly types?: readonly string[] | null;
  readonly windowId?: string | null;
  readonly textContains?: string | null;
  /** Only entries logged at or after this instant. */
  readonly since?: Date | null;
}

export interface ConsoleSnapshot {
  readonly entries: ConsoleEntry[];
  readonly overflowed: number;
  readonly total: number;
}

export function matchesConsoleQuery(entry: ConsoleEntry, query: ConsoleQuery): boolean {
  if (query.afterSeq != null && entry.seq <= query.afterSeq) return false;
  if (query.types && query.types.length > 0 && !query.types.includes(entry.type)) return false;
  if (query.windowId != null && entry.windowId !== query.windowId) return false;
  if (query.textContains != null && !entry.text.includes(query.textContains)) return false;
  if (query.since != null && entry.time < query.since) return false;
  return true;
}

export class ConsoleLog {
  readonly #sessionId: string;
  readonly #ring = new RingBuffer<ConsoleEntry>(CONSOLE_CAPACITY);
  #seq = 0;

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  append(message: ConsoleMessage): ConsoleEntry {
    this.#seq += 1;
    const entry: ConsoleEntry = {
      seq: this.#seq,
      sessionId: this.#sessionId,
      time: message.time,
      type: message.type,
      text: message.text,
      source: message.source,
      windowId: message.windowId ?? null,
      location: message.location ?? null,
    };
    this.#ring.push(entry);
    return entry;
  }

  get total(): number {
    return this.#seq;
  }

  get overflowed(): number {
    return this.#ring.overflowed;
  }

  read(query: ConsoleQuery): ConsoleEntry[] {
    const matching = this.#ring.toArray().filter((entry) => matchesConsoleQuery(entry, query));
    if (query.last == null) return matching;
    return query.last > 0 ? matching.slice(-query.last) : [];
  }

  snapshot(query: ConsoleQuery): ConsoleSnapshot {
    return { entries: this.read(query), overflowed: this.overflowed, total: this.total };
  }
}
