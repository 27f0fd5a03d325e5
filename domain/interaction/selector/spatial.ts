import type { Bounds } from '../../../transports/contract/bounds.js';
import type { Relation } from './parser.js';

/** `near` reaches this far: the gap between the two boxes' nearest edges, in CSS (or screen) pixels. */
export const NEAR_PX = 50;
/** Layout gives fractional boxes; edges this close count as touching. */
const EDGE_SLACK_PX = 0.5;

/**
 * How far a candidate box lies from the anchor in the relation's direction, or null when it is not in that
 * relation at all. Every distance is between nearest edges (0 when they touch):
 *
 * - right-of: the candidate's left edge is at or right of the anchor's right edge, and the two overlap
 *   vertically (share some row of pixels); distance = candidate.left − anchor.right.
 * - left-of: the mirror: candidate.right ≤ anchor.left, vertical overlap; distance = anchor.left − candidate.right.
 * - below: candidate.top ≥ anchor.bottom, and they overlap horizontally; distance = candidate.top − anchor.bottom.
 * - above: the mirror: candidate.bottom ≤ anchor.top, horizontal overlap; distance = anchor.top − candidate.bottom.
 * - near: any direction, the straight-line gap between the boxes (0 when they overlap) at most NEAR_PX.
 */
export function relationDistance(relation: Relation, candidate: Bounds, anchor: Bounds): number | null {
  const c = edges(candidate);
  const a = edges(anchor);
  const overlapsVertically = c.top < a.bottom && c.bottom > a.top;
  const overlapsHorizontally = c.left < a.right && c.right > a.left;
  switch (relation) {
    case 'right-of':
      return overlapsVertically && c.left >= a.right - EDGE_SLACK_PX ? Math.max(0, c.left - a.right) : null;
    case 'left-of':
      return overlapsVertically && c.right <= a.left + EDGE_SLACK_PX ? Math.max(0, a.left - c.right) : null;
    case 'below':
      return overlapsHorizontally && c.top >= a.bottom - EDGE_SLACK_PX ? Math.max(0, c.top - a.bottom) : null;
    case 'above':
      return overlapsHorizontally && c.bottom <= a.top + EDGE_SLACK_PX ? Math.max(0, a.top - c.bottom) : null;
    case 'near': {
      const dx = Math.max(0, a.left - c.right, c.left - a.right);
      const dy = Math.max(0, a.top - c.bottom, c.top - a.bottom);
      const gap = Math.hypot(dx, dy);
      return gap <= NEAR_PX ? gap : null;
    }
  }
}

/**
 * The candidates in the relation to the anchor, nearest first, each with its distance; those without a box
 * (nothing rendered) are never in a relation.
 */
export function rankByRelation<T extends { readonly bbox?: Bounds }>(
  relation: Relation,
  candidates: readonly T[],
  anchor: Bounds,
): { node: T; distance: number }[] {
  const ranked: { node: T; distance: number }[] = [];
  for (const node of candidates) {
    if (!node.bbox || node.bbox.width <= 0 || node.bbox.height <= 0) continue;
    const distance = relationDistance(relation, node.bbox, anchor);
    if (distance !== null) ranked.push({ node, distance });
  }
  return ranked.sort((x, y) => x.distance - y.distance);
}

/** The nearest of a ranking and every other candidate as near as it (ties within the edge slack). */
export function nearest<T>(ranked: readonly { node: T; distance: number }[]): T[] {
  const first = ranked[0];
  if (!first) return [];
  return ranked.filter((r) => r.distance - first.distance <= EDGE_SLACK_PX).map((r) => r.node);
}

function edges(box: Bounds) {
  return { left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height };
}
