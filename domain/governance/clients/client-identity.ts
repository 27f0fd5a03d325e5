import { createHash, timingSafeEqual } from 'node:crypto';
import { StagegraphError } from '../../../errors/stagegraph-error.js';

export type ClientRole = 'agent' | 'approver' | 'observer' | 'anonymous-loopback';

/** Who sent a request; `id` is what the audit trail names and never contains the token. */
export interface ClientIdentity {
  readonly id: string;
  readonly role: ClientRole;
}

/** The roles a token can grant; anonymous-loopback is what no token means on a tokenless loopback server. */
export type TokenRole = Exclude<ClientRole, 'anonymous-loopback'>;

/**
 * A token the directory accepts: in clear (`--token`), or only its SHA-256 digest (a hashed token file),
 * which is all the directory keeps of either.
 */
export type TokenGrant = (
  | { readonly token: string; readonly digest?: undefined }
  | { readonly digest: Buffer; readonly token?: undefined }
) & {
  readonly role: TokenRole;
  /** How the audit trail names this client; derived from the token's digest when absent. */
  readonly name?: string;
};

/** Several tokens per variable, for rotation without downtime. */
const TOKEN_SEPARATOR = ',';

export const ANONYMOUS_LOOPBACK: ClientIdentity = { id: 'anonymous-loopback', role: 'anonymous-loopback' };

interface Entry {
  readonly digest: Buffer;
  readonly identity: ClientIdentity;
}

/**
 * Resolves bearer tokens to clients. Agent and approver tokens are separate so an agent cannot approve its
 * own actions. Without any agent token, loopback clients that present no token are `anonymous-loopback`
 * (local development); a token that is presented must be right, whatever the bind.
 */
export class ClientDirectory {
  #entries: Entry[];

  constructor(grants: readonly TokenGrant[]) {
    const seen = new Map<string, TokenGrant['role']>();
    for (const grant of grants) {
      if (grant.token?.trim() === '')
        throw new StagegraphError('BAD_INPUT', `A ${grant.role} token is empty.`);
      const key = digestOf(grant).toString('hex');
      const role = seen.get(key);
      if (role !== undefined && role !== grant.role)
        throw new StagegraphError(
          'BAD_INPUT',
          `The same token is configured as both ${role} and ${grant.role}.`,
          {
            hint: 'Give each role tokens of its own: an agent must not approve its own actions, and an observer must not act.',
          },
        );
      seen.set(key, grant.role);
    }
    this.#entries = grants.map((grant) => {
      const digest = digestOf(grant);
      return {
        digest,
        identity: {
          id: grant.name ?? `${grant.role}-${digest.toString('hex').slice(0, 8)}`,
          role: grant.role,
        },
      };
    });
  }

  /** STAGEGRAPH_TOKEN, STAGEGRAPH_APPROVER_TOKEN and STAGEGRAPH_OBSERVER_TOKEN, each possibly a comma-separated list. */
  static fromEnvironment(environment: NodeJS.ProcessEnv, extra: readonly TokenGrant[] = []): ClientDirectory {
    return new ClientDirectory([
      ...extra,
      ...tokenGrants(environment.STAGEGRAPH_TOKEN, 'agent'),
      ...tokenGrants(environment.STAGEGRAPH_APPROVER_TOKEN, 'approver'),
      ...tokenGrants(environment.STAGEGRAPH_OBSERVER_TOKEN, 'observer'),
    ]);
  }

  /** Whether a client must present a token even on loopback. */
  get requiresAgentToken(): boolean {
    return this.#entries.some((entry) => entry.identity.role === 'agent');
  }

  /**
   * Resolves an `Authorization` value (with or without `Bearer `). Throws UNAUTHENTICATED for a wrong
   * token, or for none where one is required.
   */
  resolve(authorization: string | null | undefined, options: { readonly loopback: boolean }): ClientIdentity {
    const token = authorization?.replace(/^Bearer\s+/i, '').trim() ?? '';
    if (token === '') {
      if (options.loopback && !this.requiresAgentToken) return ANONYMOUS_LOOPBACK;
      throw new StagegraphError(
        'UNAUTHENTICATED',
        'This server requires a token and the request carried none.',
      );
    }
    const presented = sha256(token);
    let found: ClientIdentity | undefined;
    // Every entry is compared, equal-length digests in constant time: timing reveals neither which token
    // was close nor how many there are before the match.
    for (const entry of this.#entries) {
      if (timingSafeEqual(entry.digest, presented)) found = entry.identity;
    }
    if (found === undefined)
      throw new StagegraphError('UNAUTHENTICATED', 'The token is not one this server accepts.');
    return found;
  }
}

/** A configured token value (`--token`, STAGEGRAPH_TOKEN, ...), possibly a comma-separated list. */
export function tokenGrants(value: string | null | undefined, role: TokenRole): TokenGrant[] {
  return (value ?? '')
    .split(TOKEN_SEPARATOR)
    .map((token) => token.trim())
    .filter((token) => token !== '')
    .map((token) => ({ token, role }));
}

/** What a role may do, stated once for the chokepoint, the approval broker and `Query.viewer`. */
export function permissionsOf(role: ClientRole): {
  readonly mayAct: boolean;
  readonly mayApprove: boolean;
  readonly mayWatchApprovals: boolean;
} {
  return {
    mayAct: role === 'agent' || role === 'anonymous-loopback',
    mayApprove: role === 'approver',
    mayWatchApprovals: role === 'approver' || role === 'observer',
  };
}

/** Reading the approval queue is for approvers and observers; observers only look, they never answer. */
export function assertMayWatchApprovals(client: ClientIdentity, action: string): void {
  if (!permissionsOf(client.role).mayWatchApprovals)
    throw new StagegraphError(
      'APPROVAL_FORBIDDEN',
      `Client ${client.id} (${client.role}) may not ${action}.`,
    );
}

/** Approving is reserved to approvers; the check lives here so every caller states it the same way. */
export function assertApprover(client: ClientIdentity, action: string): void {
  if (client.role !== 'approver')
    throw new StagegraphError(
      'APPROVAL_FORBIDDEN',
      `Client ${client.id} (${client.role}) may not ${action}.`,
    );
}

function digestOf(grant: TokenGrant): Buffer {
  return grant.digest ?? sha256(grant.token);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
