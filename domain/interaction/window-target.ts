import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TargetQuery, WindowDriver } from '../../transports/contract/window-driver.js';
import type { Session, SessionWindow } from '../sessions/session.js';
import { type TargetRequest, toTargetQuery } from './target-input.js';

export interface WindowTargetRequest {
  /** A window id; default: the window a ref in the target belongs to, else the session's active window. */
  readonly window?: string | null;
  readonly target?: TargetRequest | null;
}

export interface WindowTarget {
  readonly window: SessionWindow;
  readonly driver: WindowDriver;
  /** Undefined when the request named no target (page-wide expectations, keyboard input, page scroll). */
  readonly query: TargetQuery | undefined;
}

/** Picks the window an operation acts in and turns its target into a transport query. */
export async function windowTarget(session: Session, request: WindowTargetRequest): Promise<WindowTarget> {
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
  return { window, driver, query: resolved?.query };
}
