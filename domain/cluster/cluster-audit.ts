import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { AuditLog } from '../audit/audit-log.js';
import {
  type AuditFilter,
  type AuditPage,
  type AuditQuery,
  clampAuditPage,
  matchesAuditFilter,
} from '../audit/audit-query.js';
import type { AuditRecord } from '../audit/audit-record.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import type { ClusterEvents } from './cluster-events.js';
import type { ClusterTopicFeed } from './cluster-topic-feed.js';
import type { TopicEntry } from './cluster-topic-writer.js';
import { streamCursor } from './event-streams.js';

/**
 * A record as a cluster shows it: with the replica whose chain holds it (absent: the one answering), and
 * read from the cluster's audit stream, its number there (its cursor in the merged trail).
 */
export type ReplicaAuditRecord = AuditRecord & { readonly replica?: string; readonly cursor?: number };

/** Stream entries one page read takes at a time; a filter that matches few reads on, to the stream's end. */
const PAGE_READ_COUNT = 500;

/** The audit subscription's feed: this log's queue without a cluster; the cluster's audit stream with one. */
export type AuditFeed =
  | SubscriberQueue<ReplicaAuditRecord>
  | Promise<ClusterTopicFeed<AuditRecord, ReplicaAuditRecord>>;

/**
 * `audit` (subscription): without a cluster, the records this log seals from now on; in a cluster, every
 * replica's records as the cluster's audit stream took them, from now on or after the cursor `after`.
 */
export function auditFeed(
  audit: Pick<AuditLog, 'subscribe'>,
  clusterEvents: ClusterEvents | null | undefined,
  filter: AuditFilter | null,
  after: string | null | undefined,
): AuditFeed {
  if (!clusterEvents) {
    if (after != null)
      throw new StagegraphError(
        'BAD_INPUT',
        '`after` resumes the audit stream of a cluster; this gateway runs without --cluster. Read `audit(after:)` (the query) to resume.',
      );
    return audit.subscribe(filter);
  }
  return clusterEvents.topicFeed<AuditRecord, ReplicaAuditRecord>({
    topic: 'audit',
    after: streamCursor(after),
    shape: (record, replica) => ({ ...record, replica }),
    accepts: (record) => matchesAuditFilter(record, filter),
  });
}

/** A page of the merged trail, with what the stream had already trimmed where the page starts. */
export interface MergedAuditPage extends AuditPage {
  /**
   * Entries the stream numbered after `after` (0: its start) but no longer holds, before this page's
   * first record: any replica's, matching the filter or not.
   */
  readonly trimmedBefore: number;
}

/**
 * `audit` without `replica` in a cluster: every replica's records, oldest first, as the cluster's audit
 * stream holds them (its newest --cluster-stream-bound). A page is `first` matching records after the
 * stream number `after`; the stream is read in chunks until the page is full or the stream ends, so a page
 * costs at most one pass over the stream. The store numbers the entries densely and trims only the oldest,
 * so a hole in the numbers is exactly what it trimmed: counted when it comes before the page's first record,
 * and otherwise ending the page there, so that the next page starts at the hole and counts it.
 */
export async function clusterAuditPage(
  clusterEvents: ClusterEvents,
  query: AuditQuery,
): Promise<MergedAuditPage> {
  const first = clampAuditPage(query.first);
  const records: ReplicaAuditRecord[] = [];
  let trimmedBefore = 0;
  const page = (hasNextPage: boolean): MergedAuditPage => ({
    records,
    hasNextPage,
    endCursor: records.at(-1)?.cursor ?? null,
    trimmedBefore,
  });
  let after = query.after ?? 0;
  for (;;) {
    const entries = await clusterEvents.topicEntries('audit', after, PAGE_READ_COUNT);
    for (const { number, json } of entries) {
      const trimmed = number - after - 1;
      after = number;
      if (trimmed > 0 && records.length > 0) return page(true);
      trimmedBefore += trimmed;
      const { replica, event } = JSON.parse(json) as TopicEntry<AuditRecord>;
      const record: ReplicaAuditRecord = { ...event, replica, cursor: number };
      if (!matchesAuditFilter(record, query.filter)) continue;
      if (records.length === first) return page(true);
      records.push(record);
    }
    if (entries.length < PAGE_READ_COUNT) return page(false);
  }
}
