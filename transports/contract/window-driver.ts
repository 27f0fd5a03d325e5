import type { Bounds } from './bounds.js';
import type { ScreencastHandle, StartScreencast } from './screencast-contract.js';

/**
 * The per-window seam: everything the domain asks of one renderer document, whatever transport reached it.
 * Elements are named by `key`: a number the in-page walker gives each node, stable for that node's life in
 * its document. Refs never reach a transport; the snapshot store in domain/snapshot/ maps refs to keys.
 */

export type NodeState =
  | 'DISABLED'
  | 'CHECKED'
  | 'MIXED'
  | 'EXPANDED'
  | 'COLLAPSED'
  | 'SELECTED'
  | 'FOCUSED'
  | 'REQUIRED'
  | 'READONLY'
  | 'PRESSED';

/** One node of a window's accessibility tree, as the walker read it. */
export interface RawNode {
  /** The node's key in its document; unique within one `documentId`. */
  readonly key: number;
  /** The key of the nearest included ancestor; null for the snapshot's root. */
  readonly parent: number | null;
  /** An ARIA role (explicit or implicit per HTML-AAM), or `text` for a run of text. */
  readonly role: string;
  /** The accessible name (accname 1.2); for `text` nodes, the text itself. */
  readonly name: string;
  /** Current value of form controls and ranges; a secret's value is REDACTED_VALUE, never the text. */
  readonly value?: string;
  readonly description?: string;
  readonly states: readonly NodeState[];
  /** Heading level, tree/list nesting level (aria-level and implicit h1..h6). */
  readonly level?: number;
  /** CSS pixels relative to the top document's viewport; absent when the node renders no box. */
  readonly bbox?: Bounds;
  /** True for nodes an agent acts on: links, buttons, form controls, focusable widgets. */
  readonly interactive: boolean;
  /** True when the value is a secret (a password field, or filled with `secret: true`). */
  readonly secret?: boolean;
  /** A link's target, resolved to an absolute URL; absent for anything but a link with an href. */
  readonly url?: string;
  /** How many options a native select holds, so a listing can count them without listing them. */
  readonly optionCount?: number;
  /** A desktop node's AT-SPI role name (`push button`, `password text`); absent for page nodes. */
  readonly atspiRole?: string;
  /** A desktop node's AT-SPI object path on its application's bus; absent for page nodes. */
  readonly atspiPath?: string;
}

/** What a secret's value reads as, everywhere. */
export const REDACTED_VALUE = '[redacted]';

export interface RawSnapshot {
  /** Changes whenever the document is replaced (reload, navigation): keys of another document are void. */
  readonly documentId: string;
  readonly url: string;
  readonly title: string;
  /** Pre-order document order; `nodes[0]` is the root (the document, or the `within` node). */
  readonly nodes: readonly RawNode[];
  /**
   * Keys handed out earlier in this document whose nodes have since left it, each reported once: what
   * lets the ref store tell "re-rendered" (gone, and a twin appeared) from "out of this snapshot's scope".
   */
  readonly detached: readonly number[];
  /**
   * Set when this snapshot was made from `base` (the transport's previous read of the same document and
   * scope) by replacing only `splices`: the ref store and the diff then cost the change, not the page.
   */
  readonly incremental?: {
    readonly base: RawSnapshot;
    readonly splices: readonly RawSplice[];
  };
}

/**
 * `removed` nodes of the base from index `from` were replaced by `inserted` nodes from index `at` of the
 * new snapshot; splices are in document order and do not overlap, and every node outside them is equal.
 */
export interface RawSplice {
  readonly from: number;
  readonly removed: number;
  readonly at: number;
  readonly inserted: number;
}

export interface SnapshotRequest {
  /** Only the subtree of this key (itself the root). */
  readonly within?: number;
  /** Only interactive nodes, each parented to its nearest included ancestor (the root is always kept). */
  readonly interactiveOnly?: boolean;
  /** Levels below the root to include; unlimited when absent. */
  readonly depth?: number;
  /**
   * Measure each node's box (default true). Layout reads are a third of a large page's walk, and most
   * reads never look at a box, so callers that will not show `bbox` say so.
   */
  readonly bounds?: boolean;
}

/** Where an action lands, as a transport understands it. */
export type TargetSpec =
  | { readonly kind: 'key'; readonly key: number; readonly ref: string; readonly documentId: string }
  | { readonly kind: 'selector'; readonly selector: string }
  | { readonly kind: 'testId'; readonly testId: string }
  | { readonly kind: 'role'; readonly role: string; readonly name?: string; readonly exact?: boolean }
  | { readonly kind: 'text'; readonly text: string; readonly exact?: boolean };

