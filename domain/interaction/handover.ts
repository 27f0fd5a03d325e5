import type {
  ExpectedElement,
  ResolvedNode,
  TargetQuery,
  WindowDriver,
} from '../../transports/contract/window-driver.js';
import type { Session, SessionWindow } from '../sessions/session.js';
import type { ResolvedBy } from './selector/confidence.js';
import type { OcrTarget } from './selector/ocr-text.js';
import { type TargetRequest, toTargetQuery } from './target-input.js';

/**
 * The window and target as the governance chokepoint resolved them an instant before the action, to
 * decide on them. Handing them over saves the action a second window lookup and a second resolution,
 * which together would cost about as much as the policy check is allowed to (issue 7: <= 5% of a click).
 */
export interface PreviewedTarget {
  readonly window: SessionWindow;
  readonly driver: WindowDriver;
  readonly query: TargetQuery;
  readonly located: ResolvedNode;
  readonly resolvedBy?: ResolvedBy;
  /** For words an `ocr:` step matched: the point in `located` where a pointer action lands. */
  readonly ocr?: OcrTarget;
  /** For a `query` target: the target as asked, since its resolved `query` is a key the request never named. */
  readonly asked?: string;
  /**
   * Act on this very element (its walker key), not on what the query matches when the action runs: set
   * once an approver approved it and it was found unchanged, so the locator cannot move to another
   * element in between, and the transport's hit-target check keeps the click on it.
   */
  readonly pinned?: boolean;
}

export interface HandoverRequest {
  readonly window?: string | null;
  readonly target?: TargetRequest | null;
  readonly previewed?: PreviewedTarget | null;
}

/** The handed-over target when it is the one this request names, in a window still open; else null. */
export function handedOver(session: Session, request: HandoverRequest): PreviewedTarget | null {
  const { previewed, target } = request;
  if (!previewed || !target || !session.hasWindow(previewed.window.id)) return null;
  if (request.window && request.window !== previewed.window.id) return null;
  if (target.query != null) return previewed.asked === JSON.stringify(target) ? previewed : null;
  try {
    const resolved = toTargetQuery(target, (ref) => session.snapshots.resolve(ref));
    if (resolved.windowId && resolved.windowId !== previewed.window.id) return null;
    return JSON.stringify(resolved.query) === JSON.stringify(previewed.query) ? previewed : null;
  } catch {
    // The request names its target wrongly: the action's own resolution reports how.
    return null;
  }
}

/** What the action acts on: the handed-over element itself when pinned, else its query. */
export function actingQuery(session: Session, handed: PreviewedTarget): TargetQuery {
  if (!handed.pinned) return handed.query;
  const { located, window } = handed;
  const ref = session.snapshots.refFor(window.id, located);
  return { spec: { kind: 'key', key: located.node.key, documentId: located.documentId, ref } };
}

/** The role and name a pinned element was approved with, for the transport to check as input reaches it. */
export function approvedElement(handed: PreviewedTarget): ExpectedElement | undefined {
  return handed.pinned ? { role: handed.located.node.role, name: handed.located.node.name } : undefined;
}
