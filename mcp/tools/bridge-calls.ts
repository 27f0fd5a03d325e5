import type { WireError } from '../graphql-link.js';

/** A GraphQL string literal as the gateway writes them (JSON's), read back. */
const STRING = '("(?:[^"\\\\]|\\\\.)*")';
const ON_WINDOW = new RegExp(
  `^query \\{ session\\(id: ${STRING}\\) \\{ window\\(id: ${STRING}\\) \\{ (.*) \\} \\} \\}$`,
);
const NODE = new RegExp(`^node\\(ref: ${STRING}\\)`);

/**
 * A next action the gateway offers (a ready GraphQL operation) as the bridge call that does the same: the
 * window reads as `read`, the rest as the `graphql` tool with that document — so an agent on the bridge is
 * never sent to a GraphQL endpoint it does not hold.
 */
export function bridgeCall(action: string): string {
  const window = ON_WINDOW.exec(action);
  if (window) {
    const [, session, windowId, selection = ''] = window;
    const where = { session: JSON.parse(session ?? '""'), window: JSON.parse(windowId ?? '""') };
    const node = NODE.exec(selection);
    if (node) return call('read', { ...where, within: JSON.parse(node[1] ?? '""'), all: true });
    if (selection.startsWith('snapshot(interactiveOnly: true)')) return call('read', where);
    if (selection.startsWith('snapshot ')) return call('read', { ...where, all: true });
  }
  return call('graphql', { query: action });
}

function call(tool: string, args: Record<string, unknown>): string {
  return `${tool} ${JSON.stringify(args)}`;
}

/**
 * Hints the gateway words for GraphQL callers (`session(id: ...)`), as they read on the bridge, where the
 * same choice is a tool argument. Other codes keep the gateway's hint.
 */
export function bridgeHint(error: WireError): string | undefined {
  const { code, hint, details } = error.extensions ?? {};
  const live = (details as { liveSessions?: unknown } | undefined)?.liveSessions;
  const sessions = Array.isArray(live) && live.length > 0 ? ` (live: ${live.join(', ')})` : '';
  switch (code) {
    case 'SESSION_AMBIGUOUS':
      return `Several sessions are open: pass "session"${sessions} to every call.`;
    case 'SESSION_NOT_FOUND':
      return `Pass the "session" of a live session${sessions}, or call open.`;
    case 'REF_NOT_FOUND':
    case 'REF_STALE':
      return 'Call read and use a ref it lists; "similar" names the nearest ones now.';
    case 'SELECTOR_NO_MATCH':
      return 'Check the target against read; "similar" names the nearest elements by role and name.';
    case 'WINDOW_NOT_FOUND':
      return 'Pass the "window" of an open window (open and read answer them); a window may still be opening.';
    default:
      return hint;
  }
}

/** `similar: e4 button "Save", e9 link "Save as"`: the candidates an error offers, as outline entries. */
export function similarLine(error: WireError): string | undefined {
  const similar = error.extensions?.similarRefs as
    | readonly { ref: string; role: string; name: string }[]
    | undefined;
  if (!similar?.length) return undefined;
  return `similar: ${similar.map((node) => `${node.ref} ${node.role} "${node.name}"`).join(', ')}`;
}
