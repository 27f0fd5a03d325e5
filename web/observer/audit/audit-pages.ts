import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { GatewayClient, GatewayError } from '../gateway-client.js';
import type { AuditFilter, AuditRecord, Connection, PagedRecord } from './audit-trail.js';
import { fillPage, liveRecord, placeLive } from './page-rows.js';
import { AUDIT_PAGE_SIZE, findPageStarts } from './page-starts.js';

const RECORD_FIELDS = `replica seq time operation decision outcome risk errorCode durationMs
  client { id } rule { id } session { id } target { role name } approval { status decidedBy scope }`;
const PAGE_QUERY = `query ObserverAuditPage($after: String, $filter: AuditFilter, $first: Int) {
  audit(after: $after, filter: $filter, first: $first) {
    edges { cursor node { ${RECORD_FIELDS} } }
    pageInfo { hasNextPage trimmedBefore }
  }
}`;
const AUDIT_SUBSCRIPTION = `subscription ObserverAudit($filter: AuditFilter) {
  audit(filter: $filter) { cursor droppedBefore record { ${RECORD_FIELDS} } }
}`;

export interface AuditView {
  rows: PagedRecord[];
  /** 1-based page number, and how many pages are known so far. */
  page: number;
  pages: number;
  hasNewer: boolean;
  hasOlder: boolean;
  loading: boolean;
  error: GatewayError | null;
  /** Records streamed in past this page since it was shown. */
  arrivedSince: number;
  /**
   * Records the subscription lost before delivering one (its `droppedBefore`): this page read too slowly, or,
   * in a cluster, the audit stream had trimmed them or a replica could not write them there while Redis was out.
   */
  dropped: number;
  /** Records the cluster's audit stream no longer held before this page: each replica's own trail has them. */
  trimmedBefore: number;
  oldest(): void;
  older(): void;
  newer(): void;
  latest(): void;
}

/**
 * Pages of the audit trail, oldest first within a page. The gateway pages forward only, `after` a cursor
 * (the seq without a cluster; in a cluster's merged trail the record's number in the audit stream, never its
 * seq, which each replica counts on its own), so the start of every page is remembered (`bounds[i]` is
 * page i's `after`, always a cursor the gateway gave: an edge's or a live record's); "latest" walks forward
 * asking for cursors alone to find the last page. New records stream in through the `audit` subscription
 * and join the last page while it has room.
 */
export function useAuditPages(client: GatewayClient, filter: AuditFilter): AuditView {
  const bounds = useRef<(string | null)[]>([null]);
  const [index, setIndex] = useState(0);
  const [rows, setRows] = useState<PagedRecord[]>([]);
  const [hasNext, setHasNext] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<GatewayError | null>(null);
  const [arrivedSince, setArrivedSince] = useState(0);
  const [dropped, setDropped] = useState(0);
  const [trimmedBefore, setTrimmedBefore] = useState(0);
  const generation = useRef(0);
  /** Records streamed while a page was being read: the read may have missed them. */
  const heldBack = useRef<PagedRecord[]>([]);
  const view = useRef({ index: 0, rows: [] as PagedRecord[], hasNext: false, loading: true });
  view.current = { index, rows, hasNext, loading };

  const show = useCallback(
    async (target: number | 'latest') => {
      const mine = ++generation.current;
      view.current = { ...view.current, loading: true };
      setLoading(true);
      setError(null);
      try {
        if (target === 'latest') bounds.current = await findPageStarts(client, filter, bounds.current);
        if (mine !== generation.current) return;
        const page = target === 'latest' ? bounds.current.length - 1 : target;
        const data = await client.query<Connection<{ cursor: string; node: AuditRecord }>>(PAGE_QUERY, {
          after: bounds.current[page] ?? null,
          filter,
          first: AUDIT_PAGE_SIZE,
        });
        if (mine !== generation.current) return;
        const { hasNextPage, trimmedBefore: trimmed = 0 } = data.audit.pageInfo;
        const read = data.audit.edges.map((edge) => ({ ...edge.node, cursor: edge.cursor }));
        const { rows: full, nextAfter } = fillPage(
          read,
          hasNextPage,
          bounds.current[page] ?? null,
          heldBack.current,
        );
        heldBack.current = [];
        const more = nextAfter !== null;
        if (more && bounds.current.length === page + 1) bounds.current.push(nextAfter);
        // Set at once, not at the next render: a record streamed in meanwhile must see this page.
        view.current = { index: page, rows: full, hasNext: more, loading: false };
        setIndex(page);
        setRows(full);
        setHasNext(more);
        setTrimmedBefore(trimmed);
        setArrivedSince(0);
      } catch (failure) {
        if (mine === generation.current) setError(failure as GatewayError);
      } finally {
        if (mine === generation.current) {
          view.current = { ...view.current, loading: false };
          setLoading(false);
        }
      }
    },
    [client, filter],
  );

  useEffect(() => {
    bounds.current = [null];
    setDropped(0);
    // Subscribed before the first read is sent on the same socket, so no record falls between the two.
    const unsubscribe = client.subscribe<{
      audit: { cursor: string | null; droppedBefore: number; record: AuditRecord };
    }>(
      AUDIT_SUBSCRIPTION,
      { filter },
      {
        next: ({ audit }) => {
          if (audit.droppedBefore > 0) setDropped((count) => count + audit.droppedBefore);
          const record = liveRecord(audit);
          const current = view.current;
          if (current.loading) {
            heldBack.current = [...heldBack.current, record].slice(-AUDIT_PAGE_SIZE);
            return;
          }
          const onLastPage = !current.hasNext && current.index === bounds.current.length - 1;
          const placed = placeLive({ ...current, onLastPage }, record);
          if (placed === 'appended') {
            const next = [...current.rows, record];
            view.current = { ...current, rows: next };
            setRows(next);
            return;
          }
          if (placed === 'shown') return;
          const last = current.rows.at(-1);
          if (placed === 'starts-next-page' && last) {
            bounds.current.push(last.cursor);
            view.current = { ...current, hasNext: true };
            setHasNext(true);
          }
          setArrivedSince((count) => count + 1);
        },
        error: (failure) => setError(failure),
      },
    );
    void show('latest');
    return () => {
      generation.current += 1;
      unsubscribe();
    };
  }, [client, filter, show]);

  return {
    rows,
    page: index + 1,
    pages: bounds.current.length,
    hasNewer: hasNext,
    hasOlder: index > 0,
    loading,
    error,
    arrivedSince,
    dropped,
    trimmedBefore,
    oldest: () => void show(0),
    older: () => void show(Math.max(0, index - 1)),
    newer: () => void show(index + 1),
    latest: () => void show('latest'),
  };
}
