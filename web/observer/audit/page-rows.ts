import type { AuditRecord, PagedRecord } from './audit-trail.js';
import { AUDIT_PAGE_SIZE } from './page-starts.js';

/** The page shown: its rows, whether a newer page follows, and whether it is the last page known. */
export interface ShownPage {
  readonly rows: readonly PagedRecord[];
  readonly hasNext: boolean;
  readonly onLastPage: boolean;
}

/** What a record streamed in does to the page shown; `shown` when the page's read already took it. */
export type LivePlacement = 'appended' | 'starts-next-page' | 'arrived' | 'shown';

/**
 * Whether cursor `a` comes after `b` in the trail. Cursors are digits: seqs without a cluster, numbers in the
 * cluster's audit stream in its merged trail. Never a record's seq in a cluster: each replica counts its own,
 * so they repeat, and they are not the stream's order.
 */
const follows = (a: string, b: string): boolean => Number(a) > Number(b);

/**
 * A record the `audit` subscription delivered, with its cursor in the trail the view pages through: in a
 * cluster the delivery's `cursor` (its number in the audit stream, as the merged trail's edges have it);
 * without one the subscription has no cursor and the trail's cursor is the seq.
 */
export function liveRecord(event: { cursor?: string | null; record: AuditRecord }): PagedRecord {
  return { ...event.record, cursor: event.cursor ?? String(event.record.seq) };
}

/**
 * The rows of a page read `after` a cursor: what the read found, then, at the end of the trail, the records
 * streamed in while it was read that came after it; `nextAfter`, where a newer page starts (null: none).
 */
export function fillPage(
  read: readonly PagedRecord[],
  hasNextPage: boolean,
  after: string | null,
  heldBack: readonly PagedRecord[],
): { rows: PagedRecord[]; nextAfter: string | null } {
  const end = read.at(-1)?.cursor ?? after;
  const missed = hasNextPage ? [] : heldBack.filter((record) => end === null || follows(record.cursor, end));
  const shown = [...read, ...missed];
  const rows = shown.slice(0, AUDIT_PAGE_SIZE);
  const more = hasNextPage || shown.length > AUDIT_PAGE_SIZE;
  return { rows, nextAfter: more ? (rows.at(-1)?.cursor ?? after) : null };
}

/**
 * Where a record streamed in goes: onto the last page while it has room; past a full last page, it starts
 * the next (after the page's last row) and counts as arrived; past an older page, it counts as arrived.
 */
export function placeLive(page: ShownPage, record: PagedRecord): LivePlacement {
  if (!page.onLastPage) return 'arrived';
  const last = page.rows.at(-1);
  if (last && !follows(record.cursor, last.cursor)) return 'shown';
  if (page.rows.length < AUDIT_PAGE_SIZE) return 'appended';
  return 'starts-next-page';
}