/** A target as messages name it: `role button named "Save"`, `ref e4`, `test id "save"`. */
export function describeSpec(spec: TargetSpec): string {
  switch (spec.kind) {
    case 'key':
      return `ref ${spec.ref}`;
    case 'selector':
      return `selector ${JSON.stringify(spec.selector)}`;
    case 'testId':
      return `test id ${JSON.stringify(spec.testId)}`;
    case 'role':
      return `role ${spec.role}${spec.name === undefined ? '' : ` named ${JSON.stringify(spec.name)}`}`;
    case 'text':
      return `text ${JSON.stringify(spec.text)}`;
  }
}

export interface TargetQuery {
  readonly spec: TargetSpec;
  /** Zero-based pick among several matches; without it several matches are AMBIGUOUS_TARGET. */
  readonly nth?: number;
  readonly within?: TargetQuery;
}

export type Modifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift';

/** An action on one resolved element; a drag names its destination as a target too. */
export type ElementAction =
  | {
      readonly type: 'click';
      readonly button?: 'left' | 'right' | 'middle';
      readonly clickCount?: number;
      readonly modifiers?: readonly Modifier[];
      readonly position?: { readonly x: number; readonly y: number };
    }
  | { readonly type: 'fill'; readonly value: string }
  | { readonly type: 'type'; readonly text: string; readonly delayMs?: number }
  | { readonly type: 'press'; readonly key: string }
  | { readonly type: 'hover' }
  | { readonly type: 'focus' }
  | { readonly type: 'clear' }
  | { readonly type: 'setChecked'; readonly checked: boolean }
  | {
      readonly type: 'selectOption';
      readonly values?: readonly string[];
      readonly labels?: readonly string[];
      readonly indexes?: readonly number[];
    }
  | { readonly type: 'setInputFiles'; readonly paths: readonly string[] }
  | { readonly type: 'scrollIntoView' };

export type TargetedAction = ElementAction | { readonly type: 'dragTo'; readonly to: TargetQuery };

export type ExpectKind =
  | 'TEXT'
  | 'VALUE'
  | 'VISIBLE'
  | 'HIDDEN'
  | 'ENABLED'
  | 'DISABLED'
  | 'CHECKED'
  | 'COUNT'
  | 'URL'
  | 'TITLE';

export interface Matcher {
  readonly equals?: string;
  readonly contains?: string;
  readonly regex?: string;
  readonly min?: number;
  readonly max?: number;
  /** Inverts the whole condition. */
  readonly not?: boolean;
}

export interface ExpectationResult {
  readonly actual: string;
  readonly elapsedMs: number;
}

export interface ScreenshotOptions {
  readonly format: 'png' | 'jpeg';
  readonly quality?: number;
  readonly fullPage?: boolean;
  /** An element to capture instead of the viewport. */
  readonly target?: TargetQuery;
}

export interface Screenshot {
  readonly bytes: Buffer;
  readonly format: 'png' | 'jpeg';
  readonly width: number;
  readonly height: number;
}

/**
 * How far a document has loaded, in Playwright's terms: COMMIT (the response arrived and the new document
 * replaced the old), DOMCONTENTLOADED, LOAD (every subresource), NETWORKIDLE (no request for 500 ms).
 */
export type LoadState = 'COMMIT' | 'DOMCONTENTLOADED' | 'LOAD' | 'NETWORKIDLE';

/** Where a navigation goes: a URL, or a step of the window's own history. */
export type NavigationTarget =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'reload' }
  | { readonly kind: 'back' }
  | { readonly kind: 'forward' };

export interface NavigationResult {
  /** The main document's HTTP status; null when there was no response (file:, about:, same-document). */
  readonly status: number | null;
  /** False when `waitUntil` was not reached within the timeout, though the new document had committed. */
  readonly reached: boolean;
}

/** A window's session history: the URLs of its entries and which one is shown. */
export interface NavigationHistory {
  readonly urls: readonly string[];
  readonly index: number;
}

/** A request a window started and had not finished: what an action's settle reports it did not wait out. */
export interface PendingRequest {
  readonly method: string;
  readonly url: string;
  /** Playwright's resource types: document (a navigation), fetch, xhr, script, stylesheet, image, … */
  readonly resourceType: string;
}

/**
 * The requests a window begins (navigations included) from the moment the watch starts until it ends: an
 * action's own, so its effect is read once they are done. Requests already running when it started are
 * not its, nor are the long-lived kinds that never finish by design (event streams, web sockets, media).
 */
export interface RequestWatch {
  /** How many requests begun since the watch started have finished or failed. */
  readonly finished: number;
  /** The requests begun since the watch started that are still running, oldest first. */
  pending(): readonly PendingRequest[];
  /** Resolves once none is pending (at once when none is), or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void>;
  /** Stops watching; what it counted stays readable. */
  end(): void;
}

