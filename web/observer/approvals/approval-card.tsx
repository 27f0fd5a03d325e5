import { useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { ErrorText } from '../error-text.js';
import { FoundBy } from '../found-by.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';
import { shownText } from '../shown-text.js';
import type { ApprovalRequest } from './approval-queue.js';
import { Countdown } from './countdown.js';

const APPROVE = `mutation ObserverApprove($id: ID!, $scope: ApprovalScope) {
  approve(id: $id, scope: $scope) { status scope decidedBy reason waitedMs }
}`;
const DENY = `mutation ObserverDeny($id: ID!, $reason: String) {
  deny(id: $id, reason: $reason) { status scope decidedBy reason waitedMs }
}`;

interface ApprovalResult {
  status: string;
  scope: 'ONCE' | 'SESSION' | 'APP' | null;
  decidedBy: string;
  reason: string | null;
}

const SCOPE_WORDS: Record<NonNullable<ApprovalResult['scope']> | 'NONE', string> = {
  ONCE: ' once',
  SESSION: ' for this session',
  APP: ' for this app',
  NONE: '',
};

type Answer =
  | { state: 'idle' }
  | { state: 'sending' }
  | { state: 'done'; result: ApprovalResult }
  | { state: 'failed'; error: GatewayError };

/** What the request acts on, as its buttons name it: `click Submit` (controls shown as marks). */
export function describeRequest(request: ApprovalRequest): string {
  return shownText([request.operation, request.target?.name].filter(Boolean).join(' '));
}

/**
 * One pending approval with its evidence; the answer buttons only for a viewer who may approve. Each
 * control's accessible name says what it answers (`Approve once: click Submit`), since a page may show
 * several cards with the same buttons.
 */
export function ApprovalCard(props: {
  client: GatewayClient;
  request: ApprovalRequest;
  mayApprove: boolean;
}) {
  const { request } = props;
  const label = describeRequest(request);
  const headingId = `approval-${request.id}-heading`;
  return (
    <article class="approval-card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <AppText text={request.operation} />
        {request.target ? (
          <>
            {' '}
            <AppText text={request.target.role} /> “<AppText text={request.target.name} />”
          </>
        ) : null}
      </h3>
      <Countdown expiresAt={request.expiresAt} label={label} />
      <div class="approval-evidence">
        {request.screenshot ? (
          <img
            class="approval-crop"
            src={`data:${request.screenshot.mimeType};base64,${request.screenshot.base64}`}
            alt={shownText(
              `Element the agent wants to ${request.operation}: ${request.target?.role ?? ''} ${request.target?.name ?? ''}`.trim(),
            )}
          />
        ) : null}
        <dl class="approval-facts">
          <dt>Session</dt>
          <dd>
            {request.session ? (
              <>
                <AppText text={request.session.id} />
                {request.session.windowTitle ? (
                  <>
                    {' — '}
                    <AppText text={request.session.windowTitle} />
                  </>
                ) : null}
              </>
            ) : (
              'none'
            )}
          </dd>
          {request.target ? <TargetFacts target={request.target} /> : null}
          <dt>Rule</dt>
          <dd>
            <code>
              <AppText text={request.rule.id} />
            </code>{' '}
            <AppText text={request.rule.description} />
          </dd>
          <dt>Risk</dt>
          <dd class={`risk risk-${request.risk.toLowerCase()}`}>{request.risk}</dd>
          <dt>Requested by</dt>
          <dd>
            <AppText text={request.client.id} /> ({request.client.role.toLowerCase()}) at{' '}
            {new Date(request.requestedAt).toLocaleTimeString()}
          </dd>
          {request.reasons.length > 0 ? (
            <>
              <dt>Why asked</dt>
              <dd>
                <ul>
                  {request.reasons.map((reason) => (
                    <li key={reason}>
                      <AppText text={reason} />
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : null}
        </dl>
      </div>
      <details class="approval-args">
        <summary>Arguments</summary>
        <pre>
          <AppText text={prettyJson(request.args)} lines />
        </pre>
      </details>
      {props.mayApprove ? <AnswerControls client={props.client} request={request} label={label} /> : null}
    </article>
  );
}

function TargetFacts(props: { target: NonNullable<ApprovalRequest['target']> }) {
  const { target } = props;
  return (
    <>
      <dt>Target</dt>
      <dd>
        <AppText text={target.role} /> “<AppText text={target.name} />”{' '}
        <span class="muted">({target.kind.toLowerCase()})</span>
      </dd>
      {target.confidence ? (
        <>
          <dt>Found</dt>
          <dd>
            <FoundBy confidence={target.confidence} />
          </dd>
        </>
      ) : null}
      {target.bbox ? (
        <>
          <dt>Bounds</dt>
          <dd>
            {target.bbox.width}×{target.bbox.height} at ({target.bbox.x}, {target.bbox.y})
            {target.windowId ? (
              <>
                {' in '}
                <AppText text={target.windowId} />
              </>
            ) : null}
          </dd>
        </>
      ) : null}
      {target.path?.length ? (
        <>
          <dt>Path</dt>
          <dd>
            {target.path.map((step, index) => (
              // The path is fixed for the card's life: a step's place is its identity.
              <span key={index}>
                {index > 0 ? ' › ' : ''}
                <AppText text={step} />
              </span>
            ))}
          </dd>
        </>
      ) : null}
      {target.selector ? (
        <>
          <dt>Selector</dt>
          <dd>
            <code>
              <AppText text={target.selector} />
            </code>
          </dd>
        </>
      ) : null}
      {target.previewError ? (
        <>
          <dt>Not read before asking</dt>
          <dd>
            <AppText text={target.previewError} />
          </dd>
        </>
      ) : null}
    </>
  );
}

function AnswerControls(props: { client: GatewayClient; request: ApprovalRequest; label: string }) {
  const { client, request, label } = props;
  const [reason, setReason] = useState('');
  const [answer, setAnswer] = useState<Answer>({ state: 'idle' });
  const reasonId = `approval-${request.id}-reason`;
  const send = (document: string, variables: Record<string, unknown>, field: 'approve' | 'deny') => {
    setAnswer({ state: 'sending' });
    client.mutate<Record<typeof field, ApprovalResult>>(document, variables).then(
      (data) => setAnswer({ state: 'done', result: data[field] }),
      (error: GatewayError) => setAnswer({ state: 'failed', error }),
    );
  };
  const busy = answer.state === 'sending' || answer.state === 'done';
  return (
    <form
      class="approval-answer"
      onSubmit={(event) => {
        event.preventDefault();
        send(DENY, { id: request.id, reason: reason.trim() || null }, 'deny');
      }}
    >
      <div class="approval-buttons">
        <button
          type="button"
          class="approve"
          disabled={busy}
          aria-label={`Approve once: ${label}`}
          onClick={() => send(APPROVE, { id: request.id, scope: 'ONCE' }, 'approve')}
        >
          Approve once
        </button>
        <button
          type="button"
          class="approve"
          disabled={busy}
          aria-label={`Approve for session: ${label}`}
          onClick={() => send(APPROVE, { id: request.id, scope: 'SESSION' }, 'approve')}
        >
          Approve for session
        </button>
        <button
          type="button"
          class="approve"
          disabled={busy}
          aria-label={`Approve for this app: ${label}`}
          onClick={() => send(APPROVE, { id: request.id, scope: 'APP' }, 'approve')}
        >
          Approve for this app
        </button>
      </div>
      <div class="approval-deny">
        <label for={reasonId}>Reason for denying</label>
        <input
          id={reasonId}
          aria-label={`Reason for denying ${label}`}
          type="text"
          value={reason}
          disabled={busy}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
        <button type="submit" class="deny" disabled={busy} aria-label={`Deny: ${label}`}>
          Deny
        </button>
      </div>
      <p class="approval-result" role="status">
        <AnswerText answer={answer} />
      </p>
    </form>
  );
}

function AnswerText(props: { answer: Answer }) {
  const { answer } = props;
  if (answer.state === 'sending') return <>Sending…</>;
  if (answer.state === 'done') {
    const { result } = answer;
    const how = SCOPE_WORDS[result.scope ?? 'NONE'];
    return (
      <>
        {result.status === 'APPROVED' ? 'Approved' : 'Denied'}
        {how} by <AppText text={result.decidedBy} />
        {result.reason ? (
          <>
            : <AppText text={result.reason} />
          </>
        ) : null}
        .
      </>
    );
  }
  if (answer.state === 'failed') return <ErrorText error={answer.error} />;
  return null;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
