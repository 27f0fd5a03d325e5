import { createHash } from 'node:crypto';
import type { ResolvedNode } from '../../../transports/contract/window-driver.js';
import { ACTION_TIMEOUT_DEFAULT_MS } from '../../interaction/action.js';
import type { PreviewedTarget } from '../../interaction/handover.js';
import { type Confidence, staticConfidence } from '../../interaction/selector/confidence.js';
import { parseSelector } from '../../interaction/selector/parser.js';
import type { TargetRequest } from '../../interaction/target-input.js';
import { windowTarget } from '../../interaction/window-target.js';
import type { Session } from '../../sessions/session.js';
import type { SessionRegistry } from '../../sessions/session-registry.js';
import { ocrTargetInfo } from '../ocr-target-info.js';
import { refusedOwnPage } from '../own-pages/own-pages.js';
import type { PreviewRequest } from '../request/governed-operation.js';
import type { SessionInfo, TargetInfo } from '../request/governed-request.js';
import { ACTED_ON_PREVIEWERS } from './acted-on.js';

/**
 * The preview waits for the target at most this long (or the operation's own shorter timeout): long enough
 * for an element that is still rendering, short enough not to double a failing action's wait.
 */
export const TARGET_PREVIEW_MAX_WAIT_MS = 1_000;
/**
 * The approver's element screenshot is taken while the request is already out, so a slow capture delays
 * only that field (and the approver's decision, which needs it): a renderer that cannot paint in this long
 * is not going to.
 */
export const APPROVAL_SCREENSHOT_WAIT_MS = 10_000;
/** Bigger element captures (a whole-page container) are left out rather than pushed to every approver. */
export const MAX_APPROVAL_SCREENSHOT_BYTES = 512 * 1024;

/** What the policy is shown, and how to reach the element again for an approver's screenshot. */
export interface OperationPreview {
  readonly session: SessionInfo | null;
  readonly target: TargetInfo | null;
  /** The resolved element: for the approver's screenshot, and handed to the action so it resolves it once. */
  readonly element: PreviewedTarget | null;
}

export interface ElementScreenshot {
  readonly mimeType: string;
  readonly base64: string;
  readonly sha256: string;
}

const NOTHING: OperationPreview = { session: null, target: null, element: null };

/**
 * Resolves the session, window and target an operation names, without acting, so the policy decides on
 * what will really be touched (its role and accessible name, not the locator the agent wrote). A target
 * that cannot be resolved is described from its locator with the reason (the operation itself then fails
 * as it would have, or acts on what appeared since); other things unresolved are left null.
 */
export async function previewOperation(
  sessions: SessionRegistry,
  request: PreviewRequest,
): Promise<OperationPreview> {
  const kind = request.actsOn ?? null;
  let session: Session | null = null;
  if (request.actsOnSession) {
    try {
      session = sessions.get(request.sessionId);
    } catch {
      // An unknown session: the operation will say so; a declared subject is still described.
    }
  }
  const info = session && {
    id: session.id,
    appName: session.app.name,
    executablePath: session.launch.executablePath ?? session.app.executablePath,
    main: session.launch.main,
  };
  if (kind !== null && kind !== 'element')
    return {
      session: info,
      target: await ACTED_ON_PREVIEWERS[kind](session, request),
      element: null,
    };
  if (!session || !info) return NOTHING;
  if (!session.isLive) return { ...NOTHING, session: info };
  try {
    const waitMs = Math.min(request.timeoutMs ?? ACTION_TIMEOUT_DEFAULT_MS, TARGET_PREVIEW_MAX_WAIT_MS);
    const { window, driver, query, resolvedBy, ocr } = await windowTarget(session, {
      ...request,
      timeoutMs: Math.max(0, waitMs),
    });
    // The window was picked without asking its renderer; its current title is asked beside the target's
    // resolution, so the policy sees the title as it is and the click pays no round trip of its own for it.
    const current =
      request.described?.id === window.id
        ? request.described
        : session.currentWindow(window).catch(() => window);
    const [now, located] = await Promise.all([
      current,
      query ? driver.locate(query, Math.max(0, waitMs)).catch(() => null) : null,
    ]);
    const withWindow = { ...info, windowTitle: now.title, windowUrl: now.url };
    if (!query) return { session: withWindow, target: null, element: null };
    if (!located)
      return {
        session: withWindow,
        target: describedTarget(request.target, `not found within ${waitMs} ms`, window.id),
        element: null,
      };
    return {
      session: withWindow,
      target: {
        ...targetInfo(located, request.target, window.id),
        ...(ocr ? ocrTargetInfo(ocr) : {}),
        confidence: resolvedBy?.confidence ?? null,
      },
      element: {
        window,
        driver,
        query,
        located,
        ...(resolvedBy ? { resolvedBy } : {}),
        ...(ocr ? { ocr } : {}),
        ...(request.target?.query == null ? {} : { asked: JSON.stringify(request.target) }),
      },
    };
  } catch (error) {
    // A target named two ways, an unknown ref, a closed window: the operation will say so itself. One of
    // the gateway's own pages is never read, so its URL comes from the refusal: the chokepoint denies it.
    const own = refusedOwnPage(error);
    return {
      ...NOTHING,
      session: own ? { ...info, windowUrl: own.url } : info,
      target: describedTarget(request.target, (error as Error).message, null),
    };
  }
}

