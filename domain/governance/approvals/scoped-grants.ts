import type { SessionInfo, TargetInfo } from '../request/governed-request.js';

/**
 * SESSION- and APP-scope approvals: "yes to this operation on this target under this rule, for the rest of
 * this session (or for every session of this app)" — approving "Delete All Notes" does not approve "Delete
 * Account". Keyed by holder (a session id, or an app's identity) so a holder's grants go together; bounded
 * because an approver cannot grant more than this by hand.
 */
export const MAX_GRANTS_PER_HOLDER = 1_000;

export class ScopedGrants {
  #byHolder = new Map<string, Set<string>>();
  readonly #key: (operation: string, ruleId: string, target: TargetInfo | null) => string;

  /**
   * `acrossSessions`: window ids are a session's own, so grants that outlive one session leave them out;
   * the target is still told apart by its kind, role, name and path.
   */
  constructor(options: { acrossSessions: boolean }) {
    this.#key = options.acrossSessions ? appKey : sessionKey;
  }

  has(holder: string, operation: string, ruleId: string, target: TargetInfo | null): boolean {
    return this.#byHolder.get(holder)?.has(this.#key(operation, ruleId, target)) ?? false;
  }

  add(holder: string, operation: string, ruleId: string, target: TargetInfo | null): void {
    const grants = this.#byHolder.get(holder) ?? new Set<string>();
    if (grants.size >= MAX_GRANTS_PER_HOLDER) return;
    grants.add(this.#key(operation, ruleId, target));
    this.#byHolder.set(holder, grants);
  }

  /** One holder's grants, or all of them. */
  clear(holder?: string): void {
    if (holder === undefined) this.#byHolder.clear();
    else this.#byHolder.delete(holder);
  }
}

/**
 * Who an app is across its sessions: its name, executable and main (an Electron binary runs many apps, told
 * apart by main; a desktop app by its name on the accessibility bus and its command). Null when the session
 * names none of them, so that no grant can reach an app nobody could tell apart.
 */
export function appIdentity(session: SessionInfo): string | null {
  const parts = [session.appName ?? null, session.executablePath ?? null, session.main ?? null];
  return parts.every((part) => part === null || part === '') ? null : JSON.stringify(parts);
}

/** JSON of the parts: distinct requests cannot collide on separators inside names or labels. */
function sessionKey(operation: string, ruleId: string, target: TargetInfo | null): string {
  const on = target && [target.kind, target.role, target.name, target.path ?? null, target.windowId ?? null];
  return JSON.stringify([operation, ruleId, on]);
}

function appKey(operation: string, ruleId: string, target: TargetInfo | null): string {
  const on = target && [target.kind, target.role, target.name, target.path ?? null];
  return JSON.stringify([operation, ruleId, on]);
}
