import { randomUUID } from 'node:crypto';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { ClientShares, type Release } from '../../bounded/client-shares.js';
import type { SubscriberQueue } from '../../bounded/subscriber-queue.js';
import { EventHub } from '../../events/event-hub.js';
import {
  assertApprover,
  assertMayWatchApprovals,
  type ClientIdentity,
  permissionsOf,
} from '../clients/client-identity.js';
import type { ApprovalAnswer, ApprovalPeers } from './approval-peers.js';
import type {
  ApprovalAsk,
  ApprovalEvent,
  ApprovalRequest,
  ApprovalResult,
  ApprovalScope,
  ApprovalState,
} from './approval-request.js';
import { appIdentity, ScopedGrants } from './scoped-grants.js';

/** Long enough for a person to read the request and look at the app, short enough that the agent is not stuck. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;
/** A mutation holds its connection while waiting; beyond this the agent had better be told to come back. */
export const MAX_APPROVAL_TIMEOUT_MS = 600_000;
/** A person cannot weigh more at once; past this, agents are asking faster than anyone can answer. */
export const MAX_PENDING_APPROVALS = 100;
/**
 * Approvals one client may have waiting at once: a quarter of the server's, so that one agent asking
 * faster than anyone answers leaves room for the others' asks. A client here is its token: an ask says
 * who asked, not over which connection, so anonymous-loopback agents (no tokens) share one share.
 */
export const MAX_PENDING_APPROVALS_PER_CLIENT = MAX_PENDING_APPROVALS / 4;

type ApprovalTopics = { approval: ApprovalEvent };

interface Pending {
  readonly request: ApprovalRequest;
  readonly ask: ApprovalAsk;
  readonly startedAt: number;
  readonly resolve: (result: ApprovalResult) => void;
  readonly reject: (error: StagegraphError) => void;
  readonly timer: NodeJS.Timeout;
  readonly abandon: () => void;
  /** Ends its charge to the asking client's share. */
  readonly release: Release;
}

export function clampApprovalTimeout(timeoutMs: number | null | undefined): number {
  if (timeoutMs == null || !Number.isFinite(timeoutMs)) return DEFAULT_APPROVAL_TIMEOUT_MS;
  return Math.min(MAX_APPROVAL_TIMEOUT_MS, Math.max(1, Math.round(timeoutMs)));
}

/**
 * Holds ASK decisions until an approver answers. Approvers watch through `subscribe`, each on its own
 * bounded queue; with none watching, a request is settled at once by the policy's non-interactive mode.
 */