/** The element an approver approved, as the walker named it. */
export interface ExpectedElement {
  readonly role: string;
  readonly name: string;
}

/** A resolved target: the walker's node for it, in the document it was found in. */
export interface ResolvedNode {
  readonly documentId: string;
  readonly node: RawNode;
}

/**
 * What a transport puts in AMBIGUOUS_TARGET's `details`: the first few elements the target matched, as the
 * walker describes them, so the domain can name each by ref.
 */
export interface AmbiguityDetails {
  readonly count: number;
  readonly documentId: string;
  readonly candidates: readonly { readonly node: RawNode; readonly testId: string | null }[];
}

/** An element's (or the document's) markup, secrets redacted, cut at a length. */
export interface HtmlRead {
  readonly html: string;
  /** The length of the whole markup before any cut, in UTF-16 code units as JavaScript counts them. */
  readonly length: number;
}

export interface WindowDriver {
  snapshot(request: SnapshotRequest): Promise<RawSnapshot>;
  /** Resolves a target to exactly one element (bounded wait) and describes it as the walker would. */
  locate(target: TargetQuery, timeoutMs: number): Promise<ResolvedNode>;
  /**
   * Given `expected` (an approved element), the transport checks as the action's input events reach the
   * element that it still has that role and name, and stops them there when it has not
   * (TARGET_CHANGED_AFTER_APPROVAL); a transport that cannot check at dispatch acts without the check.
   */
  act(
    target: TargetQuery,
    action: TargetedAction,
    timeoutMs: number,
    expected?: ExpectedElement,
  ): Promise<void>;
  /** Keyboard input with no target: goes to whatever has focus, answered within `timeoutMs`. */
  press(key: string, timeoutMs: number): Promise<void>;
  /** Scrolls the page, or the target's scroll container, by a delta in CSS pixels. */
  scrollBy(target: TargetQuery | undefined, dx: number, dy: number, timeoutMs: number): Promise<void>;
  expect(
    kind: ExpectKind,
    matcher: Matcher,
    target: TargetQuery | undefined,
    timeoutMs: number,
  ): Promise<ExpectationResult>;
  screenshot(options: ScreenshotOptions, timeoutMs: number): Promise<Screenshot>;
  /** Marks a node's value secret for the rest of its document's life (redacted in every snapshot). */
  markSecret(key: number): Promise<void>;
  /**
   * The document's change count once it differs from `after` (at once when `after` is null), or after
   * `timeoutMs`. A replaced document counts as a change.
   */
  nextChange(after: number | null, timeoutMs: number): Promise<number>;
  /** Starts watching the requests this window begins from now on; the caller ends the watch. */
  watchRequests(): Promise<RequestWatch>;
  /**
   * Navigates and waits for `waitUntil`. Fails with NAVIGATION_FAILED (a net:: error, an aborted load) or
   * NAVIGATION_TIMEOUT when nothing committed in time; a committed document that had not reached
   * `waitUntil` answers with `reached: false`.
   */
  navigate(target: NavigationTarget, waitUntil: LoadState, timeoutMs: number): Promise<NavigationResult>;
  /** Resolves true once the current document has reached `state`, false when `timeoutMs` ran out first. */
  waitForLoad(state: LoadState, timeoutMs: number): Promise<boolean>;
  /** The window's history; null when the transport cannot read it. */
  history(): Promise<NavigationHistory | null>;
  /**
   * The target's markup (outer or inner; the whole document without a target), password values and
   * values marked secret redacted, cut after `maxChars` characters.
   */
  html(
    target: TargetQuery | undefined,
    outer: boolean,
    maxChars: number,
    timeoutMs: number,
  ): Promise<HtmlRead>;
  /**
   * The DOM textContent of each key's element in that document (secrets redacted, each cut after
   * `maxChars`); null for a key whose element is gone or whose document was replaced.
   */
  textContents(documentId: string, keys: readonly number[], maxChars: number): Promise<(string | null)[]>;
  /** The distinct test ids (data-testid) of the document in document order, at most `limit`. */
  testIds(limit: number): Promise<string[]>;
  /** How many elements each target matches right now, without waiting: 0 for none. */
  countMatches(targets: readonly TargetQuery[]): Promise<number[]>;
  /**
   * Starts producing JPEG frames of the window (screencast-contract.ts); absent where the transport cannot show
   * its windows. Each call is its own producer: the caller shares it among viewers.
   */
  startScreencast?: StartScreencast;
  /**
   * Calls `onRepaint` whenever the window is painted anew, and never while it shows the same pixels (a taken
   * screenshot counts as a repaint); until the handle stops. Absent, or null, where the transport cannot be
   * told of repaints without capturing the window.
   */
  watchRepaints?(onRepaint: () => void): Promise<ScreencastHandle | null>;
}
