import type { TargetInfo } from '../request/governed-request.js';

/**
 * SESSION-scope approvals: "yes to this operation on this target under this rule, for the rest of this
 * session" — approving "Delete All Notes" once for the session does not approve "Delete Account". Keyed by
 * session so a session's grants go with it; bounded because an approver cannot grant more than this by hand.
 */
export const MAX_GRANTS_PER_SESSION = 1_000;

export class SessionGrants {
  #bySession = new Map<string, Set<string>>();

  has(sessionId: string, operation: string, ruleId: string, target: TargetInfo | null): boolean {
    return this.#bySession.get(sessionId)?.has(key(operation, ruleId, target)) ?? false;
  }

  add(sessionId: string, operation: string, ruleId: string, target: TargetInfo | null): void {
    const grants = this.#bySession.get(sessionId) ?? new Set<string>();
    if (grants.size >= MAX_GRANTS_PER_SESSION) return;
    grants.add(key(operation, ruleId, target));
    this.#bySession.set(sessionId, grants);
  }

  /** One session's grants, or all of them. */
  clear(sessionId?: string): void {
    if (sessionId === undefined) this.#bySession.clear();
    else this.#bySession.delete(sessionId);
  }
}

/** JSON of the parts: distinct requests cannot collide on separators inside names or labels. */
function key(operation: string, ruleId: string, target: TargetInfo | null): string {
  const on = target && [target.kind, target.role, target.name, target.path ?? null, target.windowId ?? null];
  return JSON.stringify([operation, ruleId, on]);
}
