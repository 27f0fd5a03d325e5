import type { GatewayClient } from '../gateway-client.js';

/** The capability flags the page reads: what each session view can show. */
export interface Capabilities {
  CONSOLE: boolean;
  DIALOGS: boolean;
  INTERCEPT: boolean;
  NATIVE_UI: boolean;
  MAIN_EVAL: boolean;
  SCREENSHOT: boolean;
  SNAPSHOT: boolean;
  WINDOWS: boolean;
  INTERACTION: boolean;
}

export interface WindowSummary {
  id: string;
  title: string;
  url: string;
}

export interface SessionSummary {
  id: string;
  status: string;
  transport: string;
  app: { name: string | null; standIn: boolean };
  capabilities: Capabilities;
  windows: WindowSummary[];
  /** The id of the replica that owns it (cluster mode); null on a gateway without a cluster. */
  replica: string | null;
}

/** One replica of a cluster, as its lease says. */
export interface ReplicaSummary {
  id: string;
  url: string;
  status: string;
  sessions: number;
  lastSeen: string;
  self: boolean;
}

/** What the sessions page shows: every replica (none without a cluster) and every session. */
export interface SessionsView {
  replicas: ReplicaSummary[];
  sessions: SessionSummary[];
}

type SessionDetail = Omit<SessionSummary, 'windows' | 'replica'> & { replica: { id: string } | null };

const SESSION_FIELDS = `id status transport app { name standIn }
  capabilities { CONSOLE DIALOGS INTERCEPT NATIVE_UI MAIN_EVAL SCREENSHOT SNAPSHOT WINDOWS INTERACTION }`;
/**
 * Only what the cluster directory answers for any replica's session: the rest is read per session by id,
 * which is answered by (forwarded to) its owner.
 */
const SESSIONS = `query ObserverSessions { replicas { id url status sessions lastSeen self }
  sessions { id status transport replica { id } } }`;
const SESSION = `query ObserverSession($id: ID!) { session(id: $id) { ${SESSION_FIELDS} replica { id } } }`;
const WINDOWS = 'query ObserverWindows($id: ID!) { session(id: $id) { windows { id title url } } }';

const LIVE = new Set(['STARTING', 'RUNNING']);
/** What a session the page cannot ask (a LOST one) is shown holding. */
export const NO_CAPABILITIES: Capabilities = {
  CONSOLE: false,
  DIALOGS: false,
  INTERCEPT: false,
  NATIVE_UI: false,
  MAIN_EVAL: false,
  SCREENSHOT: false,
  SNAPSHOT: false,
  WINDOWS: false,
  INTERACTION: false,
};

/**
 * Windows are read per session, and only where the session is live and lists windows: one session that
 * cannot answer them must not blank the whole list.
 */
async function withWindows(
  client: GatewayClient,
  session: Omit<SessionSummary, 'windows'>,
): Promise<SessionSummary> {
  if (!LIVE.has(session.status) || !session.capabilities.WINDOWS) return { ...session, windows: [] };
  try {
    const data = await client.query<{ session: { windows: WindowSummary[] } | null }>(WINDOWS, {
      id: session.id,
    });
    return { ...session, windows: data.session?.windows ?? [] };
  } catch {
    return { ...session, windows: [] };
  }
}

/** Read over the page's socket; a cluster's gateway sends a read of another replica's session to its owner. */
export async function readSession(client: GatewayClient, id: string): Promise<SessionSummary | null> {
  const { session } = await client.query<{ session: SessionDetail | null }>(SESSION, { id });
  return session ? withWindows(client, { ...session, replica: session.replica?.id ?? null }) : null;
}

interface ListedSession {
  id: string;
  status: string;
  transport: string;
  replica: { id: string } | null;
}

/**
 * A session's details, read by id — another replica's from its owner, since only the owner knows them; a
 * LOST session (its replica is gone) and one that no longer answers show what the directory knows, so one
 * of them cannot blank the list.
 */
async function detailed(client: GatewayClient, listed: ListedSession): Promise<SessionSummary> {
  const replica = listed.replica?.id ?? null;
  const known = { ...listed, replica, app: { name: null, standIn: false }, capabilities: NO_CAPABILITIES };
  if (listed.status === 'LOST') return { ...known, windows: [] };
  try {
    return (await readSession(client, listed.id)) ?? { ...known, windows: [] };
  } catch {
    return { ...known, windows: [] };
  }
}

export async function readSessions(client: GatewayClient): Promise<SessionsView> {
  const { replicas, sessions } = await client.query<{
    replicas: ReplicaSummary[];
    sessions: ListedSession[];
  }>(SESSIONS);
  return {
    replicas,
    sessions: await Promise.all(sessions.map((session) => detailed(client, session))),
  };
}

export function capabilityList(capabilities: Capabilities): string {
  const held = Object.entries(capabilities)
    .filter(([, held]) => held)
    .map(([name]) => name);
  return held.length > 0 ? held.join(', ') : 'none';
}

export const SESSION_EVENTS =
  'subscription ObserverSessionEvents($session: ID) { sessionEvents(session: $session) { type sessionId droppedBefore } }';
