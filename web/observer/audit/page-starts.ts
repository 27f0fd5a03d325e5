import type { GatewayClient } from '../gateway-client.js';
import type { AuditFilter, Connection } from './audit-trail.js';

/** Records per page, the gateway's default page. */
export const AUDIT_PAGE_SIZE = 50;
/** Page size used only to find where pages start: it asks for cursors alone, so a big page is cheap. */
const WALK_PAGE = 500;

const CURSORS_QUERY = `query ObserverAuditCursors($after: String, $filter: AuditFilter, $first: Int) {
  audit(after: $after, filter: $filter, first: $first) {
    edges { cursor }
    pageInfo { endCursor hasNextPage }
  }
}`;

/**
 * Extends the known page starts to the end of the trail, reading cursors only: `starts[i]` is the `after`
 * of page i (null for the first). A page starts only where a record follows, so the last page is never empty.
 */
export async function findPageStarts(
  client: GatewayClient,
  filter: AuditFilter,
  known: readonly (string | null)[],
): Promise<(string | null)[]> {
  const found = [...known];
  let after = found.at(-1) ?? null;
  let onPage = 0;
  let previous: string | null = null;
  for (;;) {
    const data = await client.query<Connection<{ cursor: string }>>(CURSORS_QUERY, {
      after,
      filter,
      first: WALK_PAGE,
    });
    for (const { cursor } of data.audit.edges) {
      if (onPage === AUDIT_PAGE_SIZE && previous) {
        found.push(previous);
        onPage = 0;
      }
      onPage += 1;
      previous = cursor;
    }
    if (!data.audit.pageInfo.hasNextPage || !data.audit.pageInfo.endCursor) return found;
    after = data.audit.pageInfo.endCursor;
  }
}
