import { useEffect, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { type Column, DataTable } from '../data-table.js';
import { ErrorAlert } from '../error-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useCoalescedRead, useSubscription } from '../gateway-hooks.js';
import { sessionHref } from '../route.js';
import { capabilityList, readSessions, SESSION_EVENTS, type SessionSummary } from './session-summary.js';

const COLUMNS: readonly Column<SessionSummary>[] = [
  {
    header: 'Session',
    rowHeader: true,
    cell: (session) => <a href={sessionHref(session.id)}>Open session {session.id}</a>,
  },
  {
    header: 'Status',
    cell: (session) => <span class={`status status-${session.status.toLowerCase()}`}>{session.status}</span>,
  },
  {
    header: 'App',
    cell: ({ app }) => (
      <>
        {app.name === null ? 'unknown' : <AppText text={app.name} />}
        {app.standIn ? ' (Electron stand-in)' : ''}
      </>
    ),
  },
  { header: 'Transport', cell: (session) => session.transport },
  { header: 'Capabilities', class: 'capabilities', cell: (session) => capabilityList(session.capabilities) },
  {
    header: 'Windows',
    cell: ({ windows }) =>
      windows.length === 0 ? (
        'none'
      ) : (
        <ul class="plain">
          {windows.map((window) => (
            <li key={window.id}>
              <AppText text={window.id} />: <AppText text={window.title || window.url} />
            </li>
          ))}
        </ul>
      ),
  },
];

/** Every session, read again whenever `sessionEvents` reports a change. */
export function SessionsList(props: { client: GatewayClient }) {
  const { client } = props;
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCoalescedRead(
    () => readSessions(client),
    (next) => {
      setSessions(next);
      setProblem(null);
    },
    (error) => setProblem(describeError(error)),
  );

  useEffect(refresh, [client]);
  useSubscription(client, SESSION_EVENTS, {}, refresh, (error) => setProblem(describeError(error)));

  return (
    <section aria-labelledby="sessions-heading" class="panel">
      <h2 id="sessions-heading">Sessions</h2>
      <ErrorAlert error={problem} />
      {sessions === null ? (
        <p>Reading sessions…</p>
      ) : sessions.length === 0 ? (
        <p>No sessions yet. An agent starts one with launch, attach or inject.</p>
      ) : (
        <DataTable
          label="Session table"
          caption="Sessions, updated live"
          captionClass="visually-hidden"
          columns={COLUMNS}
          rows={sessions}
          rowKey={(session) => session.id}
        />
      )}
    </section>
  );
}
