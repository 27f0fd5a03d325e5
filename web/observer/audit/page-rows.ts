import type { AuditRecord, PagedRecord } from './audit-trail.js';
import { AUDIT_PAGE_SIZE } from './page-starts.js';

/** The page shown: its rows, whether a newer page follows, and whether it is the last page known. */
export interface ShownPage {
  readonly rows: readonly PagedRecord[];
  readonly hasNext: boolean;
  readonly onLastPage: boolean;
}

/** What a record streamed in does to the page shown. */
export type LivePlacement = 'appended' | 'starts-next-page' | 'arrived';

/** A record the `audit` subscription delivered, with its cursor in the trail. */
export function liveRecord(event: { cursor?: string | null; record: AuditRecord }): PagedRecord {
  return { ...event.record, cursor: String(event.record.seq) };
}

/**
 * The rows of a page read `after` a cursor: what the read found, then, at the end of the trail, the records
 * streamed in while it was read that it may have missed; `more` when a newer page follows.
 */
export function fillPage(
  read: readonly PagedRecord[],
  hasNextPage: boolean,
  after: string | null,
  heldBack: readonly PagedRecord[],
): { rows: PagedRecord[]; more: boolean } {
  const lastSeq = read.at(-1)?.seq ?? Number(after ?? 0);
  const missed = hasNextPage ? [] : heldBack.filter((record) => record.seq > lastSeq);
  const shown = [...read, ...missed];
  return {
    rows: shown.slice(0, AUDIT_PAGE_SIZE),
    more: hasNextPage || shown.length > AUDIT_PAGE_SIZE,
  };
}

/** Where a record streamed in goes: onto the last page while it has room, else counted as arrived. */
export function placeLive(page: ShownPage, record: PagedRecord): LivePlacement {
  const last = page.rows.at(-1);
  if (!page.onLastPage) return 'arrived';
  if ((!last || record.seq > last.seq) && page.rows.length < AUDIT_PAGE_SIZE) return 'appended';
  if (last && page.rows.length >= AUDIT_PAGE_SIZE) return 'starts-next-page';
  return 'arrived';
}
