import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';
import { estimatePageNodeTokens, type NodeField } from './token-estimate.js';

export interface PageRequest {
  /** At most this many nodes; all (within the budget) when absent. */
  readonly first?: number | null;
  /** `endCursor` of the previous page of the same snapshot. */
  readonly after?: string | null;
  /** Stop before the page's estimated size would exceed this many tokens. */
  readonly budgetTokens?: number | null;
  /** The fields the caller selected on each node: what the token estimate prices. */
  readonly fields: readonly NodeField[];
  /** The caller reads the page as an outline too: its lines are priced as well (and alone without `fields`). */
  readonly outline?: boolean;
}

export interface Page {
  readonly nodes: SnapshotNode[];
  /** Where the next page starts; the request's `after` when this page is empty, so paging never rewinds. */
  readonly endCursor: string | null;
  readonly hasMore: boolean;
  /** The budget, not `first` or the end, ended the page. */
  readonly truncated: boolean;
  readonly estimatedTokens: number;
}

/** A page of `snapshot`'s nodes in document order, bounded by count and by estimated tokens. */
export function paginate(snapshot: Snapshot, request: PageRequest): Page {
  const first = request.first ?? Number.POSITIVE_INFINITY;
  const budget = request.budgetTokens ?? Number.POSITIVE_INFINITY;
  if (!(first >= 0 && (Number.isInteger(first) || first === Number.POSITIVE_INFINITY)))
    throw new StagegraphError('BAD_INPUT', `first must be a whole number >= 0, got ${request.first}.`);
  if (!(budget >= 1))
    throw new StagegraphError('BAD_INPUT', `budgetTokens must be >= 1, got ${request.budgetTokens}.`);
  const start = request.after == null ? 0 : decodeCursor(snapshot, request.after) + 1;
  if (budget === Number.POSITIVE_INFINITY) return unbudgeted(snapshot, request, start, first);
  const nodes: SnapshotNode[] = [];
  let estimatedTokens = 0;
  let truncated = false;
  let index = start;
  for (; index < snapshot.nodes.length && nodes.length < first; index += 1) {
    const node = snapshot.nodes[index]!;
    const cost = estimatePageNodeTokens(snapshot, node, request);
    if (estimatedTokens + cost > budget) {
      truncated = true;
      break;
    }
    nodes.push(node);
    estimatedTokens += cost;
  }
  return {
    nodes,
    endCursor: nodes.length > 0 ? encodeCursor(snapshot.id, index - 1) : (request.after ?? null),
    hasMore: index < snapshot.nodes.length,
    truncated,
    estimatedTokens,
  };
}

/**
 * A page no budget bounds: its estimate is priced only when read, since pricing every node of a large
 * page costs as much as answering it, and most reads never select `estimatedTokens`.
 */
function unbudgeted(snapshot: Snapshot, request: PageRequest, start: number, first: number): Page {
  const end = Math.min(snapshot.nodes.length, start + first);
  const nodes = snapshot.nodes.slice(start, Math.max(start, end));
  let estimated: number | undefined;
  return {
    nodes,
    endCursor: nodes.length > 0 ? encodeCursor(snapshot.id, end - 1) : (request.after ?? null),
    hasMore: end < snapshot.nodes.length,
    truncated: false,
    get estimatedTokens() {
      estimated ??= nodes.reduce((sum, node) => sum + estimatePageNodeTokens(snapshot, node, request), 0);
      return estimated;
    },
  };
}

/** The snapshot a cursor pages through, so the caller can fetch that snapshot again (`RefStore.snapshot`). */
export function cursorSnapshotId(cursor: string): string {
  return parseCursor(cursor).snapshotId;
}

function encodeCursor(snapshotId: string, index: number): string {
  return Buffer.from(JSON.stringify([snapshotId, index])).toString('base64url');
}

function parseCursor(cursor: string): { snapshotId: string; index: number } {
  try {
    const [snapshotId, index] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof snapshotId === 'string' && Number.isInteger(index))
      return { snapshotId, index: index as number };
  } catch {
    // Any undecodable cursor is reported the same way, below.
  }
  throw new StagegraphError('BAD_INPUT', `${JSON.stringify(cursor)} is not a snapshot cursor.`, {
    hint: 'Pass the `endCursor` of a previous page unchanged, or omit `after` to start from the first node.',
  });
}

/** The index of the last node the cursor's page returned. */
function decodeCursor(snapshot: Snapshot, cursor: string): number {
  const { snapshotId, index } = parseCursor(cursor);
  if (snapshotId !== snapshot.id)
    throw new StagegraphError(
      'BAD_INPUT',
      `The cursor pages through snapshot ${snapshotId}, not ${snapshot.id}: cursors do not carry across snapshots.`,
      {
        hint: `Page snapshot ${snapshotId} (pass it as the snapshot to page), or start this one without \`after\`.`,
        details: { cursorSnapshotId: snapshotId, snapshotId: snapshot.id },
      },
    );
  if (index < 0 || index >= snapshot.nodes.length)
    throw new StagegraphError('BAD_INPUT', `The cursor points past the end of snapshot ${snapshot.id}.`);
  return index;
}
