import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { LoadState, NavigationTarget, WindowDriver } from '../../transports/contract/window-driver.js';
import { sessionActions } from '../sessions/next-actions.js';
import type { Session, SessionWindow } from '../sessions/session.js';
import { clamp } from '../sessions/timeouts.js';
import { diff, type SnapshotDiff } from '../snapshot/diff.js';
import { windowActions } from '../snapshot/next-actions.js';
import { outline } from '../snapshot/outline.js';
import { navigableUrl } from './navigation-url.js';

/**
 * Playwright's own navigation default: a tiny page on a loaded two-core machine took more than 15 s to
 * commit and load (a cross-site navigation starts a new renderer process), and the caller can say more.
 */
export const NAVIGATION_TIMEOUT_DEFAULT_MS = 30_000;
export const NAVIGATION_TIMEOUT_MAX_MS = 60_000;
/** What a navigation waits for unless told: the load event, as Playwright's goto does. */
export const DEFAULT_WAIT_UNTIL: LoadState = 'LOAD';

export type HistoryStep = 'RELOAD' | 'BACK' | 'FORWARD';

export interface NavigateRequest {
  readonly window?: string | null;
  /** Exactly one of `url` and `step`. */
  readonly url?: string | null;
  readonly step?: HistoryStep | null;
  readonly waitUntil?: LoadState | null;
  readonly timeoutMs?: number | null;
  /** Read the window before and after (only when the caller selected `diff`). */
  readonly wantDiff?: boolean;
}

export interface NavigationOutcome {
  readonly window: SessionWindow;
  readonly status: number | null;
  readonly reached: boolean;
  readonly waitUntil: LoadState;
  readonly diff: SnapshotDiff | null;
  readonly elapsedMs: number;
}

/**
 * Navigates a window to a URL or through its history and answers with the window as it is after: its URL,
 * title, the document's HTTP status, and whether it reached `waitUntil` in time. Refs of the document
 * navigated away from answer REF_STALE from then on (the ref store sees the new document id).
 */
export async function navigate(session: Session, request: NavigateRequest): Promise<NavigationOutcome> {
  const started = Date.now();
  const target = await navigationTarget(session, request);
  const { window, driver } = await session.window(request.window);
  const at = { sessionId: session.id, windowId: window.id };
  if (target.kind === 'back' || target.kind === 'forward') await assertHistoryEntry(driver, target.kind, at);
  const timeoutMs = clamp(request.timeoutMs, NAVIGATION_TIMEOUT_DEFAULT_MS, 0, NAVIGATION_TIMEOUT_MAX_MS);
  const waitUntil = request.waitUntil ?? DEFAULT_WAIT_UNTIL;
  const before = request.wantDiff ? await read(session, window.id, driver, false) : null;
  const ended = session.snapshots.actions.begin();
  const result = await driver
    .navigate(target, waitUntil, timeoutMs)
    .catch((error: unknown) => {
      throw withLook(error, at);
    })
    .finally(ended);
  const after = before ? await read(session, window.id, driver, false) : null;
  const now = await session.findWindow(window.id);
  return {
    window: now,
    status: result.status,
    reached: result.reached,
    waitUntil,
    diff: before && after ? diff(before, after) : null,
    elapsedMs: Date.now() - started,
  };
}

async function navigationTarget(session: Session, request: NavigateRequest): Promise<NavigationTarget> {
  const { url, step } = request;
  if ((url == null) === (step == null)) {
    throw new StagegraphError('BAD_INPUT', 'navigate takes exactly one of `url` and `step`.', {
      hint: 'Give `url: "https://…"` to go somewhere, or `step: RELOAD | BACK | FORWARD`.',
    });
  }
  if (url != null) {
    try {
      return { kind: 'url', url: await navigableUrl(url, session.uploadRoots) };
    } catch (error) {
      throw withActions(error, [sessionActions.windows(session)]);
    }
  }
  return { kind: step === 'RELOAD' ? 'reload' : step === 'BACK' ? 'back' : 'forward' };
}

/** A step back with nothing behind would do nothing; saying so beats answering with the same page. */
async function assertHistoryEntry(
  driver: WindowDriver,
  direction: 'back' | 'forward',
  at: { sessionId: string; windowId: string },
): Promise<void> {
  const history = await driver.history();
  if (!history) return;
  const { index, urls } = history;
  const exists = direction === 'back' ? index > 0 : index < urls.length - 1;
  if (exists) return;
  throw new StagegraphError(
    'NO_HISTORY_ENTRY',
    `Window ${at.windowId} has no history entry to go ${direction} to (entry ${index + 1} of ${urls.length}).`,
    {
      details: { index, length: urls.length, url: urls[index] ?? null },
      nextActions: [sessionActions.windows({ id: at.sessionId })],
    },
  );
}

/** The window's document as an outline, read now: what a navigation's answer shows of where it landed. */
export async function outlineNow(
  session: Session,
  windowId: string,
  interactiveOnly: boolean,
): Promise<string> {
  const { driver } = await session.window(windowId);
  const snapshot = await read(session, windowId, driver, interactiveOnly);
  return outline(snapshot, snapshot.nodes);
}

function read(session: Session, windowId: string, driver: WindowDriver, interactiveOnly: boolean) {
  const scope = { bounds: false, ...(interactiveOnly ? { interactiveOnly: true } : {}) };
  return session.snapshots.read(windowId, driver, scope);
}

/** After a failed navigation the window shows what it showed, or what it got to: look before acting. */
function withLook(error: unknown, at: { sessionId: string; windowId: string }): unknown {
  return withActions(error, [windowActions.interactive(at)]);
}

function withActions(error: unknown, nextActions: string[]): unknown {
  if (!(error instanceof StagegraphError) || error.nextActions.length > 0) return error;
  return new StagegraphError(error.code, error.message, {
    hint: error.hint,
    nextActions,
    ...(error.details ? { details: error.details } : {}),
    cause: error.cause,
  });
}
