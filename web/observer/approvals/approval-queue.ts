import { useEffect, useRef, useState } from 'preact/hooks';
import type { TargetConfidence } from '../found-by.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';

export type ApprovalState = 'PENDING' | 'APPROVED' | 'DENIED' | 'TIMED_OUT' | 'CANCELLED';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An ApprovalRequest as the card shows it; arguments and target come redacted from the server. */
export interface ApprovalRequest {
  id: string;
  operation: string;
  args: string;
  reasons: string[];
  risk: string;
  requestedAt: string;
  expiresAt: string;
  client: { id: string; role: string };
  rule: { id: string; description: string };
  session: { id: string; windowTitle: string | null; windowUrl: string | null } | null;
  target: {
    kind: string;
    role: string;
    name: string;
    path: string[] | null;
    selector: string | null;
    windowId: string | null;
    bbox: Bounds | null;
    previewError: string | null;
    confidence: TargetConfidence | null;
  } | null;
  screenshot: { mimeType: string; base64: string } | null;
}

/** A request that left the queue, with who settled it and why. */
export interface SettledApproval {
  request: ApprovalRequest;
  state: ApprovalState;
  decidedBy: string | null;
  reason: string | null;
}

const REQUEST_FIELDS = `
  id operation args reasons risk requestedAt expiresAt
  client { id role }
  rule { id description }
  session { id windowTitle windowUrl }
  target { kind role name path selector windowId previewError confidence bbox { x y width height } }
  screenshot { mimeType base64 }
`;

const PENDING_QUERY = `query ObserverPendingApprovals { pendingApprovals { ${REQUEST_FIELDS} } }`;
const REQUESTS_SUBSCRIPTION = `subscription ObserverApprovalRequests {
  approvalRequests { state decidedBy reason droppedBefore request { ${REQUEST_FIELDS} } }
}`;

interface ApprovalEvent {
  state: ApprovalState;
  decidedBy: string | null;
  reason: string | null;
  droppedBefore: number;
  request: ApprovalRequest;
}

/** Settled requests kept on screen; older ones are forgotten (the audit trail keeps them all). */
const SETTLED_KEPT = 10;
/** A request still listed this long after its expiry was settled unheard (the gateway times it out). */
const STALE_AFTER_EXPIRY_MS = 10_000;
const SWEEP_EVERY_MS = 5_000;
/** Settled ids remembered so a late replay cannot bring one back; far more than can be pending at once. */
const FORGOTTEN_AFTER = 1_000;

export interface ApprovalQueue {
  /** Waiting for an answer, oldest first. */
  pending: ApprovalRequest[];
  /** Most recently settled first. */
  settled: SettledApproval[];
  /** The token may not watch approvals (APPROVAL_FORBIDDEN): approvers only. */
  forbidden: boolean;
  error: GatewayError | null;
  /** Events the gateway dropped because this page read too slowly. */
  dropped: number;
}

/**
 * The pending requests, then the approvalRequests stream: PENDING events join the queue (the stream
 * repeats the pending ones first, so a merge by id misses and doubles none), settled ones leave it.
 * `onArrival` is called for each request that joins after the first load.
 */
export function useApprovalQueue(
  client: GatewayClient,
  onArrival: (request: ApprovalRequest) => void,
): ApprovalQueue {
  const [queue, setQueue] = useState<ApprovalQueue>({
    pending: [],
    settled: [],
    forbidden: false,
    error: null,
    dropped: 0,
  });
  const arrival = useRef(onArrival);
  arrival.current = onArrival;

  useEffect(() => {
    let live = true;
    let loaded = false;
    const seen = new Set<string>();
    const gone = new Set<string>();
    const refuse = (error: GatewayError) => {
      if (!live) return;
      setQueue((current) =>
        error.code === 'APPROVAL_FORBIDDEN'
          ? { ...current, forbidden: true, error: null }
          : { ...current, error },
      );
    };
    client.query<{ pendingApprovals: ApprovalRequest[] }>(PENDING_QUERY).then((data) => {
      if (!live) return;
      loaded = true;
      const fresh = data.pendingApprovals.filter((request) => !seen.has(request.id) && !gone.has(request.id));
      for (const request of fresh) seen.add(request.id);
      setQueue((current) => ({
        ...current,
        pending: [...current.pending, ...fresh].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt)),
      }));
    }, refuse);
    const unsubscribe = client.subscribe<{ approvalRequests: ApprovalEvent }>(
      REQUESTS_SUBSCRIPTION,
      {},
      {
        next: ({ approvalRequests: event }) => {
          if (!live) return;
          const { id } = event.request;
          if (event.state === 'PENDING') {
            const isNew = !seen.has(id) && !gone.has(id);
            seen.add(id);
            if (isNew && loaded) arrival.current(event.request);
            setQueue((current) => ({
              ...current,
              error: null,
              dropped: current.dropped + event.droppedBefore,
              pending: isNew ? [...current.pending, event.request] : current.pending,
            }));
            return;
          }
          seen.delete(id);
          gone.add(id);
          if (gone.size > FORGOTTEN_AFTER) gone.delete(gone.values().next().value as string);
          const settled: SettledApproval = {
            request: event.request,
            state: event.state,
            decidedBy: event.decidedBy,
            reason: event.reason,
          };
          setQueue((current) => ({
            ...current,
            dropped: current.dropped + event.droppedBefore,
            pending: current.pending.filter((request) => request.id !== id),
            settled: [settled, ...current.settled].slice(0, SETTLED_KEPT),
          }));
        },
        error: refuse,
      },
    );
    // A settled event lost while the socket reconnected would leave a card forever: one well past its
    // expiry is taken off, saying the page did not hear how it ended.
    const sweep = setInterval(() => {
      const stale = Date.now() - STALE_AFTER_EXPIRY_MS;
      setQueue((current) => {
        const expired = current.pending.filter((request) => Date.parse(request.expiresAt) < stale);
        if (expired.length === 0) return current;
        for (const request of expired) {
          seen.delete(request.id);
          gone.add(request.id);
        }
        const settled = expired.map((request) => ({
          request,
          state: 'TIMED_OUT' as const,
          decidedBy: null,
          reason: 'expired; this page did not hear how it was settled',
        }));
        return {
          ...current,
          pending: current.pending.filter((request) => !expired.includes(request)),
          settled: [...settled.reverse(), ...current.settled].slice(0, SETTLED_KEPT),
        };
      });
    }, SWEEP_EVERY_MS);
    return () => {
      live = false;
      clearInterval(sweep);
      unsubscribe();
    };
  }, [client]);

  return queue;
}
