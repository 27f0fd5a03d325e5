/**
 * SESSION-scope approvals: "yes to this operation under this rule, for the rest of this session". Keyed by
 * session so a session's grants go with it; bounded because an approver cannot grant more than this by hand.
 */
export const MAX_GRANTS_PER_SESSION = 1_000;

export class SessionGrants {
  #bySession = new Map<string, Set<string>>();

  has(sessionId: string, operation: string, ruleId: string): boolean {
    return this.#bySession.get(sessionId)?.has(key(operation, ruleId)) ?? false;
  }

  add(sessionId: string, operation: string, ruleId: string): void {
    const grants = this.#bySession.get(sessionId) ?? new Set<string>();
    if (grants.size >= MAX_GRANTS_PER_SESSION) return;
    grants.add(key(operation, ruleId));
    this.#bySession.set(sessionId, grants);
  }

  /** One session's grants, or all of them. */
  clear(sessionId?: string): void {
    if (sessionId === undefined) this.#bySession.clear();
    else this.#bySession.delete(sessionId);
  }
}

/** A NUL cannot occur in a GraphQL field name, so the pair cannot collide with another. */
function key(operation: string, ruleId: string): string {
  return `${operation}\u0000${ruleId}`;
}
