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
 * the element up again by role and name when we know them. The only place that spells these operations, so
 * they follow the schema's field names from one spot.
 */
export function refRecoveryActions(context: RecoveryContext): string[] {
  const session = `session(id: ${quote(context.sessionId)})`;
  if (context.windowId == null) return [`query { ${session} { windows { id title url } } }`];
  const window = `window(id: ${quote(context.windowId)})`;
  const actions = [
    `query { ${session} { ${window} { snapshot(interactiveOnly: true) { nodes { ref role name } } } } }`,
  ];
  if (context.role) {
    const name = context.name ? `, name: ${quote(context.name)}` : '';
    actions.push(
      `query { ${session} { ${window} { find(role: ${quote(context.role)}${name}) { ref role name } } } }`,
    );
  }
  return actions;
}

/** JSON string escapes are all valid GraphQL string escapes. */
function quote(value: string): string {
  return JSON.stringify(value);
}
