import { StagegraphError } from '../../errors/stagegraph-error.js';
import { ClientShares, type Release } from '../bounded/client-shares.js';
import type { Session } from './session.js';
import type { SessionRegistry } from './session-registry.js';

/**
 * Sessions live or starting at once, in all. Each is an app's process tree (an Electron app or a
 * Chromium, a desktop app) or a DevTools connection on this host; far more than the host can run.
 */
export const MAX_LIVE_SESSIONS = 128;
/**
 * Sessions one client may have live or starting at once: a quarter of the server's, so that one agent
 * that never stops what it launches leaves room for the others. Twenty concurrent launches (the launch
 * storm of test/faults) fit. A client is its token: a session outlives the connection that launched it,
 * so anonymous-loopback clients (no tokens) share one share.
 */
export const MAX_SESSIONS_PER_CLIENT = MAX_LIVE_SESSIONS / 4;

/**
 * Holds the sessions clients create to the server's limit and to each client's share, from the moment
 * the creation starts until the session is no longer live.
 */
export class SessionShares {
  readonly #clients = new ClientShares('sessions', MAX_SESSIONS_PER_CLIENT, MAX_LIVE_SESSIONS);
  /** Live sessions and their charge to the client that created them. */
  readonly #live = new Map<Session, Release>();
  #starting = 0;

  /** Runs `create` as a session of `client` (its id), or throws SESSION_LIMIT or CLIENT_LIMIT first. */
  async create(client: string, create: () => Promise<Session>): Promise<Session> {
    this.#forgetEnded();
    if (this.#live.size + this.#starting >= MAX_LIVE_SESSIONS)
      throw new StagegraphError(
        'SESSION_LIMIT',
        `This server already runs or starts ${MAX_LIVE_SESSIONS} sessions.`,
        { nextActions: ['query { sessions { id status app { name } } }'] },
      );
    const release = this.#clients.take([client]);
    this.#starting += 1;
    try {
      const session = await create();
      if (session.isLive) this.#live.set(session, release);
      else release();
      return session;
    } catch (error) {
      release();
      throw error;
    } finally {
      this.#starting -= 1;
    }
  }

  /** Sessions end on their own (the app exits, the client stops them): their charge ends when next asked. */
  #forgetEnded(): void {
    for (const [session, release] of this.#live) {
      if (session.isLive) continue;
      release();
      this.#live.delete(session);
    }
  }
}

/** Each registry's shares, beside it (weakly: gone with the registry). */
const sharesOf = new WeakMap<SessionRegistry, SessionShares>();

/**
 * Creates a session of `registry` as a client's (`create` calls launch, attach, inject, launchCommand,
 * launchDesktop or attachDesktop): held to the server's limit and the client's share while it is live.
 */
export function createSessionFor(
  registry: SessionRegistry,
  clientId: string,
  create: () => Promise<Session>,
): Promise<Session> {
  const shares = sharesOf.get(registry) ?? new SessionShares();
  sharesOf.set(registry, shares);
  return shares.create(clientId, create);
}
