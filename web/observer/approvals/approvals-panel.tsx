import { useEffect, useState } from 'preact/hooks';
import type { GatewayClient, Viewer } from '../gateway-client.js';
import { ApprovalCard, describeRequest } from './approval-card.js';
import { type SettledApproval, useApprovalQueue } from './approval-queue.js';
import { beep, unlockSound, useTitleBadge } from './arrival-notice.js';
import { publishPendingApprovalCount } from './pending-count.js';
import './approvals.css';
import { AppText } from '../app-text.js';
import { ErrorAlert } from '../error-text.js';
import { shownText } from '../shown-text.js';

export { usePendingApprovalCount } from './pending-count.js';

/**
 * The approval queue: every pending request with its evidence and a countdown, answer buttons for
 * approvers, and a title badge (and an optional beep) when one arrives.
 */
export function ApprovalsPanel(props: { client: GatewayClient; viewer: Viewer }) {
  const { client, viewer } = props;
  const [sound, setSound] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const queue = useApprovalQueue(client, (request) => {
    setAnnouncement(`New approval request: ${describeRequest(request)}`);
    if (sound) beep();
  });
  const count = queue.pending.length;
  useTitleBadge(count);
  useEffect(() => publishPendingApprovalCount(count), [count]);
  useEffect(() => () => publishPendingApprovalCount(0), []);
  const latest = queue.settled[0];
  useEffect(() => {
    if (latest) setAnnouncement(settledText(latest));
  }, [latest]);

  return (
    <section class="approvals-panel" aria-labelledby="approvals-heading">
      <header class="panel-header">
        <h2 id="approvals-heading">
          Approvals <span class="count">({count} pending)</span>
        </h2>
        <label class="sound-toggle">
          <input
            type="checkbox"
            checked={sound}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              if (on) unlockSound();
              setSound(on);
            }}
          />{' '}
          Sound on new approval
        </label>
      </header>
      <p class="visually-hidden" role="status">
        {announcement}
      </p>
      {queue.forbidden ? (
        <p class="notice">Approvers only: this token may not see approval requests.</p>
      ) : (
        <>
          {!viewer.mayApprove ? (
            <p class="notice">
              You are signed in as {viewer.role.toLowerCase()}: you see requests but cannot answer them.
            </p>
          ) : null}
          <ErrorAlert error={queue.error} />
          {queue.dropped > 0 ? (
            <p class="notice">
              {queue.dropped} approval events were dropped because this page read too slowly.
            </p>
          ) : null}
          {count === 0 ? <p class="empty">No approval is waiting.</p> : null}
          <ol class="approval-queue" aria-label="Pending approvals, oldest first">
            {queue.pending.map((request) => (
              <li key={request.id}>
                <ApprovalCard client={client} request={request} mayApprove={viewer.mayApprove} />
              </li>
            ))}
          </ol>
          {queue.settled.length > 0 ? (
            <section class="approvals-settled" aria-labelledby="approvals-settled-heading">
              <h3 id="approvals-settled-heading">Recently settled</h3>
              <ul>
                {queue.settled.map((settled) => (
                  <li key={settled.request.id} class={`settled settled-${settled.state.toLowerCase()}`}>
                    <AppText text={settledText(settled)} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </section>
  );
}

function settledText(settled: SettledApproval): string {
  const what = describeRequest(settled.request);
  const state = settled.state.toLowerCase().replace('_', ' ');
  const who = settled.decidedBy ? ` by ${shownText(settled.decidedBy)}` : '';
  const why = settled.reason ? `: ${shownText(settled.reason)}` : '';
  return `${what} — ${state}${who}${why}`;
}
