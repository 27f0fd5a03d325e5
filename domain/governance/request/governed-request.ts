import type { Confidence } from '../../interaction/selector/confidence.js';

/** Plain JSON, as GraphQL arguments arrive once coerced: what the policy matches and the audit stores. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type OperationKind = 'query' | 'mutation';

/** The session an operation acts on, as far as the policy may care. */
export type SessionInfo = {
  readonly id: string;
  /** The app's name as it reports it (package name; a desktop app's name on the accessibility bus). */
  readonly appName?: string | null;
  readonly executablePath?: string | null;
  /** The app's main script or package path. */
  readonly main?: string | null;
  readonly windowTitle?: string | null;
  readonly windowUrl?: string | null;
};

export type BoundingBox = {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
};

/**
 * What kind of thing an operation acts on; each kind has one previewer (preview/acted-on.ts,
 * preview/target-preview.ts).
 */
export const ACTED_ON_KINDS = [
  'element',
  'menuItem',
  'contextMenuItem',
  'tray',
  'program',
  'location',
] as const;
export type ActedOnKind = (typeof ACTED_ON_KINDS)[number];

/** How a target's path reads in rules and reasons: `File > Delete All Notes`. */
export const PATH_SEPARATOR = ' > ';

/**
 * The thing an operation will act on, resolved before the policy decides (never the raw locator): a page
 * element, a menu item, a tray, the program a launch runs, the location a navigation goes to. Risk scoring, rule matching, the approval
 * request and the audit record all read this one shape.
 */
export type TargetInfo = {
  readonly kind: ActedOnKind;
  readonly role: string;
  /** The accessible name, menu label, tray tooltip or executable: what destructive words are read in. */
  readonly name: string;
  /** Where it sits: menu labels from the top, [tray id], [command, ...arguments], [from URL, to URL], [AT-SPI object path]. */
  readonly path?: readonly string[] | null;
  /** The gateway's window id, where the thing lives in one. */
  readonly windowId?: string | null;
  readonly selector?: string | null;
  readonly bbox?: BoundingBox | null;
  /** The element's `type` attribute where it has one: `password` makes typed values secret. */
  readonly inputType?: string | null;
  /**
   * Whether acting on it does what its name says (invoking a menu item, clicking a button), so a
   * destructive name raises the risk. Unset for elements: the operation decides (click yes, hover no).
   */
  readonly activates?: boolean | null;
  /**
   * Why the thing could not be read before acting, when it could not: it is then described from the
   * operation's own arguments (the path asked for), and the operation itself fails if it is really absent.
   */
  readonly previewError?: string | null;
  /**
   * For page elements: how much to trust that the target names the element meant (STABLE_ID, ROLE_NAME,
   * TEXT, SPATIAL, OCR; see domain/interaction/selector/confidence.ts); null when unknown.
   */
  readonly confidence?: Confidence | null;
};

/** One operation as the chokepoint presents it to the policy, the approvals broker and the audit log. */
export type GovernedRequest = {
  /** The GraphQL field name, e.g. `click`. */
  readonly operation: string;
  readonly kind: OperationKind;
  readonly args: JsonObject;
  readonly session: SessionInfo | null;
  readonly target: TargetInfo | null;
};
