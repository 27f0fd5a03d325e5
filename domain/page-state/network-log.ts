import type { NetworkRecord } from '../../transports/contract/renderer-control.js';
import { SequencedLog } from '../bounded/sequenced-log.js';

/**
 * Network entries kept per session. Entries can carry bodies (up to MAX_BODY_BYTES each), so the ring is
 * smaller than the console's: 500 × two 1 MiB bodies is the worst case a session can hold.
 */
export const NETWORK_CAPACITY = 500;

export interface NetworkEntry extends NetworkRecord {
  readonly seq: number;
  readonly sessionId: string;
}

/** Filters on network entries; absent or null means "any". */
export interface NetworkQuery {
  readonly urlContains?: string | null;
  /**
   * The URL as the reader is shown it (redacted for a reader who does not read in clear): `urlContains`
   * matches that, so a filter cannot find what the reader is not shown. As captured when absent.
   */
  readonly shownUrl?: (url: string) => string;
  readonly methods?: readonly string[] | null;
  readonly resourceTypes?: readonly string[] | null;
  readonly windowId?: string | null;
  readonly failedOnly?: boolean | null;
}

export function matchesNetworkQuery(entry: NetworkEntry, query: NetworkQuery): boolean {
  if (query.urlContains != null && !(query.shownUrl?.(entry.url) ?? entry.url).includes(query.urlContains))
    return false;
  if (query.methods && query.methods.length > 0 && !query.methods.includes(entry.method)) return false;
  if (
    query.resourceTypes &&
    query.resourceTypes.length > 0 &&
    !query.resourceTypes.includes(entry.resourceType)
  )
    return false;
  if (query.windowId != null && entry.windowId !== query.windowId) return false;
  return !(query.failedOnly && entry.failure === null);
}

export class NetworkLog extends SequencedLog<NetworkEntry> {
  readonly #sessionId: string;

  constructor(sessionId: string) {
    super(NETWORK_CAPACITY);
    this.#sessionId = sessionId;
  }

  record(record: NetworkRecord): NetworkEntry {
    return this.append((seq) => ({ ...record, seq, sessionId: this.#sessionId }));
  }
}
