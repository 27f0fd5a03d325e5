import type {
  ConsoleMessage,
  ConsoleSource,
  TopicHandlers,
} from '../../transports/contract/transport-events.js';
import { type LogSnapshot, SequencedLog, type SequencedRead } from '../bounded/sequenced-log.js';
import type { EventHub } from '../events/event-hub.js';

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

/** Which console entries to read; absent or null means "any". */
export interface ConsoleFilter {
  readonly types?: readonly string[] | null;
  readonly windowId?: string | null;
  readonly textContains?: string | null;
  /**
   * The text as the reader is shown it (scrubbed for a reader who does not read in clear): `textContains`
   * matches that, so a filter cannot find what the reader is not shown. As logged when absent.
   */
  readonly shownText?: (text: string) => string;
  /** Only entries logged at or after this instant. */
  readonly since?: Date | null;
}

/** A read of the console log: a filter, and where in the sequence to read. */
export interface ConsoleQuery extends ConsoleFilter, SequencedRead {}

export type ConsoleSnapshot = LogSnapshot<ConsoleEntry>;

export function matchesConsoleFilter(entry: ConsoleEntry, filter: ConsoleFilter): boolean {
  if (filter.types && filter.types.length > 0 && !filter.types.includes(entry.type)) return false;
  if (filter.windowId != null && entry.windowId !== filter.windowId) return false;
  if (
    filter.textContains != null &&
    !(filter.shownText?.(entry.text) ?? entry.text).includes(filter.textContains)
  )
    return false;
  if (filter.since != null && entry.time < filter.since) return false;
  return true;
}

/** The hub topic console lines are published on. */
export type ConsoleTopics = {
  console: ConsoleEntry;
};

export class ConsoleLog {
  readonly #sessionId: string;
  readonly #log = new SequencedLog<ConsoleEntry>(CONSOLE_CAPACITY);

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
  }

  append(message: ConsoleMessage): ConsoleEntry {
    return this.#log.append((seq) => ({
      seq,
      sessionId: this.#sessionId,
      time: message.time,
      type: message.type,
      text: message.text,
      source: message.source,
      windowId: message.windowId ?? null,
      location: message.location ?? null,
    }));
  }

  /** The transport topic the console owns: each line kept, then published. */
  topics(hub: EventHub<ConsoleTopics>): TopicHandlers {
    return { console: (event) => hub.publish('console', this.append(event.message)) };
  }

  read(query: ConsoleQuery): ConsoleEntry[] {
    return this.snapshot(query).entries;
  }

  snapshot(query: ConsoleQuery): ConsoleSnapshot {
    return this.#log.snapshot(query, (entry) => matchesConsoleFilter(entry, query));
  }
}
