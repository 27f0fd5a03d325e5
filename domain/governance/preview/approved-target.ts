import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { RawNode } from '../../../transports/contract/window-driver.js';
import type { PreviewedTarget } from '../../interaction/handover.js';
import type { SessionRegistry } from '../../sessions/session-registry.js';
import { windowActions } from '../../snapshot/next-actions.js';
import type { PreviewRequest } from '../request/governed-operation.js';
import type { BoundingBox, TargetInfo } from '../request/governed-request.js';
import { type OperationPreview, previewOperation } from './target-preview.js';

/**
 * How far, in CSS pixels, an approved element's box may grow or shrink (its width and its height) and
 * still count as the element the approver saw: enough for sub-pixel rounding and a late font nudging the
 * layout; a relabelled or restyled button changes more. Where the box sits is not compared: boxes are
 * read relative to the viewport, and the approver's own screenshot scrolls the element into view (as a
 * person scrolling does), so a position would change for the same element. That the element is the same
 * one is compared instead (its document and walker key): another element the locator matches now, even
 * a look-alike in another row, is a change. A refusal for an innocent change costs the agent a re-read
 * and a new ask, never an action on something nobody approved.
 */
export const TARGET_BOX_TOLERANCE_PX = 8;
/**
 * The ancestors kept in an element's path, nearest first: a button's section, dialog and landmark sit
 * within a few levels, and a path that grows with the page's depth would grow every approval request.
 */
export const ANCESTRY_MAX_DEPTH = 12;
/** An ancestor's name is cut here: a container named by its whole text would flood the request. */
export const ANCESTRY_NAME_MAX_CHARS = 80;

/** What may differ between the approved target and the one found again. */
export type TargetChange = 'presence' | 'element' | 'kind' | 'window' | 'role' | 'name' | 'path' | 'box';

/**
 * The element's place in its window, as `role "name"` of its ancestors from the outermost kept one below
 * the document down to its parent, so an approval names where the button is ("dialog "Drafts" > button …"), and a button
 * moved to another section no longer matches what was approved. Read only for operations put to an
 * approver (a whole-window walk, no layout), and left as it is for desktop elements, whose AT-SPI object
 * path already says where they are.
 */
export async function withAncestry(preview: OperationPreview): Promise<OperationPreview> {
  const { element, target } = preview;
  if (!element || !target || target.kind !== 'element' || target.path) return preview;
  try {
    const snapshot = await element.driver.snapshot({ bounds: false });
    if (snapshot.documentId !== element.located.documentId) return preview;
    return { ...preview, target: { ...target, path: ancestry(snapshot.nodes, element.located.node.key) } };
  } catch {
    // A window that cannot be walked now: the target is shown without its path, and the re-check after
    // the answer compares its path only if it can read one, which is then a change.
    return preview;
  }
}

/** Linear in the snapshot: one map of keys, then at most ANCESTRY_MAX_DEPTH steps up. */
function ancestry(nodes: readonly RawNode[], key: number): string[] {
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const path: string[] = [];
  let parent = byKey.get(key)?.parent ?? null;
  while (parent !== null && path.length < ANCESTRY_MAX_DEPTH) {
    const node = byKey.get(parent);
    // The document itself is left out: its name is the window's title, which pages change at will (an
    // unread count), and the window is compared on its own.
    if (!node || node.parent === null) break;
    const name =
      node.name.length > ANCESTRY_NAME_MAX_CHARS
        ? `${node.name.slice(0, ANCESTRY_NAME_MAX_CHARS)}…`
        : node.name;
    path.unshift(name ? `${node.role} ${JSON.stringify(name)}` : node.role);
    parent = node.parent;
  }
  return path;
}

/**
 * How the target found again differs from the approved one; empty when it is the same thing. A target
 * the preview could not find was approved as described from its locator: finding it now, or not
 * finding one that was found, is a change too. `sameElement`: whether both resolved to the very same
 * element (or neither resolved to one).
 */
export function targetChanges(
  approved: TargetInfo,
  found: TargetInfo | null,
  sameElement = true,
): TargetChange[] {
  if (!found || (found.previewError && !approved.previewError)) return ['presence'];
  const changes: TargetChange[] = sameElement ? [] : ['element'];
  if (found.kind !== approved.kind) changes.push('kind');
  if ((found.windowId ?? null) !== (approved.windowId ?? null)) changes.push('window');
  if (found.role !== approved.role) changes.push('role');
  if (found.name !== approved.name) changes.push('name');
  if (JSON.stringify(found.path ?? null) !== JSON.stringify(approved.path ?? null)) changes.push('path');
  if (!sameBox(approved.bbox ?? null, found.bbox ?? null)) changes.push('box');
  return changes;
}

