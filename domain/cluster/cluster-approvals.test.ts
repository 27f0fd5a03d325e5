import { afterEach, describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { MemoryStreams, replicaKnowingEverySession } from '../../test/helpers/memory-streams.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { ApprovalBroker } from '../governance/approvals/approval-broker.js';
import type { ApprovalAsk } from '../governance/approvals/approval-request.js';
import type { ClientIdentity } from '../governance/clients/client-identity.js';
import { Redactor } from '../governance/redaction/redaction.js';
import { approvalStreamFeed } from './approval-stream.js';
import { ClusterApprovals } from './cluster-approvals.js';
import { ClusterEvents } from './cluster-events.js';
import type {
  AnswerOutcome,
  ApprovalMessage,
  Claim,
  Confirmation,
  RelayedAnswer,
  SharedApproval,
  SharedApprovalStore,
} from './shared-approvals.js';

const AGENT: ClientIdentity = { id: 'agent-1', role: 'agent' };
const APPROVER: ClientIdentity = { id: 'approver-1', role: 'approver' };
const OTHER_APPROVER: ClientIdentity = { id: 'approver-2', role: 'approver' };
const TIMING = { leaseMs: 6_000, renewMs: 60_000 };
/** A replica holding its lease. */
const MEMBER = { fenced: false, assertServing: () => {} };
const redactor = new Redactor();

const ask = (): ApprovalAsk => ({
  client: AGENT,
  operation: 'click',
  session: { id: 'b-s1' },
  target: redactor.redact({ kind: 'element' as const, role: 'button', name: 'Delete account' }),
  args: redactor.redact({ target: { ref: 'e4' } }),
  risk: 'HIGH',
  rule: { id: 'default:HIGH', index: null, description: 'high risk asks' },
  reasons: ['click on button "Delete account"'],
  nonInteractive: 'FAIL',
  screenshot: Promise.resolve(null),
});

/** The Redis of a cluster, in memory: each step is atomic here because it never awaits. */
class SharedState {
  readonly pending = new Map<string, SharedApproval>();
  readonly claims = new Map<string, { answer: RelayedAnswer | null; owner: string }>();
  readonly outcomes = new Map<string, AnswerOutcome>();
  readonly approvers = new Map<string, number>();
  readonly listeners = new Set<(message: ApprovalMessage) => void>();
  readonly dead = new Set<string>();
  readonly streams = new MemoryStreams();

  publish(message: ApprovalMessage): void {
    for (const listener of this.listeners) listener(JSON.parse(JSON.stringify(message)));
  }

  store(): SharedApprovalStore {
    const state = this;
    return {
      async share(entry) {
        state.pending.set(entry.request.id, entry);
      },
      async withdraw(id) {
        state.pending.delete(id);
      },
      async pending() {
        return [...state.pending.values()].filter((entry) => !state.dead.has(entry.replicaId));
      },
      async claim(answer): Promise<Claim> {
        const held = state.claims.get(answer.id);
        if (held?.answer === null) return { kind: 'LOST', owner: held.owner };
        if (held?.answer) return { kind: 'ANSWERED', by: held.answer };
        const entry = state.pending.get(answer.id);
        if (!entry) return { kind: 'NOT_FOUND' };
        state.pending.delete(answer.id);
        const owner = entry.replicaId;
        state.claims.set(answer.id, { answer: state.dead.has(owner) ? null : answer, owner });
        if (state.dead.has(owner)) return { kind: 'LOST', owner };
        if (owner !== answer.relayedBy) state.publish({ kind: 'answered', id: answer.id, owner });
        return { kind: 'CLAIMED', owner, epoch: entry.epoch };
      },
      async claimed(id) {
        return state.claims.get(id)?.answer ?? null;
      },
      async reply(id, outcome) {
        if (!state.outcomes.has(id)) state.outcomes.set(id, outcome);
      },
      async confirmation(id): Promise<Confirmation> {
        const outcome = state.outcomes.get(id);
        if (outcome) return { kind: 'DONE', outcome };
        const owner = state.claims.get(id)?.owner ?? '';
        return state.dead.has(owner) ? { kind: 'LOST', owner } : { kind: 'WAITING' };
      },
      async countApprovers(replicaId, count, _ttlMs, announce) {
        state.approvers.set(replicaId, count);
        if (announce) state.publish({ kind: 'approvers' });
        let others = 0;
        for (const [id, watching] of state.approvers) if (id !== replicaId) others += watching;
        return others;
      },
      async listen(listener) {
        state.listeners.add(listener);
      },
      async close() {},
    };
  }
}

const started: { broker: ApprovalBroker; approvals: ClusterApprovals }[] = [];

/** A replica's event streams on the cluster's (in-memory) Redis. */
function eventsOf(state: SharedState, replicaId: string): ClusterEvents {
  return new ClusterEvents(
    state.streams,
    new EventHub<SessionTopics>(),
    replicaKnowingEverySession(replicaId),
    () => {},
  );
}

async function replica(state: SharedState, id: string, fence = MEMBER) {
  const broker = new ApprovalBroker();
  const approvals = new ClusterApprovals(state.store(), broker, id, TIMING, () => {}, fence);
  await approvals.start(1, eventsOf(state, id));
  started.push({ broker, approvals });
  return broker;
}

/** Until the other replica heard what was published: listeners run synchronously, answers after a tick. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(async () => {
  for (const { broker, approvals } of started.splice(0)) {
    await approvals.stop();
    broker.closeAll();
  }
});

describe('ClusterApprovals', () => {
  it('a fenced replica claims no answer and counts no approver: an ASK elsewhere waits only for live ones', async () => {
    const state = new SharedState();
    const fence = {
      fenced: false,
      assertServing() {
        if (fence.fenced) throw new StagegraphError('REPLICA_FENCED', 'Replica b lost its lease.');
      },
    };
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b', fence)];
    fence.fenced = true;
    b.subscribe(APPROVER);
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    expect(state.approvers.get('b')).toBe(0);
    const waiting = a.request(ask(), 10_000);
    await until(() => b.pending(APPROVER).length === 1);
    const id = b.pending(APPROVER)[0]!.id;
    await expect(b.answer(id, { decision: 'APPROVED', scope: 'ONCE' }, APPROVER)).rejects.toMatchObject({
      code: 'REPLICA_FENCED',
    });
    expect(a.pending(APPROVER).map((request) => request.id)).toEqual([id]);
    await a.answer(id, { decision: 'DENIED', reason: null }, APPROVER);
    await expect(waiting).resolves.toMatchObject({ status: 'DENIED' });
  });

  it("shows b's request on a, with its replica, and a's answer releases it on b, decided there", async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    const stream = a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    const waiting = b.request(ask(), 10_000);
    const seen = (await stream.next()).value!.event;
    expect(seen).toMatchObject({ state: 'PENDING', request: { operation: 'click', replicaId: 'b' } });
    expect(a.pending(APPROVER).map((request) => request.id)).toEqual([seen.request.id]);
    const answer = await a.answer(seen.request.id, { decision: 'APPROVED', scope: 'ONCE' }, APPROVER);
    expect(answer).toMatchObject({ status: 'APPROVED', decidedBy: 'approver-1', requestId: seen.request.id });
    await expect(waiting).resolves.toMatchObject({ status: 'APPROVED', decidedBy: 'approver-1' });
    expect((await stream.next()).value!.event).toMatchObject({ state: 'APPROVED', decidedBy: 'approver-1' });
    expect(a.pending(APPROVER)).toEqual([]);
  });

  it("resumes an approver's subscription after a cursor, from the stream, with b's request and its end", async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    const waiting = b.request(ask(), 10_000);
    await until(() => a.pending(APPROVER).length === 1);
    const id = a.pending(APPROVER)[0]!.id;
    await a.answer(id, { decision: 'DENIED', reason: 'not today' }, APPROVER);
    await expect(waiting).resolves.toMatchObject({ status: 'DENIED' });

    const resumed = await approvalStreamFeed(a, eventsOf(state, 'a'), APPROVER, '0');
    const [asked, denied] = [(await resumed.next()).value, (await resumed.next()).value];
    expect(asked).toMatchObject({
      cursor: '1',
      droppedBefore: 0,
      event: { state: 'PENDING', request: { id, replicaId: 'b' } },
    });
    expect(denied).toMatchObject({ cursor: '2', event: { state: 'DENIED', reason: 'not today' } });
    // The resumed subscriber is an approver watching: an ASK on b waits for it too.
    expect(a.approverCount).toBe(2);
    await resumed.return?.();
    expect(a.approverCount).toBe(1);
    expect(state.streams.openReaders).toBe(2);
  });

  it('lets exactly one of two answers given at once win; the other is told who answered', async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    b.subscribe(APPROVER);
    const waiting = b.request(ask(), 10_000);
    await until(() => a.pending(APPROVER).length === 1);
    const id = a.pending(APPROVER)[0]!.id;
    const answers = await Promise.allSettled([
      a.answer(id, { decision: 'APPROVED', scope: 'ONCE' }, APPROVER),
      b.answer(id, { decision: 'DENIED', reason: 'no' }, OTHER_APPROVER),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected']);
    const loser = (answers[1] as PromiseRejectedResult).reason as StagegraphError;
    expect(loser.code).toBe('APPROVAL_ALREADY_ANSWERED');
    expect(loser.details).toMatchObject({ decidedBy: 'approver-1', state: 'APPROVED' });
    await expect(waiting).resolves.toMatchObject({ status: 'APPROVED' });
  });

  it("keeps a SESSION approval given on a on b, the owner, for b's later identical requests", async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    const first = b.request(ask(), 10_000);
    await until(() => a.pending(APPROVER).length === 1);
    await a.answer(a.pending(APPROVER)[0]!.id, { decision: 'APPROVED', scope: 'SESSION' }, APPROVER);
    await first;
    await expect(b.request(ask(), 10_000)).resolves.toMatchObject({ decidedBy: 'session-grant' });
  });

  it('answers SESSION_LOST for a request whose replica lost its lease, and an unknown id APPROVAL_NOT_FOUND', async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    void b.request(ask(), 10_000).catch(() => {});
    await until(() => a.pending(APPROVER).length === 1);
    state.dead.add('b');
    const id = a.pending(APPROVER)[0]!.id;
    await expect(a.answer(id, { decision: 'APPROVED', scope: 'ONCE' }, APPROVER)).rejects.toMatchObject({
      code: 'SESSION_LOST',
      details: { replica: 'b', approvalId: id },
    });
    await expect(a.answer('nope', { decision: 'DENIED', reason: null }, APPROVER)).rejects.toMatchObject({
      code: 'APPROVAL_NOT_FOUND',
    });
  });

  it('answers CLUSTER_UNAVAILABLE while the store cannot be reached, and counts no approvers elsewhere', async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    const down = new StagegraphError('CLUSTER_UNAVAILABLE', 'Redis did not answer');
    const store = state.store();
    const unreachable: SharedApprovalStore = {
      ...store,
      claim: () => Promise.reject(down),
      countApprovers: () => Promise.reject(down),
    };
    const cut = new ClusterApprovals(unreachable, b, 'b', TIMING, () => {}, MEMBER);
    await cut.start(1, eventsOf(state, 'b'));
    expect(cut.approvers()).toBe(0);
    await expect(cut.answer('any', { decision: 'DENIED', reason: null }, APPROVER)).rejects.toBe(down);
    expect(a.approverCount).toBe(1);
    await cut.stop();
  });

  it('makes an ASK wait only while an approver watches somewhere, and refuses an agent answering', async () => {
    const state = new SharedState();
    const [a, b] = [await replica(state, 'a'), await replica(state, 'b')];
    await expect(b.request(ask(), 10_000)).rejects.toMatchObject({ code: 'APPROVAL_UNAVAILABLE' });
    a.subscribe(APPROVER);
    await until(() => state.approvers.get('a') === 1);
    void b.request(ask(), 10_000).catch(() => {});
    await until(() => a.pending(APPROVER).length === 1);
    expect(() => a.answer(a.pending(APPROVER)[0]!.id, { decision: 'DENIED', reason: null }, AGENT)).toThrow(
      expect.objectContaining({ code: 'APPROVAL_FORBIDDEN' }),
    );
  });
});
