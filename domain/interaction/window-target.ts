import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { ResolvedNode, TargetQuery, WindowDriver } from '../../transports/contract/window-driver.js';
import type { Session, SessionWindow } from '../sessions/session.js';
import { clamp } from '../sessions/timeouts.js';
import { classicResolution, type ResolvedBy } from './selector/confidence.js';
import type { OcrTarget } from './selector/ocr-text.js';
import { resolveQueryTarget } from './selector/resolve.js';
import { querySelectorOf, type TargetRequest, toTargetQuery } from './target-input.js';

/** A query target waits as an action does when its operation names no timeout of its own. */
const QUERY_WAIT_DEFAULT_MS = 5_000;
const QUERY_WAIT_MAX_MS = 30_000;

export interface WindowTargetRequest {
  /** A window id; default: the window a ref in the target belongs to, else the session's active window. */
  readonly window?: string | null;
  readonly target?: TargetRequest | null;
  /** How long a `query` target may wait for its element to appear (the operation's own timeout). */
  readonly timeoutMs?: number | null;
}

export interface WindowTarget {
  readonly window: SessionWindow;
  readonly driver: WindowDriver;
  /** Undefined when the request named no target (page-wide expectations, keyboard input, page scroll). */
  readonly query: TargetQuery | undefined;
  /** How the target is (for a query: was) found, and how much to trust it; undefined without a target. */
  readonly resolvedBy?: ResolvedBy;
  /** The element a `query` target resolved to; the other ways are located by the transport. */
  readonly located?: ResolvedNode;
  /** For words an `ocr:` step matched: the point in `located` where a pointer action lands. */
  readonly ocr?: OcrTarget;
}

/**
 * Picks the window an operation acts in and turns its target into a transport query. A `query` target is
 * resolved here, over the window's snapshot, into the `key` of its one element.
 */
export async function windowTarget(session: Session, request: WindowTargetRequest): Promise<WindowTarget> {
  const selector = request.target ? querySelectorOf(request.target) : null;
  if (request.target && selector) {
    const { window, driver } = await session.window(request.window);
    const resolved = await resolveQueryTarget({
      session,
      windowId: window.id,
      driver,
      selector,
      nth: request.target.nth,
      timeoutMs: clamp(request.timeoutMs, QUERY_WAIT_DEFAULT_MS, 0, QUERY_WAIT_MAX_MS),
    });
    return { window, driver, ...resolved };
  }
  const resolved = request.target
    ? toTargetQuery(request.target, (ref) => session.snapshots.resolve(ref))
    : undefined;
  if (request.window && resolved?.windowId && request.window !== resolved.windowId) {
    throw new StagegraphError(
      'BAD_INPUT',
      `The target's ref belongs to window ${resolved.windowId}, not ${request.window}.`,
      { hint: 'Leave `window` out when the target is a ref: the ref knows its window.' },
    );
  }
  const { window, driver } = await session.window(request.window ?? resolved?.windowId);
  return {
    window,
    driver,
    query: resolved?.query,
    ...(request.target ? { resolvedBy: classicResolution(request.target) } : {}),
  };
}

/** Another target of the same operation (a drag's destination), in the window already chosen. */
export async function targetInWindow(
  session: Session,
  window: SessionWindow,
  driver: WindowDriver,
  target: TargetRequest,
  timeoutMs: number,
): Promise<TargetQuery> {
  const selector = querySelectorOf(target);
  if (!selector) return toTargetQuery(target, (ref) => session.snapshots.resolve(ref)).query;
  const { query } = await resolveQueryTarget({
    session,
    windowId: window.id,
    driver,
    selector,
    nth: target.nth,
    timeoutMs,
  });
  return query;
}