function sameBox(a: BoundingBox | null, b: BoundingBox | null): boolean {
  if (!a || !b) return a === b;
  const near = (x: number, y: number) => Math.abs(x - y) <= TARGET_BOX_TOLERANCE_PX;
  return near(a.width, b.width) && near(a.height, b.height);
}

function sameElement(a: PreviewedTarget | null, b: PreviewedTarget | null): boolean {
  if (!a || !b) return a === b;
  return a.located.documentId === b.located.documentId && a.located.node.key === b.located.node.key;
}

export interface Recheck {
  /** The target as it is now, resolved afresh: what the operation acts on when nothing changed. */
  readonly preview: OperationPreview;
  readonly changes: readonly TargetChange[];
}

/**
 * After an approver's answer (a person's seconds, or a SESSION grant's instant), the page elements an
 * operation names are resolved again and compared with what the request showed: a label swapped while
 * the approver read "Delete draft" must not be clicked as "Delete account". Null for operations that act
 * on no page element: a menu item is checked by its own invocation (PreviewOutdated), a program or a
 * location is what the arguments say.
 */
export async function recheckApproved(
  sessions: SessionRegistry,
  request: PreviewRequest,
  approved: OperationPreview,
): Promise<Recheck | null> {
  if (approved.target?.kind !== 'element') return null;
  const found = await withAncestry(await previewOperation(sessions, { ...request, fresh: true }));
  const changes = targetChanges(approved.target, found.target, sameElement(approved.element, found.element));
  if (changes.length > 0 || !found.element) return { preview: found, changes };
  // Acted on as this very element (by its key), not by the locator found again at click time.
  return { preview: { ...found, element: { ...found.element, pinned: true } }, changes };
}

const CHANGE_WORDS: Readonly<Record<TargetChange, string>> = {
  presence: 'it is not found as it was',
  element: 'it is another element',
  kind: 'its kind',
  window: 'its window',
  role: 'its role',
  name: 'its name',
  path: 'its place among its ancestors',
  box: `its size (by more than ${TARGET_BOX_TOLERANCE_PX} px)`,
};

/**
 * The refusal the agent gets: what was approved, what is there now (both as the audit keeps them, with
 * secrets redacted), and the read that shows the window as it is.
 */
export function targetChangedError(
  operation: string,
  sessionId: string | null,
  approved: TargetInfo,
  found: TargetInfo | null,
  changes: readonly TargetChange[],
  delivered = 0,
): StagegraphError {
  const was = `${approved.role} "${approved.name}"`;
  const done =
    delivered === 0
      ? 'nothing was done'
      : `its input was stopped at the element after ${delivered} of its events had reached it`;
  const now = found ? `${found.role} "${found.name}"` : 'nothing';
  const windowId = found?.windowId ?? approved.windowId ?? null;
  return new StagegraphError(
    'TARGET_CHANGED_AFTER_APPROVAL',
    `${operation} was approved on ${was}, but just before acting the target was ${now} (changed: ${changes.map((change) => CHANGE_WORDS[change]).join(', ')}); ${done}.`,
    {
      details: { approved, found, changes },
      nextActions: sessionId && windowId ? [windowActions.interactive({ sessionId, windowId })] : [],
    },
  );
}

/**
 * The target as the transport saw it when it stopped the action's input at the element (its guard found
 * the approved element relabelled between the last look and the input reaching it); null for any other
 * failure. Only role and name are read at dispatch: the rest is the target as last found.
 */
export function changedAtDispatch(
  error: unknown,
  found: TargetInfo,
): { readonly target: TargetInfo; readonly changes: TargetChange[]; readonly delivered: number } | null {
  if (!(error instanceof StagegraphError) || error.code !== 'TARGET_CHANGED_AFTER_APPROVAL') return null;
  const seen = error.details?.found as { role?: unknown; name?: unknown } | undefined;
  const role = typeof seen?.role === 'string' ? seen.role : found.role;
  const name = typeof seen?.name === 'string' ? seen.name : found.name;
  const target = { ...found, role, name };
  const delivered = typeof error.details?.delivered === 'number' ? error.details.delivered : 0;
  return { target, changes: targetChanges(found, target), delivered };
}
