import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientIdentity } from '../clients/client-identity.js';
import { Redactor } from '../redaction/redaction.js';
import {
  ApprovalBroker,
  clampApprovalTimeout,
  MAX_APPROVAL_TIMEOUT_MS,
  MAX_PENDING_APPROVALS,
  MAX_PENDING_APPROVALS_PER_CLIENT,
} from './approval-broker.js';
import type { ApprovalAsk } from './approval-request.js';

const AGENT: ClientIdentity = { id: 'agent-1', role: 'agent' };
const APPROVER: ClientIdentity = { id: 'approver-1', role: 'approver' };
const redactor = new Redactor();
const target = redactor.redact({
  kind: 'element' as const,
  role: 'button',
  name: 'Delete account',
  bbox: { x: 1, y: 2, width: 3, height: 4 },
});

const ask = (overrides: Partial<ApprovalAsk> = {}): ApprovalAsk => ({
  client: AGENT,
  operation: 'click',
  session: { id: 's1' },
  target,
  args: redactor.redact({ target: { ref: 'e4' } }),
  risk: 'HIGH',
  rule: { id: 'default:HIGH', index: null, description: 'high risk asks' },
  reasons: ['click on button "Delete account"'],
  nonInteractive: 'FAIL',
  screenshot: Promise.resolve(null),
  ...overrides,
});

