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
}

const SESSION_FIELDS = `id status transport app { name standIn }
  capabilities { CONSOLE DIALOGS INTERCEPT NATIVE_UI MAIN_EVAL SCREENSHOT SNAPSHOT WINDOWS INTERACTION }`;
const SESSIONS = `query ObserverSessions { sessions { ${SESSION_FIELDS} } }`;
const SESSION = `query ObserverSession($id: ID!) { session(id: $id) { ${SESSION_FIELDS} } }`;
const WINDOWS = 'query ObserverWindows($id: ID!) { session(id: $id) { windows { id title url } } }';

const LIVE = new Set(['STARTING', 'RUNNING']);

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

export async function readSessions(client: GatewayClient): Promise<SessionSummary[]> {
  const { sessions } = await client.query<{ sessions: Omit<SessionSummary, 'windows'>[] }>(SESSIONS);
  return Promise.all(sessions.map((session) => withWindows(client, session)));
}

export async function readSession(client: GatewayClient, id: string): Promise<SessionSummary | null> {
  const { session } = await client.query<{ session: Omit<SessionSummary, 'windows'> | null }>(SESSION, {
    id,
  });
  return session ? withWindows(client, session) : null;
}

export function capabilityList(capabilities: Capabilities): string {
  const held = Object.entries(capabilities)
    .filter(([, held]) => held)
    .map(([name]) => name);
  return held.length > 0 ? held.join(', ') : 'none';
}

export const SESSION_EVENTS =
  'subscription ObserverSessionEvents($session: ID) { sessionEvents(session: $session) { type sessionId droppedBefore } }';
