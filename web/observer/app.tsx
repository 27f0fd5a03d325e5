import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AppText } from './app-text.js';
import { keepingApprovalEvidence } from './approval-evidence.js';
import { ApprovalsPanel, usePendingApprovalCount } from './approvals/approvals-panel.js';
import { AuditPanel } from './audit/audit-panel.js';
import {
  type ConnectionState,
  createGatewayClient,
  type GatewayError,
  type ObservedGatewayClient,
  type Viewer,
} from './gateway-client.js';
import { describeError } from './gateway-hooks.js';
import { type Route, useRoute } from './route.js';
import { SessionView } from './session/session-view.js';
import { SessionsList } from './sessions/sessions-list.js';
import { type Credentials, SignIn } from './sign-in.js';

const VIEWER = 'query Viewer { viewer { id role mayAct mayApprove } }';

/**
 * Signed in or not: the sign-in form, or the console over one client for that sign-in.
 *
 * The token lives in this component's memory only, never in web storage or a cookie: this page may be
 * open in a browser an agent attached to (the user's own), and whatever a page keeps where the browser
 * keeps it a DevTools client can read — sessionStorage, localStorage and cookies alike, HttpOnly ones
 * included (`Network.getAllCookies` lists them), and an HttpOnly cookie would also ride along with every
 * request the browser sends to this host from any port. The gateway refuses every operation on its own
 * pages (domain/governance/own-pages/own-pages.ts); keeping nothing there is the second wall. A reload
 * signs out.
 */
export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  if (!credentials)
    return (
      <SignIn
        problem={problem}
        onSignIn={(next) => {
          setProblem(undefined);
          setCredentials(next);
        }}
      />
    );
  const signOut = (why?: string) => {
    setProblem(why);
    setCredentials(null);
  };
  return <Console credentials={credentials} onSignOut={signOut} />;
}

function Console(props: { credentials: Credentials; onSignOut(why?: string): void }) {
  const { credentials } = props;
  // The client lives as long as the sign-in; a new sign-out callback must not end it.
  const signOutRef = useRef(props.onSignOut);
  signOutRef.current = props.onSignOut;
  const onSignOut = (why?: string) => signOutRef.current(why);
  const client = useMemo(() => createGatewayClient({ token: credentials.token }), [credentials]);
  const approvalsClient = useMemo(() => keepingApprovalEvidence(client), [client]);
  const [connection, setConnection] = useState<ConnectionState>(client.state);
  const [viewer, setViewer] = useState<{ viewer: Viewer; problem?: string } | null>(null);
  const route = useRoute();

  useEffect(() => {
    const stop = client.onStateChange((state) => {
      setConnection(state);
      if (state === 'refused') onSignOut('The gateway refused this sign-in: check the token.');
    });
    return () => {
      stop();
      client.close();
    };
  }, [client]);

  useEffect(() => {
    client.query<{ viewer: Viewer }>(VIEWER).then(
      (data) => setViewer({ viewer: data.viewer }),
      (error: GatewayError) => {
        if (error.code === 'UNAUTHENTICATED') onSignOut(describeError(error));
        // A gateway without `viewer` still serves reads: shown as the least a client may do.
        else setViewer({ viewer: UNKNOWN_VIEWER, problem: describeError(error) });
      },
    );
  }, [client]);

  return (
    <div class="console">
      <header class="banner">
        <h1>Stagegraph observer</h1>
        <p class="viewer" aria-live="polite">
          {viewer ? <ViewerSummary viewer={viewer.viewer} problem={viewer.problem} /> : 'Signing in…'}
        </p>
        <p class={`connection connection-${connection}`} role="status">
          Connection: {CONNECTION_LABELS[connection]}
        </p>
        {viewer && (viewer.viewer.mayApprove || viewer.viewer.role === 'OBSERVER') ? <PendingBadge /> : null}
        <button type="button" onClick={() => onSignOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Sections" class="sections">
        <NavLink href="#/sessions" current={route.name === 'sessions' || route.name === 'session'}>
          Sessions
        </NavLink>
        <NavLink href="#/approvals" current={route.name === 'approvals'}>
          Approvals
        </NavLink>
        <NavLink href="#/audit" current={route.name === 'audit'}>
          Audit
        </NavLink>
      </nav>
      <main id="main">
        {viewer ? (
          <>
            {/* Mounted on every page: its one approvalRequests stream keeps the count, title badge and sound. */}
            <div hidden={route.name !== 'approvals'}>
              <ApprovalsPanel client={approvalsClient} viewer={viewer.viewer} />
            </div>
            <Page route={route} client={client} viewer={viewer.viewer} />
          </>
        ) : null}
      </main>
    </div>
  );
}

function Page(props: { route: Route; client: ObservedGatewayClient; viewer: Viewer }) {
  const { route, client, viewer } = props;
  switch (route.name) {
    case 'session':
      return <SessionView key={route.sessionId} client={client} sessionId={route.sessionId} />;
    case 'approvals':
      return null;
    case 'audit':
      return <AuditPanel client={client} viewer={viewer} />;
    default:
      return <SessionsList client={client} />;
  }
}

/** The header's count of approvals waiting, as the approvals panel keeps it. */
function PendingBadge() {
  const pending = usePendingApprovalCount();
  return (
    <a class={`badge${pending > 0 ? ' badge-pending' : ''}`} href="#/approvals">
      {pending} pending approval{pending === 1 ? '' : 's'}
    </a>
  );
}

function NavLink(props: { href: string; current: boolean; children: string }) {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}

const UNKNOWN_VIEWER: Viewer = { id: 'unknown', role: 'OBSERVER', mayAct: false, mayApprove: false };

const ROLE_LABELS: Record<Viewer['role'], string> = {
  AGENT: 'Agent',
  APPROVER: 'Approver',
  OBSERVER: 'Observer',
  ANONYMOUS_LOOPBACK: 'Anonymous (loopback)',
};

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'reconnecting…',
  refused: 'refused',
  closed: 'closed',
};

function ViewerSummary(props: { viewer: Viewer; problem?: string | undefined }) {
  const { viewer, problem } = props;
  if (problem)
    return (
      <>
        Role unknown (the gateway did not say: <AppText text={problem} />
        ); shown as read-only.
      </>
    );
  const may = [
    'read and watch',
    ...(viewer.mayAct ? ['act'] : []),
    ...(viewer.mayApprove ? ['approve'] : []),
  ];
  return (
    <>
      Signed in as <strong>{ROLE_LABELS[viewer.role]}</strong> (<AppText text={viewer.id} />
      ): may {may.join(', ')}.
    </>
  );
}
