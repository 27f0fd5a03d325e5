import type { BridgeTool } from './tool.js';
import { failure, text } from './tool.js';

/** Only what the cluster directory answers for any replica's session: it lists every replica's at once. */
export const SESSIONS = `query Sessions { replicas { id url status sessions lastSeen self }
  sessions { id status transport replica { id } } }`;

interface ListedReplica {
  id: string;
  url: string;
  status: string;
  sessions: number;
  lastSeen: string;
  self: boolean;
}

interface ListedSession {
  id: string;
  status: string;
  transport: string;
  replica: { id: string } | null;
}

/** The sessions, one line each; in a cluster under the replica that owns them, with its lease's health. */
export const sessionsTool: BridgeTool = {
  name: 'sessions',
  description:
    'List sessions (id, status, transport). In a cluster: each replica (id, status, url, last seen) with its sessions; any session works from here, and open takes a replica.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async run(_args, { link }) {
    const answer = await link.execute(SESSIONS);
    if (!answer.data || answer.errors?.length)
      return failure(answer.errors ?? [{ message: 'sessions answered nothing.' }]);
    return text(describeSessions(answer.data.replicas, answer.data.sessions));
  },
};

/** Without a cluster (no replicas), the plain list; with one, a block per replica, owners no longer listed last. */
export function describeSessions(
  replicas: readonly ListedReplica[],
  sessions: readonly ListedSession[],
): string {
  const line = (session: ListedSession) => `  ${session.id} ${session.status} ${session.transport}`;
  if (replicas.length === 0)
    return sessions.length === 0
      ? 'No sessions: call open.'
      : ['sessions:', ...sessions.map(line)].join('\n');
  const known = new Set(replicas.map((replica) => replica.id));
  const blocks = replicas.map((replica) => {
    const own = sessions.filter((session) => session.replica?.id === replica.id);
    const head = `replica ${replica.id}${replica.self ? ' (this one)' : ''} ${replica.status} ${replica.url} last seen ${replica.lastSeen}`;
    return [head, ...(own.length === 0 ? ['  (no sessions)'] : own.map(line))].join('\n');
  });
  const unlisted = sessions.filter((session) => !known.has(session.replica?.id ?? ''));
  if (unlisted.length > 0) blocks.push(['replica not listed any more:', ...unlisted.map(line)].join('\n'));
  return blocks.join('\n');
}