describe('ApprovalBroker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('publishes the request to observers and resumes on approve', async () => {
    const broker = new ApprovalBroker();
    const stream = broker.subscribe(APPROVER);
    const pending = broker.request(ask(), 10_000);
    const seen = (await stream.next()).value!.event;
    expect(seen).toMatchObject({
      state: 'PENDING',
      request: { operation: 'click', target: { name: 'Delete account' } },
    });
    expect(broker.pending(APPROVER).map((request) => request.id)).toEqual([seen.request.id]);
    broker.approve(seen.request.id, 'ONCE', APPROVER);
    await expect(pending).resolves.toMatchObject({
      status: 'APPROVED',
      scope: 'ONCE',
      decidedBy: 'approver-1',
    });
    expect((await stream.next()).value!.event).toMatchObject({ state: 'APPROVED', decidedBy: 'approver-1' });
    expect(broker.pending(APPROVER)).toEqual([]);
    broker.closeAll();
  });

  it('deny resolves DENIED with the reason; unknown ids are APPROVAL_NOT_FOUND', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    const pending = broker.request(ask());
    const [request] = broker.pending(APPROVER);
    broker.deny(request!.id, 'not on prod', APPROVER);
    await expect(pending).resolves.toMatchObject({ status: 'DENIED', reason: 'not on prod' });
    expect(() => broker.approve(request!.id, 'ONCE', APPROVER)).toThrow(
      expect.objectContaining({ code: 'APPROVAL_NOT_FOUND' }),
    );
    broker.closeAll();
  });

  it('SESSION scope lets the same session, operation, target and rule through at once, and no other', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    const first = broker.request(ask());
    broker.approve(broker.pending(APPROVER)[0]!.id, 'SESSION', APPROVER);
    await first;
    await expect(broker.request(ask())).resolves.toMatchObject({
      status: 'APPROVED',
      decidedBy: 'session-grant',
    });
    void broker.request(ask({ session: { id: 's2' } })).catch(() => undefined);
    void broker.request(ask({ operation: 'fill' })).catch(() => undefined);
    const other = redactor.redact({ kind: 'element' as const, role: 'button', name: 'Delete everything' });
    void broker.request(ask({ target: other })).catch(() => undefined);
    expect(broker.pending(APPROVER)).toHaveLength(3);
    broker.forgetGrants('s1');
    void broker.request(ask()).catch(() => undefined);
    expect(broker.pending(APPROVER)).toHaveLength(4);
    broker.closeAll();
  });

  it('APP scope lets other sessions of the same app through, never another app or an app-less session', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    const app = { appName: 'notes', executablePath: '/usr/bin/electron', main: '/apps/notes' };
    const first = broker.request(ask({ session: { id: 's1', ...app } }));
    broker.approve(broker.pending(APPROVER)[0]!.id, 'APP', APPROVER);
    await first;
    await expect(broker.request(ask({ session: { id: 's2', ...app } }))).resolves.toMatchObject({
      status: 'APPROVED',
      scope: 'APP',
      decidedBy: 'app-grant',
    });
    // Ending the session that was approved leaves the app's grant.
    broker.forgetGrants('s1');
    await expect(broker.request(ask({ session: { id: 's3', ...app } }))).resolves.toMatchObject({
      decidedBy: 'app-grant',
    });
    void broker.request(ask({ session: { id: 's4', ...app, main: '/apps/mail' } })).catch(() => undefined);
    void broker.request(ask({ session: { id: 's5' } })).catch(() => undefined);
    expect(broker.pending(APPROVER)).toHaveLength(2);
    broker.forgetAllGrants();
    void broker.request(ask({ session: { id: 's2', ...app } })).catch(() => undefined);
    expect(broker.pending(APPROVER)).toHaveLength(3);
    broker.closeAll();
  });

  it('times out with APPROVAL_TIMEOUT and tells observers', async () => {
    vi.useFakeTimers();
    const broker = new ApprovalBroker();
    const stream = broker.subscribe(APPROVER);
    const pending = broker.request(ask(), 5_000);
    const outcome = expect(pending).rejects.toMatchObject({ code: 'APPROVAL_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(5_000);
    await outcome;
    await stream.next();
    expect((await stream.next()).value!.event.state).toBe('TIMED_OUT');
    expect(clampApprovalTimeout(10 ** 9)).toBe(MAX_APPROVAL_TIMEOUT_MS);
    broker.closeAll();
  });

  it('with no observer: fails fast, or auto-allows / auto-denies as the policy says', async () => {
    const broker = new ApprovalBroker();
    await expect(broker.request(ask())).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
    await expect(broker.request(ask({ nonInteractive: 'ALLOW' }))).resolves.toMatchObject({
      status: 'APPROVED',
      decidedBy: 'auto-allow',
    });
    await expect(broker.request(ask({ nonInteractive: 'DENY' }))).resolves.toMatchObject({
      status: 'DENIED',
      decidedBy: 'auto-deny',
    });
    const stream = broker.subscribe(APPROVER);
    await stream.return();
    await expect(broker.request(ask())).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
  });

  it('only approvers may watch, list, approve or deny', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    const pending = broker.request(ask());
    const id = broker.pending(APPROVER)[0]!.id;
    const forbidden = expect.objectContaining({ code: 'APPROVAL_FORBIDDEN' });
    expect(() => broker.subscribe(AGENT)).toThrow(forbidden);
    expect(() => broker.pending(AGENT)).toThrow(forbidden);
    expect(() => broker.approve(id, 'ONCE', AGENT)).toThrow(forbidden);
    expect(() => broker.deny(id, null, { id: 'local', role: 'anonymous-loopback' })).toThrow(forbidden);
    broker.closeAll();
    await expect(pending).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
  });

  it('a late observer sees what is already pending; closeAll rejects waiters and ends streams', async () => {
    const broker = new ApprovalBroker();
    const early = broker.subscribe(APPROVER);
    const pending = broker.request(ask());
    const late = broker.subscribe(APPROVER);
    expect((await late.next()).value!.event.state).toBe('PENDING');
    broker.closeAll();
    await expect(pending).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
    expect(early.closed && late.closed).toBe(true);
    expect(broker.approverCount).toBe(0);
    await expect(broker.request(ask({ nonInteractive: 'ALLOW' }))).rejects.toMatchObject({
      code: 'APPROVAL_UNAVAILABLE',
    });
  });

  it('an aborted operation withdraws its request', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    const controller = new AbortController();
    const pending = broker.request(ask(), null, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
    expect(broker.pending(APPROVER)).toEqual([]);
    broker.closeAll();
  });

  it('observers see the queue and its stream but never make an ASK wait, and cannot answer', async () => {
    const OBSERVER: ClientIdentity = { id: 'observer-1', role: 'observer' };
    const broker = new ApprovalBroker();
    const looking = broker.subscribe(OBSERVER);
    expect(broker.approverCount).toBe(0);
    await expect(broker.request(ask(), 10_000)).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
    const approving = broker.subscribe(APPROVER);
    const pending = broker.request(ask(), 10_000);
    const seen = (await looking.next()).value!.event;
    expect(seen).toMatchObject({ state: 'PENDING', request: { operation: 'click' } });
    expect(broker.pending(OBSERVER).map((request) => request.id)).toEqual([seen.request.id]);
    expect(() => broker.approve(seen.request.id, 'ONCE', OBSERVER)).toThrow(
      expect.objectContaining({ code: 'APPROVAL_FORBIDDEN' }),
    );
    expect(() => broker.pending(AGENT)).toThrow(expect.objectContaining({ code: 'APPROVAL_FORBIDDEN' }));
    broker.deny(seen.request.id, 'not now', APPROVER);
    await expect(pending).resolves.toMatchObject({ status: 'DENIED' });
    expect((await looking.next()).value!.event).toMatchObject({ state: 'DENIED', reason: 'not now' });
    approving.close();
    broker.closeAll();
  });

  it('holds each client to its share of the pending approvals, and an answer frees its place', async () => {
    const broker = new ApprovalBroker();
    broker.subscribe(APPROVER);
    expect(MAX_PENDING_APPROVALS_PER_CLIENT).toBe(MAX_PENDING_APPROVALS / 4);
    const waiting = Array.from({ length: MAX_PENDING_APPROVALS_PER_CLIENT }, () =>
      broker.request(ask(), 10_000).catch((error: unknown) => error),
    );
    await expect(broker.request(ask(), 10_000)).rejects.toMatchObject({
      code: 'CLIENT_LIMIT',
      details: { resource: 'pending approvals', share: 25, serverLimit: 100 },
    });
    const other = broker.request(ask({ client: { id: 'agent-2', role: 'agent' } }), 10_000);
    expect(broker.pending(APPROVER)).toHaveLength(MAX_PENDING_APPROVALS_PER_CLIENT + 1);
    const [oldest] = broker.pending(APPROVER);
    broker.deny(oldest!.id, 'no', APPROVER);
    const again = broker.request(ask(), 10_000);
    expect(broker.pending(APPROVER)).toHaveLength(MAX_PENDING_APPROVALS_PER_CLIENT + 1);
    broker.closeAll();
    await Promise.all([...waiting, other.catch(() => {}), again.catch(() => {})]);
  });
});
