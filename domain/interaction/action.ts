import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  ElementAction,
  ExpectedElement,
  ResolvedNode,
  TargetedAction,
  TargetQuery,
  TargetSpec,
  WindowDriver,
} from '../../transports/contract/window-driver.js';
import type { Session, SessionWindow } from '../sessions/session.js';
import { figuresOf } from '../sessions/session-figures.js';
import { clamp } from '../sessions/timeouts.js';
import { diff, type SnapshotDiff } from '../snapshot/diff.js';
import { windowActions } from '../snapshot/next-actions.js';
import { similarRefs, type Wanted } from '../snapshot/similar.js';
import { type Snapshot, type SnapshotNode, toSnapshotNode } from '../snapshot/snapshot.js';
import { withCandidateRefs } from './ambiguous-target.js';
import { actingQuery, approvedElement, handedOver, type PreviewedTarget } from './handover.js';
import type { ResolvedBy } from './selector/confidence.js';
import type { OcrTarget } from './selector/ocr-text.js';
import { type SettleReport, settle } from './settle.js';
import type { TargetRequest } from './target-input.js';
import { checkTypingDelay } from './typing-delay.js';
import { withStateAfter } from './unconfirmed.js';
import { confineUploadPaths } from './upload-paths.js';
import { targetInWindow, windowTarget } from './window-target.js';

/** Playwright's own default actionability wait is 30 s; agents are better served failing fast. */
export const ACTION_TIMEOUT_DEFAULT_MS = 5_000;
export const ACTION_TIMEOUT_MAX_MS = 30_000;
/** Reading the target back after the action: it is there at once or it is gone. */
const LOOK_AGAIN_MS = 1;

/** What an action does; targets of a drag's destination are given as clients give them. */
export type ActionSpec =
  | ElementAction
  | { readonly type: 'dragTo'; readonly to: TargetRequest }
  | { readonly type: 'pressKeys'; readonly key: string }
  | { readonly type: 'scrollBy'; readonly dx: number; readonly dy: number };

export interface ActionRequest {
  readonly window?: string | null;
  readonly target?: TargetRequest | null;
  readonly action: ActionSpec;
  readonly timeoutMs?: number | null;
  /** The value typed is a secret: redacted in every snapshot, diff and log from now on. */
  readonly secret?: boolean | null;
  /** Read the window before and after, and return what changed (only when the caller selected `diff`). */
  readonly wantDiff: boolean;
  /** Wait for the action's effect (its requests, then a quiet page) even without a diff to read. */
  readonly wantSettle?: boolean;
  /** The caller shows boxes of the diff's nodes. */
  readonly diffBounds?: boolean;
  /** Read the target back after the action (only when the caller selected `target`). */
  readonly wantTarget?: boolean;
  /** The window and target the governance chokepoint resolved for this request, reused when they match. */
  readonly previewed?: PreviewedTarget | null;
}

export interface ActionOutcome {
  readonly windowId: string;
  /**
   * The node the action landed on, named by its ref, under the name it had when acted on; null for keyboard
   * input or a page scroll.
   */
  readonly target: SnapshotNode | null;
  /** The target's name after the action when the action changed it ("Try it out" became "Cancel"). */
  readonly nameAfter: string | null;
  readonly diff: SnapshotDiff | null;
  /** How the effect was waited for; null when nothing read it (neither diff nor settle selected). */
  readonly settle: SettleReport | null;
  /** How the target was found and how much to trust it; null without a target. */
  readonly resolvedBy: ResolvedBy | null;
  readonly elapsedMs: number;
}

/**
 * Performs one action on one element: resolves the target (bounded wait), keeps secrets secret, runs the
 * action with actionability checks, and — when asked — returns the window's change once it has settled:
 * once the requests the action started have finished (within its timeout) and the page has gone quiet.
 */
export async function performAction(session: Session, request: ActionRequest): Promise<ActionOutcome> {
  const started = Date.now();
  const handed = handedOver(session, request);
  const timeoutMs = clamp(request.timeoutMs, ACTION_TIMEOUT_DEFAULT_MS, 0, ACTION_TIMEOUT_MAX_MS);
  if (request.action.type === 'type')
    checkTypingDelay(request.action.text, request.action.delayMs, timeoutMs, ACTION_TIMEOUT_MAX_MS);
  const chosen = handed ?? (await windowTarget(session, { ...request, timeoutMs }));
  const { window, driver, query: asked } = chosen;
  const bounds = request.diffBounds === true;
  const before = request.wantDiff ? await capture(session, window, driver, bounds) : null;
  const { located, query } = handed
    ? { located: handed.located, query: actingQuery(session, handed) }
    : asked
      ? await locate(session, window, driver, asked, timeoutMs)
      : { located: null, query: undefined };
  if (located && request.secret) await driver.markSecret(located.node.key);
  // Watched from just before the action, so the requests it starts are told from those already running.
  const watch = await driver.watchRequests();
  // From here until its effect is read or waited for the page may change because of us: reads made
  // meanwhile, or on either side, are not compared to learn from.
  const ended = session.snapshots.actions.begin();
  try {
    const expected = handed ? approvedElement(handed) : undefined;
    const action = atOcrPoint(request.action, chosen.ocr);
    await run(session, window, driver, query, action, timeoutMs, expected).catch(async (error: unknown) => {
      const context = { session, windowId: window.id, driver, located, watch, timeoutMs };
      throw withRecovery(await withStateAfter(error, context), session, window.id, located);
    });
    figuresOf(session).actions += 1;
    if (chosen.resolvedBy?.strategy === 'OCR' && (chosen.resolvedBy.alternative ?? 0) > 0)
      figuresOf(session).ocrFallbacks += 1;
    const settled = before || request.wantSettle ? await settle(driver, watch, timeoutMs) : null;
    const after = before ? await capture(session, window, driver, bounds) : null;
    const target =
      located && request.wantTarget !== false
        ? await targetNode(session, window.id, driver, located, after)
        : null;
    return {
      windowId: window.id,
      target: target && located ? { ...target, name: located.node.name } : null,
      nameAfter: target && located && target.name !== located.node.name ? target.name : null,
      diff: before && after ? diff(before, after) : null,
      settle: settled,
      resolvedBy: chosen.resolvedBy ?? null,
      elapsedMs: Date.now() - started,
    };
  } finally {
    watch.end();
    ended();
  }
}

