import { useEffect, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { type Column, DataTable } from '../data-table.js';
import { ErrorAlert } from '../error-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useCoalescedRead, useSubscription } from '../gateway-hooks.js';
import { sessionHref } from '../route.js';
import { groupByReplica, replicaLabel } from './replica-groups.js';
import { ReplicasPanel } from './replicas-panel.js';
import {
  capabilityList,
  readSessions,
  SESSION_EVENTS,
  type SessionSummary,
  type SessionsView,
} from './session-summary.js';

/**
 * How often a cluster's page reads the replicas and sessions again: `sessionEvents` reports this
 * replica's sessions only, and a replica's health changes with no event at all. The default lease renewal.
 */
const CLUSTER_READ_EVERY_MS = 2_000;

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

/**
 * Every session, read again whenever `sessionEvents` reports a change; in cluster mode also every few
 * seconds, with the replicas above and the sessions grouped by the replica that owns them.
 */
export function SessionsList(props: { client: GatewayClient }) {
  const { client } = props;
  const [view, setView] = useState<SessionsView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCoalescedRead(
    () => readSessions(client),
    (next) => {
      setView(next);
      setProblem(null);
    },
    (error) => setProblem(describeError(error)),
  );

  useEffect(refresh, [client]);
  useSubscription(client, SESSION_EVENTS, {}, refresh, (error) => setProblem(describeError(error)));
  const clustered = (view?.replicas.length ?? 0) > 0;
  useEffect(() => {
    if (!clustered) return;
    const timer = setInterval(refresh, CLUSTER_READ_EVERY_MS);
    return () => clearInterval(timer);
  }, [clustered, refresh]);

  return (
    <>
      {view && clustered ? <ReplicasPanel replicas={view.replicas} /> : null}
      <section aria-labelledby="sessions-heading" class="panel">
        <h2 id="sessions-heading">Sessions</h2>
        <ErrorAlert error={problem} />
        {view === null ? (
          <p>Reading sessions…</p>
        ) : view.sessions.length === 0 ? (
          <p>No sessions yet. An agent starts one with launch, attach or inject.</p>
        ) : clustered ? (
          groupByReplica(view).map((group) => (
            <section key={group.id} aria-label={`Sessions on ${replicaLabel(group)}`}>
              <h3>{replicaLabel(group)}</h3>
              <SessionTable sessions={group.sessions} label={`Session table of replica ${group.id}`} />
            </section>
          ))
        ) : (
          <SessionTable sessions={view.sessions} label="Session table" />
        )}
      </section>
    </>
  );
}

function SessionTable(props: { sessions: SessionSummary[]; label: string }) {
  return (
    <DataTable
      label={props.label}
      caption="Sessions, updated live"
      captionClass="visually-hidden"
      columns={COLUMNS}
      rows={props.sessions}
      rowKey={(session) => session.id}
    />
  );
}