/**
 * A target the preview could not find, described from the locator the agent wrote, so it is still scored
 * and matched on what is known: an element that appears after the preview's short wait but before the
 * action's own is acted on, and a `{ testId: "delete-account" }` must not pass as harmless meanwhile.
 */
function describedTarget(
  asked: TargetRequest | null | undefined,
  why: string,
  windowId: string | null,
): TargetInfo | null {
  if (!asked) return null;
  return {
    kind: 'element',
    role: asked.role ?? 'unresolved',
    name: asked.name ?? asked.text ?? asked.testId ?? asked.selector ?? asked.ref ?? asked.query ?? '',
    selector: asked.selector ?? (asked.testId ? `[data-testid="${asked.testId}"]` : null),
    windowId,
    previewError: why,
    confidence: unresolvedConfidence(asked),
  };
}

/**
 * A query target the preview could not resolve is scored by the best it could earn, so a rule on low
 * confidence still sees a spatial query that resolves only after the preview's short wait.
 */
function unresolvedConfidence(asked: TargetRequest): Confidence | null {
  if (asked.query == null) return null;
  try {
    return staticConfidence(parseSelector(asked.query));
  } catch {
    return null;
  }
}

/** A PNG of the element for the approver; null when it cannot be taken quickly or is too large to send. */
export async function elementScreenshot(preview: OperationPreview): Promise<ElementScreenshot | null> {
  if (!preview.element) return null;
  const { driver, query } = preview.element;
  try {
    const shot = await driver.screenshot({ format: 'png', target: query }, APPROVAL_SCREENSHOT_WAIT_MS);
    if (shot.bytes.length > MAX_APPROVAL_SCREENSHOT_BYTES) return null;
    return {
      mimeType: 'image/png',
      base64: shot.bytes.toString('base64'),
      sha256: createHash('sha256').update(shot.bytes).digest('hex'),
    };
  } catch {
    return null;
  }
}

/**
 * The walker does not read the `type` attribute; it marks password fields (and values filled as secret)
 * as secret textboxes, which is what the redactor's `password` input type stands for.
 */
function targetInfo(
  { node }: ResolvedNode,
  asked: TargetRequest | null | undefined,
  windowId: string,
): TargetInfo {
  return {
    kind: 'element',
    windowId,
    role: node.role,
    name: node.name,
    selector: asked?.selector ?? (asked?.testId ? `[data-testid="${asked.testId}"]` : null),
    bbox: node.bbox ?? null,
    inputType: node.secret ? 'password' : null,
    // A desktop element's object path: what an auditor needs to find the very object again.
    ...(node.atspiPath ? { path: [node.atspiPath] } : {}),
  };
}