async function run(
  session: Session,
  window: SessionWindow,
  driver: WindowDriver,
  query: TargetQuery | undefined,
  action: ActionSpec,
  timeoutMs: number,
  expected: ExpectedElement | undefined,
): Promise<void> {
  if (action.type === 'scrollBy') return driver.scrollBy(query, action.dx, action.dy, timeoutMs);
  if (action.type === 'pressKeys' && !query) return driver.press(action.key, timeoutMs);
  if (!query) throw new StagegraphError('BAD_INPUT', `${action.type} needs a target.`);
  const targeted: TargetedAction =
    action.type === 'pressKeys'
      ? { type: 'press', key: action.key }
      : action.type === 'dragTo'
        ? { type: 'dragTo', to: await targetInWindow(session, window, driver, action.to, timeoutMs) }
        : action.type === 'setInputFiles'
          ? { type: 'setInputFiles', paths: await confineUploadPaths(action.paths, session.uploadRoots) }
          : action;
  await driver.act(query, targeted, timeoutMs, expected);
}

/**
 * A click on words an `ocr:` step matched lands at their centre, through the transport's pointer path,
 * as an offset into the element that holds them; a click that names its own position keeps it.
 */
function atOcrPoint(action: ActionSpec, ocr: OcrTarget | undefined): ActionSpec {
  if (!ocr || action.type !== 'click' || action.position) return action;
  return { ...action, position: ocr.position };
}

/** Actionability failures say what was wrong; the next step is to look at the target as it is now. */
function withRecovery(
  error: unknown,
  session: Session,
  windowId: string,
  located: ResolvedNode | null,
): unknown {
  if (!(error instanceof StagegraphError) || error.nextActions.length > 0) return error;
  const at = { sessionId: session.id, windowId };
  const look = located
    ? windowActions.node(at, session.snapshots.refFor(windowId, located))
    : windowActions.interactive(at);
  return new StagegraphError(error.code, error.message, {
    hint: error.hint,
    nextActions: [look],
    ...(error.details ? { details: error.details } : {}),
    cause: error.cause,
  });
}

function capture(
  session: Session,
  window: SessionWindow,
  driver: WindowDriver,
  bounds = false,
): Promise<Snapshot> {
  return session.snapshots.read(window.id, driver, { bounds });
}

/**
 * Resolves the target to one element. A ref whose element was re-rendered since the agent's last read is
 * followed to its twin (a fresh read re-pairs it); a miss is answered with the nearest candidates of a
 * fresh read, so the agent's next call can be right without another round trip.
 */
async function locate(
  session: Session,
  window: SessionWindow,
  driver: WindowDriver,
  query: TargetQuery,
  timeoutMs: number,
): Promise<{ located: ResolvedNode; query: TargetQuery }> {
  try {
    return { located: await driver.locate(query, timeoutMs), query };
  } catch (error) {
    if (!(error instanceof StagegraphError)) throw error;
    const { spec } = query;
    if (error.code === 'REF_STALE' && spec.kind === 'key') {
      // The fresh read tells the store the element left; it either re-pairs the ref with a twin (act on
      // that) or throws its own REF_STALE naming what the ref was and the nearest nodes now on the page.
      await capture(session, window, driver);
      const moved = session.snapshots.resolve(spec.ref, { windowId: window.id });
      const requery: TargetQuery = {
        ...query,
        spec: { ...spec, key: moved.key, documentId: moved.documentId },
      };
      return { located: await driver.locate(requery, timeoutMs), query: requery };
    }
    if (error.code !== 'SELECTOR_NO_MATCH') throw withCandidateRefs(error, session, window.id);
    const fresh = await capture(session, window, driver);
    throw new StagegraphError(error.code, error.message, {
      hint: error.hint,
      similarRefs: similarRefs(wantedBy(query.spec), fresh),
      nextActions: [windowActions.interactive({ sessionId: session.id, windowId: window.id })],
      ...(error.details ? { details: error.details } : {}),
    });
  }
}

function wantedBy(spec: TargetSpec): Wanted {
  switch (spec.kind) {
    case 'role':
      return { role: spec.role, ...(spec.name === undefined ? {} : { name: spec.name }) };
    case 'text':
      return { name: spec.text };
    case 'testId':
      return { name: spec.testId };
    case 'selector':
      return { name: spec.selector };
    case 'key':
      return { name: spec.ref };
  }
}

/**
 * The target as the window shows it after the action (its checked state, its new value, its name), by ref;
 * as it was before when the action removed it from the page.
 */
async function targetNode(
  session: Session,
  windowId: string,
  driver: WindowDriver,
  located: ResolvedNode,
  after: Snapshot | null,
): Promise<SnapshotNode> {
  const ref = session.snapshots.refFor(windowId, located);
  const shown = after?.node(ref);
  if (shown) return shown;
  const { documentId, node } = located;
  const now = await driver
    .locate({ spec: { kind: 'key', key: node.key, ref, documentId } }, LOOK_AGAIN_MS)
    .catch(() => located);
  return toSnapshotNode(now.node, ref, null, []);
}
