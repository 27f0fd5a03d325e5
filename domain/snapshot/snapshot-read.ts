import { StagegraphError } from '../../errors/stagegraph-error.js';
import { checkClientPattern } from '../../transports/contract/client-pattern.js';
import { matchClientPattern } from '../../transports/contract/pattern-worker.js';
import type { LoadState, SnapshotRequest } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { figuresOf } from '../sessions/session-figures.js';
import { diff, type SnapshotDiff } from './diff.js';
import { windowActions } from './next-actions.js';
import { cursorSnapshotId, type Page, paginate } from './paginate.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';
import type { NodeField } from './token-estimate.js';

/**
 * `waitFor` waits at most this long: as long as a navigation may take, so a read after one that answered
 * `reached: false` can wait out the rest of it.
 */
export const SNAPSHOT_LOAD_WAIT_MS = 30_000;

/** `since: LAST`: diff against the window's latest snapshot, whoever took it. */
export const SINCE_LAST = 'LAST';

export interface SnapshotReadRequest {
  readonly interactiveOnly?: boolean | null;
  /** A ref: only its subtree. */
  readonly within?: string | null;
  readonly depth?: number | null;
  /** `LAST` or a snapshot id: answer with the diff from it instead of the nodes. */
  readonly since?: string | null;
  readonly first?: number | null;
  /** An `endCursor`: continue that snapshot (no new read is taken). */
  readonly after?: string | null;
  readonly budgetTokens?: number | null;
  /** Node fields the caller selected, priced by the token estimate. */
  readonly fields: readonly NodeField[];
  /** The caller selected the outline of the page. */
  readonly outline?: boolean;
  /** Read once the document has loaded this far (bounded by SNAPSHOT_LOAD_WAIT_MS). */
  readonly waitFor?: LoadState | null;
}

/** A snapshot as one query answers it: one page of its nodes, or its diff from an earlier one. */
export interface SnapshotView {
  readonly snapshot: Snapshot;
  readonly page: Page;
  readonly diff: SnapshotDiff | null;
  /** With `waitFor`: whether the document got that far before the read; null without it. */
  readonly loadReached: boolean | null;
}

/**
 * Reads a window: a new snapshot (reconciled so refs survive re-renders), or the next page of one already
 * taken when `after` is given, or its diff from an earlier snapshot when `since` is given. A diff is taken
 * with the earlier snapshot's scope, so that nodes outside the new scope do not read as removed.
 */
export async function readSnapshot(
  session: Session,
  windowId: string,
  request: SnapshotReadRequest,
): Promise<SnapshotView> {
  if (request.after != null) {
    const snapshot = session.snapshots.snapshot(cursorSnapshotId(request.after));
    if (snapshot.windowId !== windowId) {
      throw new StagegraphError('BAD_INPUT', `Cursor ${request.after} pages window ${snapshot.windowId}.`);
    }
    return { snapshot, page: paginate(snapshot, request), diff: null, loadReached: null };
  }
  const { driver } = await session.window(windowId);
  const loadReached = request.waitFor
    ? await driver.waitForLoad(request.waitFor, SNAPSHOT_LOAD_WAIT_MS)
    : null;
  const previous = request.since == null ? undefined : sinceSnapshot(session, windowId, request.since);
  const bounds = request.fields.includes('bbox');
  const scope = previous ? { ...previous.scope, bounds } : scopeOf(session, windowId, request, bounds);
  const snapshot = await session.snapshots.read(windowId, driver, scope);
  figuresOf(session).snapshots += 1;
  const changes = previous ? diff(previous, snapshot) : null;
  const page = changes
    ? { nodes: [], endCursor: null, hasMore: false, truncated: false, estimatedTokens: 0 }
    : paginate(snapshot, request);
  return { snapshot, page, diff: changes, loadReached };
}

function sinceSnapshot(session: Session, windowId: string, since: string): Snapshot {
  if (since !== SINCE_LAST) return session.snapshots.snapshot(since);
  const last = session.snapshots.last(windowId);
  if (last) return last;
  throw new StagegraphError('BAD_INPUT', `Window ${windowId} has no snapshot yet to diff against.`, {
    hint: 'Take a snapshot first; `since: LAST` then returns only what changed.',
    nextActions: [windowActions.snapshot({ sessionId: session.id, windowId })],
  });
}

function scopeOf(
  session: Session,
  windowId: string,
  request: SnapshotReadRequest,
  bounds: boolean,
): SnapshotRequest {
  if (request.depth != null && request.depth < 0) {
    throw new StagegraphError(
      'BAD_INPUT',
      `depth counts levels below the root and cannot be ${request.depth}.`,
    );
  }
  const within = request.within ? session.snapshots.resolve(request.within, { windowId }).key : undefined;
  return {
    ...(within === undefined ? {} : { within }),
    ...(request.interactiveOnly ? { interactiveOnly: true } : {}),
    ...(request.depth == null ? {} : { depth: request.depth }),
    bounds,
  };
}

export interface FindRequest {
  readonly role?: string | null;
  readonly name?: string | null;
  readonly nameContains?: string | null;
  readonly nameRegex?: string | null;
  /** Only nodes that render a box (true) or only those that do not (false). */
  readonly visible?: boolean | null;
  readonly enabled?: boolean | null;
  readonly first?: number | null;
  /** Whether the caller shows each node's box. */
  readonly bounds: boolean;
}

/** Nodes of a fresh read of the window that match every given condition, in document order. */
export async function findNodes(
  session: Session,
  windowId: string,
  request: FindRequest,
): Promise<SnapshotNode[]> {
  const pattern = request.nameRegex ?? null;
  if (pattern !== null) checkClientPattern(pattern, 'nameRegex');
  const { driver } = await session.window(windowId);
  const scope = { bounds: request.bounds || request.visible != null };
  const snapshot = await session.snapshots.read(windowId, driver, scope);
  const candidates = snapshot.nodes.filter(
    (node) =>
      (request.role == null || node.role === request.role) &&
      (request.name == null || node.name === request.name) &&
      (request.nameContains == null ||
        node.name.toLowerCase().includes(request.nameContains.toLowerCase())) &&
      (request.visible == null || (node.bbox !== null) === request.visible) &&
      (request.enabled == null || !node.states.includes('DISABLED') === request.enabled),
  );
  // The client's pattern runs last, on the fewest names, and off this thread (pattern-worker.ts).
  const named =
    pattern === null
      ? candidates
      : await matchClientPattern(
          pattern,
          candidates.map((node) => node.name),
          'nameRegex',
        ).then((held) => candidates.filter((_, index) => held[index]));
  return request.first == null ? named : named.slice(0, Math.max(0, request.first));
}

/** A node of the window by ref, as the window shows it now. */
export async function readNode(session: Session, windowId: string, ref: string): Promise<SnapshotNode> {
  session.snapshots.resolve(ref, { windowId });
  const { driver } = await session.window(windowId);
  const snapshot = await session.snapshots.read(windowId, driver, {});
  const node = snapshot.node(ref);
  if (node) return node;
  // The fresh read just reported the element gone: the store now answers with REF_STALE and candidates.
  session.snapshots.resolve(ref, { windowId });
  throw new StagegraphError('REF_STALE', `Ref ${ref} is no longer on the page.`);
}
