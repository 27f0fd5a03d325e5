import { useEffect, useRef, useState } from 'preact/hooks';
import { ArtifactsPanel } from '../artifacts/artifacts-panel.js';
import type { GatewayClient } from '../gateway-client.js';
import { describeError, useSubscription } from '../gateway-hooks.js';
import {
  capabilityList,
  readSession,
  SESSION_EVENTS,
  type SessionSummary,
} from '../sessions/session-summary.js';
import { LiveView } from './live-view.js';
import { SnapshotViewer } from './snapshot-viewer.js';
import { StepTrace } from './step-trace.js';
import { Tails } from './tails.js';
import './session.css';
import { AppText } from '../app-text.js';
import { ErrorAlert } from '../error-text.js';
import { shownText } from '../shown-text.js';

/** One session: live view and outline of the window picked, the agent's steps, the session's streams. */
export function SessionView(props: { client: GatewayClient; sessionId: string }) {
  const { client, sessionId } = props;
  const [session, setSession] = useState<SessionSummary | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  // null follows the session's active window.
  const [windowId, setWindowId] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const refresh = () =>
    readSession(client, sessionId).then(
      (next) => {
        setSession(next);
        setProblem(null);
      },
      (error) => setProblem(describeError(error)),
    );
  useEffect(() => {
    void refresh();
    heading.current?.focus();
  }, [client, sessionId]);
  useSubscription(client, SESSION_EVENTS, { session: sessionId }, () => void refresh());

  const windows = session?.windows ?? [];
  const picked = windows.find((window) => window.id === windowId);
  const windowTitle = shownText(picked?.title || windows[0]?.title) || 'the active window';
  const live = session?.status === 'RUNNING' || session?.status === 'STARTING';

  return (
    <article aria-labelledby="session-heading" class="session-view">
      <p>
        <a href="#/sessions">← All sessions</a>
      </p>
      <h2 id="session-heading" tabIndex={-1} ref={heading}>
        Session <AppText text={sessionId} />
      </h2>
      <ErrorAlert error={problem} />
      {session === undefined ? <p>Reading the session…</p> : null}
      {session === null ? (
        <p>
          No session <AppText text={sessionId} /> on this gateway.
        </p>
      ) : null}
      {session ? (
        <>
          <dl class="session-facts">
            <dt>Status</dt>
            <dd>{session.status}</dd>
            <dt>App</dt>
            <dd>
              {session.app.name === null ? 'unknown' : <AppText text={session.app.name} />}
              {session.app.standIn ? ' (Electron stand-in)' : ''}
            </dd>
            <dt>Transport</dt>
            <dd>{session.transport}</dd>
            <dt>Capabilities</dt>
            <dd>{capabilityList(session.capabilities)}</dd>
          </dl>
          {live && windows.length > 0 ? (
            <p class="window-picker">
              <label for="window-picker">Window shown</label>
              <select
                id="window-picker"
                value={windowId ?? ''}
                onChange={(event) => setWindowId(event.currentTarget.value || null)}
              >
                <option value="">Active window</option>
                {windows.map((window) => (
                  <option key={window.id} value={window.id}>
                    {shownText(`${window.id}: ${window.title || window.url}`)}
                  </option>
                ))}
              </select>
            </p>
          ) : null}
          <div class="session-grid">
            {live && session.capabilities.SCREENSHOT ? (
              <LiveView client={client} sessionId={sessionId} windowId={windowId} windowTitle={windowTitle} />
            ) : null}
            {live && session.capabilities.SNAPSHOT ? (
              <SnapshotViewer client={client} sessionId={sessionId} windowId={windowId} />
            ) : null}
            <StepTrace client={client} sessionId={sessionId} />
            <Tails client={client} sessionId={sessionId} capabilities={session.capabilities} />
            <ArtifactsPanel client={client} sessionId={sessionId} />
          </div>
        </>
      ) : null}
    </article>
  );
}
