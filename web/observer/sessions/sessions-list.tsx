import { useEffect, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useCoalescedRead, useSubscription } from '../gateway-hooks.js';
import { sessionHref } from '../route.js';
import { ScrollRegion } from '../scroll-region.js';
import { capabilityList, readSessions, SESSION_EVENTS, type SessionSummary } from './session-summary.js';

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
      {problem ? (
        <p role="alert" class="error">
          <AppText text={problem} />
        </p>
      ) : null}
      {sessions === null ? (
        <p>Reading sessions…</p>
      ) : sessions.length === 0 ? (
        <p>No sessions yet. An agent starts one with launch, attach or inject.</p>
      ) : (
        <ScrollRegion label="Session table">
          <table class="sessions">
            <caption class="visually-hidden">Sessions, updated live</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Status</th>
                <th scope="col">App</th>
                <th scope="col">Transport</th>
                <th scope="col">Capabilities</th>
                <th scope="col">Windows</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id}>
                  <th scope="row">
                    <a href={sessionHref(session.id)}>Open session {session.id}</a>
                  </th>
                  <td>
                    <span class={`status status-${session.status.toLowerCase()}`}>{session.status}</span>
                  </td>
                  <td>
                    {session.app.name === null ? 'unknown' : <AppText text={session.app.name} />}
                    {session.app.standIn ? ' (Electron stand-in)' : ''}
                  </td>
                  <td>{session.transport}</td>
                  <td class="capabilities">{capabilityList(session.capabilities)}</td>
                  <td>
                    {session.windows.length === 0 ? (
                      'none'
                    ) : (
                      <ul class="plain">
                        {session.windows.map((window) => (
                          <li key={window.id}>
                            <AppText text={window.id} />: <AppText text={window.title || window.url} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