export class ApprovalBroker {
  /** Approvers watching: while one is, an ASK waits for an answer. */
  #hub = new EventHub<ApprovalTopics>();
  /** Observers watching: they see every request, and never make an ASK wait, since they cannot answer. */
  #lookers = new EventHub<ApprovalTopics>();
  #pending = new Map<string, Pending>();
  #grants = new ScopedGrants({ acrossSessions: false });
  /** APP-scope grants, by app identity: they outlive sessions, and only a policy reload or restart ends them. */
  #appGrants = new ScopedGrants({ acrossSessions: true });
  readonly #clients = new ClientShares(
    'pending approvals',
    MAX_PENDING_APPROVALS_PER_CLIENT,
    MAX_PENDING_APPROVALS,
  );
  #closed = false;
  #peers: ApprovalPeers | null = null;

  /** Approvers watching the stream here; observers' streams do not count. */
  get approverCount(): number {
    return this.#hub.subscriberCount;
  }

  /** Shares this broker's approvals with other gateways' (cluster mode); null stops sharing. */
  link(peers: ApprovalPeers | null): void {
    this.#peers = peers;
  }

  /** An event of a request another gateway asked, for the watchers here. */
  relay(event: ApprovalEvent): void {
    this.#hub.publish('approval', event);
    this.#lookers.publish('approval', event);
  }

  /** Suspends until answered, timed out (APPROVAL_TIMEOUT), aborted, or the broker closes. */
  request(ask: ApprovalAsk, timeoutMs?: number | null, signal?: AbortSignal): Promise<ApprovalResult> {
    const startedAt = performance.now();
    const settled = (
      status: ApprovalResult['status'],
      decidedBy: string,
      reason: string | null,
      scope: ApprovalScope | null = null,
    ): ApprovalResult => ({
      status,
      requestId: null,
      scope,
      decidedBy,
      reason,
      waitedMs: performance.now() - startedAt,
    });
    if (ask.session && this.#grants.has(ask.session.id, ask.operation, ask.rule.id, ask.target))
      return Promise.resolve(
        settled('APPROVED', 'session-grant', 'approved earlier for this session', 'SESSION'),
      );
    const app = ask.session && appIdentity(ask.session);
    if (app && this.#appGrants.has(app, ask.operation, ask.rule.id, ask.target))
      return Promise.resolve(settled('APPROVED', 'app-grant', 'approved earlier for this app', 'APP'));
    if (this.#closed) return Promise.reject(unavailable('The server is stopping; no approval can be given.'));
    if (this.approverCount + (this.#peers?.approvers() ?? 0) === 0) {
      if (ask.nonInteractive === 'ALLOW')
        return Promise.resolve(settled('APPROVED', 'auto-allow', 'no approver watching'));
      if (ask.nonInteractive === 'DENY')
        return Promise.resolve(settled('DENIED', 'auto-deny', 'no approver watching'));
      return Promise.reject(
        unavailable(`${ask.operation} needs an approval (rule ${ask.rule.id}) and no approver is watching.`),
      );
    }
    if (this.#pending.size >= MAX_PENDING_APPROVALS)
      return Promise.reject(unavailable(`${MAX_PENDING_APPROVALS} approvals are already waiting.`));
    if (signal?.aborted) return Promise.reject(cancelled(ask.operation));
    let release: Release;
    try {
      release = this.#clients.take([ask.client.id]);
    } catch (error) {
      return Promise.reject(error);
    }

    const timeout = clampApprovalTimeout(timeoutMs);
    const { nonInteractive: _mode, ...shown } = ask;
    const createdAt = new Date();
    const request: ApprovalRequest = {
      ...shown,
      id: randomUUID(),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + timeout),
    };
    return new Promise<ApprovalResult>((resolve, reject) => {
      const onAbort = () =>
        this.#finish(
          request.id,
          'CANCELLED',
          null,
          typeof signal?.reason === 'string' ? signal.reason : 'the operation was cancelled',
          cancelled(ask.operation),
        );
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(
        () =>
          this.#finish(
            request.id,
            'TIMED_OUT',
            null,
            `no answer within ${timeout} ms`,
            new StagegraphError(
              'APPROVAL_TIMEOUT',
              `No approver answered ${ask.operation} within ${timeout} ms.`,
              {
                details: { approvalId: request.id, rule: ask.rule.id },
              },
            ),
          ),
        timeout,
      );
      // A pending approval must not keep a stopping process alive; closeAll settles it anyway.
      timer.unref();
      this.#pending.set(request.id, {
        request,
        ask,
        startedAt,
        resolve,
        reject,
        timer,
        abandon: () => signal?.removeEventListener('abort', onAbort),
        release,
      });
      this.#publish({ state: 'PENDING', request, decidedBy: null, reason: null });
    });
  }

  /** Oldest first, the other gateways' too; approvers and observers. */
  pending(client: ClientIdentity): ApprovalRequest[] {
    assertMayWatchApprovals(client, 'list pending approvals');
    return this.#allPending();
  }

  /** `approve` or `deny` wherever the request waits: here at once, or decided among the linked gateways. */
  answer(
    id: string,
    answer: ApprovalAnswer,
    client: ClientIdentity,
  ): ApprovalResult | Promise<ApprovalResult> {
    if (this.#peers) {
      assertApprover(client, answer.decision === 'APPROVED' ? 'approve' : 'deny');
      return this.#peers.answer(id, answer, client);
    }
    return answer.decision === 'APPROVED'
      ? this.approve(id, answer.scope, client)
      : this.deny(id, answer.reason, client);
  }

  /**
   * SESSION scope lets later identical requests (same session, operation, target and rule) through without
   * asking; APP scope, those of every session of the same app.
   */
  approve(id: string, scope: ApprovalScope, client: ClientIdentity): ApprovalResult {
    assertApprover(client, 'approve');
    const entry = this.#take(id);
    const { session, operation, rule, target } = entry.ask;
    if (scope === 'SESSION' && session) this.#grants.add(session.id, operation, rule.id, target);
    const app = scope === 'APP' && session && appIdentity(session);
    if (app) this.#appGrants.add(app, operation, rule.id, target);
    const result: ApprovalResult = {
      status: 'APPROVED',
      requestId: id,
      scope,
      decidedBy: client.id,
      reason: null,
      waitedMs: performance.now() - entry.startedAt,
    };
    this.#settle(entry, 'APPROVED', client.id, null);
    entry.resolve(result);
    return result;
  }

  deny(id: string, reason: string | null, client: ClientIdentity): ApprovalResult {
    assertApprover(client, 'deny');
    const entry = this.#take(id);
    const result: ApprovalResult = {
      status: 'DENIED',
      requestId: id,
      scope: null,
      decidedBy: client.id,
      reason,
      waitedMs: performance.now() - entry.startedAt,
    };
    this.#settle(entry, 'DENIED', client.id, reason);
    entry.resolve(result);
    return result;
  }

  /**
   * Approvers and observers; pending requests are delivered first so a late watcher misses none. Only an
   * approver's stream makes an ASK wait for an answer.
   */
  subscribe(client: ClientIdentity, capacity?: number): SubscriberQueue<ApprovalEvent> {
    assertMayWatchApprovals(client, 'watch approval requests');
    const approver = permissionsOf(client.role).mayApprove;
    const queue = (approver ? this.#hub : this.#lookers).subscribe(
      'approval',
      capacity === undefined ? {} : { capacity },
    );
    if (approver) this.#peers?.approversChanged();
    for (const request of this.#allPending())
      queue.push({ state: 'PENDING', request, decidedBy: null, reason: null });
    return queue;
  }

  /** Forgets one ended session's SESSION-scope approvals; APP-scope ones outlive it. */
  forgetGrants(sessionId: string): void {
    this.#grants.clear(sessionId);
  }

  /** Forgets every SESSION- and APP-scope approval: a new policy may mean its rules differently. */
  forgetAllGrants(): void {
    this.#grants.clear();
    this.#appGrants.clear();
  }

  /** Server shutdown: every waiting request fails with APPROVAL_UNAVAILABLE and observers' streams end. */
  closeAll(): void {
    this.#closed = true;
    for (const id of [...this.#pending.keys()])
      this.#finish(
        id,
        'CANCELLED',
        null,
        'the server is stopping',
        unavailable('The server stopped before an approver answered.'),
      );
    this.#hub.closeAll();
    this.#lookers.closeAll();
    this.forgetAllGrants();
  }

  #publish(event: ApprovalEvent): void {
    this.relay(event);
    this.#peers?.published(event);
  }

  #allPending(): ApprovalRequest[] {
    const here = [...this.#pending.values()].map((entry) => entry.request);
    const elsewhere = this.#peers?.pending() ?? [];
    if (elsewhere.length === 0) return here;
    return [...here, ...elsewhere].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  #take(id: string): Pending {
    const entry = this.#pending.get(id);
    if (!entry)
      throw new StagegraphError('APPROVAL_NOT_FOUND', `No approval with id ${id} is pending.`, {
        nextActions: ['query { pendingApprovals { id operation } }'],
      });
    return entry;
  }

  #finish(
    id: string,
    state: ApprovalState,
    decidedBy: string | null,
    reason: string,
    error: StagegraphError,
  ): void {
    const entry = this.#pending.get(id);
    if (!entry) return;
    this.#settle(entry, state, decidedBy, reason);
    entry.reject(error);
  }

  #settle(entry: Pending, state: ApprovalState, decidedBy: string | null, reason: string | null): void {
    clearTimeout(entry.timer);
    entry.abandon();
    entry.release();
    this.#pending.delete(entry.request.id);
    this.#publish({ state, request: entry.request, decidedBy, reason });
  }
}

function unavailable(message: string): StagegraphError {
  return new StagegraphError('APPROVAL_UNAVAILABLE', message);
}

function cancelled(operation: string): StagegraphError {
  return new StagegraphError(
    'APPROVAL_UNAVAILABLE',
    `${operation} was cancelled while waiting for an approval.`,
  );
}
