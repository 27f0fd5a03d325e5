import { graphqlString } from '../sessions/graphql-string.js';
import { sessionActions } from '../sessions/next-actions.js';

/** Where a window-level next action reads: a real session and one of its windows. */
export interface WindowAt {
  readonly sessionId: string;
  readonly windowId: string;
}

function onWindow(at: WindowAt, selection: string): string {
  return `query { session(id: ${graphqlString(at.sessionId)}) { window(id: ${graphqlString(at.windowId)}) { ${selection} } } }`;
}

/**
 * The reads an error offers to look at a window again, so the caller's next call can name a target that
 * exists. test/next-actions.test.ts validates each against the schema.
 */
export const windowActions = {
  /**
   * A full snapshot with its id, for `since:` to diff against. Reads suggest the outline: the same refs,
   * roles, names, values and states as `nodes { ... }` in about half the characters.
   */
  snapshot: (at: WindowAt) => onWindow(at, 'snapshot { id outline }'),
  /** The elements a caller can act on, with their states (the outline carries them). */
  interactive: (at: WindowAt) => onWindow(at, 'snapshot(interactiveOnly: true) { outline }'),
  /** One element as it is now: whether it is enabled, visible, where it is. */
  node: (at: WindowAt, ref: string) =>
    onWindow(at, `node(ref: ${graphqlString(ref)}) { ref role name states bbox { x y width height } }`),
  /** The element looked up again by what it was. */
  find: (at: WindowAt, role: string, name?: string | null) =>
    onWindow(
      at,
      `find(role: ${graphqlString(role)}${name ? `, name: ${graphqlString(name)}` : ''}) { ref role name }`,
    ),
} as const;

export interface RecoveryContext {
  readonly sessionId: string;
  /** The window the ref belonged to (or was asked in); without it the caller is sent to the window list. */
  readonly windowId?: string | null;
  /** What the lost element was, when known: adds a `find` for it. */
  readonly role?: string | null;
  readonly name?: string | null;
}

/**
 * Ready GraphQL operations that recover from a ref that no longer resolves: re-snapshot the window, and look
 * the element up again by role and name when we know them.
 */
export function refRecoveryActions(context: RecoveryContext): string[] {
  if (context.windowId == null) return [sessionActions.windows({ id: context.sessionId })];
  const at = { sessionId: context.sessionId, windowId: context.windowId };
  const actions = [windowActions.interactive(at)];
  if (context.role) actions.push(windowActions.find(at, context.role, context.name));
  return actions;
}
