import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from './helpers/fixture-session.js';
import type { Subscription } from './helpers/gateway.js';
import {
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  OBSERVER_TOKEN,
  startGovernedRun,
  type TokenClient,
  tokenClient,
} from './helpers/governed-gateway.js';

const APPROVAL_EVENTS = `subscription { approvalRequests { state decidedBy reason
  request { id operation target { role name } } } }`;
const CLICK_DELETE = 'mutation { click(target: { testId: "delete-account" }) { target { name } } }';
const VIEWER = 'query { viewer { id role mayAct mayApprove mayWatchApprovals } }';

let run: GovernedRun;
let observer: TokenClient;

beforeAll(async () => {
  run = await startGovernedRun({ observerToken: OBSERVER_TOKEN, approvalTimeoutMs: 60_000 });
  observer = tokenClient(run.gateway, OBSERVER_TOKEN);
});
afterAll(async () => {
  await observer?.ws.dispose();
  await run?.stop();
  await run?.cleanup();
});

describe('the observer role: reads and watches, never acts', () => {
  it('viewer tells each token what it may do', async () => {
    expect((await observer.data(VIEWER)).viewer).toMatchObject({
      role: 'OBSERVER',
      mayAct: false,
      mayApprove: false,
      mayWatchApprovals: true,
    });
    expect((await run.agent.data(VIEWER)).viewer).toMatchObject({
      role: 'AGENT',
      mayAct: true,
      mayApprove: false,
    });
    expect((await run.approver.data(VIEWER)).viewer).toMatchObject({ role: 'APPROVER', mayApprove: true });
  });

  it('reads sessions and streams their events', async () => {
    const { sessions } = await observer.data('query { sessions { id status windows { title } } }');
    expect(sessions).toContainEqual(expect.objectContaining({ id: run.sessionId, status: 'RUNNING' }));
    const consoleLines = observer.watch(
      `subscription { console(session: "${run.sessionId}", replay: true) { entry { text } } }`,
    );
    try {
      await run.agent.data('mutation { click(target: { testId: "log" }) { target { name } } }');
      await consoleLines.waitFor((value) => value.console.entry.text === 'fixture: button clicked');
    } finally {
      consoleLines.dispose();
    }
  });

  it('every mutation is refused with ROLE_FORBIDDEN and audited, and the app is untouched', async () => {
    const refused = await observer.failure(
      'mutation { fill(target: { testId: "name" }, value: "observer was here") { target { name } } }',
    );
    expect(refused).toMatchObject({
      code: 'ROLE_FORBIDDEN',
      hint: expect.stringContaining('--observer-token'),
    });
    expect((await observer.failure('mutation { stop(id: "s1") { id } }')).code).toBe('ROLE_FORBIDDEN');
    const { audit } = await run.agent.data(
      'query { audit(filter: { outcomes: [DENIED] }) { edges { node { operation errorCode rule { id } client { role } } } } }',
    );
    expect(audit.edges.map((edge: Loose) => edge.node)).toEqual(
      expect.arrayContaining([
        {
          operation: 'fill',
          errorCode: 'ROLE_FORBIDDEN',
          rule: { id: 'built-in:observers-only-read' },
          client: { role: 'OBSERVER' },
        },
      ]),
    );
    const { session } = await run.agent.data(`query { session(id: "${run.sessionId}") { status } }`);
    expect(session.status).toBe('RUNNING');
  });

  it('an observer watching does not make an ASK wait: with no approver, it fails fast', async () => {
    const looking = observer.watch(APPROVAL_EVENTS);
    try {
      expect(run.gateway.gateway.governance?.broker.approverCount).toBe(0);
      expect((await run.agent.failure(CLICK_DELETE)).code).toBe('APPROVAL_UNAVAILABLE');
    } finally {
      looking.dispose();
    }
  });

  it('sees the pending approval an approver is asked, cannot answer it, and sees how it was settled', async () => {
    const approvals: Subscription<Loose> = run.approver.watch(APPROVAL_EVENTS);
    const looking = observer.watch(APPROVAL_EVENTS);
    try {
      await approversWatching(run, 1);
      const click = run.agent.send(CLICK_DELETE);
      const request = await nextPendingApproval(approvals, new Set());
      await looking.waitFor(
        (value) =>
          value.approvalRequests.state === 'PENDING' && value.approvalRequests.request.id === request.id,
      );
      expect((await observer.data('query { pendingApprovals { id operation } }')).pendingApprovals).toEqual([
        { id: request.id, operation: 'click' },
      ]);
      const forged = await observer.failure(`mutation { approve(id: "${request.id}") { status } }`);
      expect(forged.code).toBe('ROLE_FORBIDDEN');
      expect((await observer.data('query { pendingApprovals { id } }')).pendingApprovals).toHaveLength(1);
      await run.approver.data(`mutation { approve(id: "${request.id}") { status } }`);
      const answer = await click;
      expect(answer.errors).toBeUndefined();
      expect(answer.data.click.target.name).toBe('Delete account');
      await looking.waitFor(
        (value) =>
          value.approvalRequests.state === 'APPROVED' && value.approvalRequests.request.id === request.id,
      );
    } finally {
      approvals.dispose();
      looking.dispose();
    }
  });
});
