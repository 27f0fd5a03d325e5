import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { FIXTURE_HOSTS, type FixtureSession, type Loose } from './helpers/fixture-session.js';
import { type Subscription, wsClient, wsRequest } from './helpers/gateway.js';
import type { LooseResponse } from './helpers/gateway-client.js';
import {
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/**
 * The contract of a multi-step operation (docs/agents.md, "Act"): every step's outcome stays in `data`,
 * and after a failed step the later ones do not run — each says so with STEP_SKIPPED naming the failed
 * step. What did or did not happen is read back from the page, not taken from the answer.
 */

/**
 * Safety nets only, for starting Chromium and a session and for a test's round trips on a loaded machine
 * (load 35 on two cores took a launch past the 60 s default); nothing here waits for a time to pass.
 */
const SAFETY_NET_MS = 300_000;

/** fill → click on nothing → click that would add a task. */
const FILL_MISS_ADD = `mutation {
  a: fill(target: { role: "textbox", name: "Name" }, value: "Ada") { target { role name value } }
  b: click(target: { role: "button", name: "Add tsak" }, timeoutMs: 1000) { target { name } }
  c: click(target: { testId: "add-task" }) { target { name } }
}`;

/** Each error as the agent branches on it: where, which code, and which failed step it names. */
function outcomes(response: LooseResponse): [string, string, string | undefined][] {
  return (response.errors ?? []).map((error: Loose) => [
    error.path?.join('.'),
    error.extensions?.code,
    error.extensions?.details?.failedStep,
  ]);
}

/** The fixture's task list: "Add task" appends one item synchronously in its click handler. */
async function taskCount(app: { data(query: string): Promise<Loose> }): Promise<number> {
  const read = await app.data(
    'mutation { expect(kind: COUNT, target: { selector: "#tasks li" }, min: 0) { actual } }',
  );
  return Number(read.expect.actual);
}

for (const host of FIXTURE_HOSTS) {
  describe(`a multi-step operation on ${host.name}`, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    }, SAFETY_NET_MS);
    afterAll(() => app?.stop(), SAFETY_NET_MS);

    it(
      'keeps the steps before a failure, reports the failure at its path, and runs nothing after it',
      async () => {
        const before = await taskCount(app);
        const response = await app.send(FILL_MISS_ADD);

        expect(response.data).toEqual({
          a: { target: { role: 'textbox', name: 'Name', value: 'Ada' } },
          b: null,
          c: null,
        });
        expect(outcomes(response)).toEqual([
          ['b', 'SELECTOR_NO_MATCH', undefined],
          ['c', 'STEP_SKIPPED', 'b'],
        ]);
        const skipped = response.errors![1]!;
        expect(skipped.message).toMatch(
          /Step "c" \(click\) did not run: step "b" \(click\) failed .*SELECTOR_NO_MATCH/,
        );
        expect(skipped.extensions).toMatchObject({
          retryable: false,
          hint: expect.stringContaining('"b"'),
          details: { failedStep: 'b', failedField: 'click', failedCode: 'SELECTOR_NO_MATCH' },
        });

        // On the page: the fill happened, the third step's click did not.
        await app.data(
          'mutation { expect(kind: VALUE, target: { testId: "name" }, equals: "Ada") { actual } }',
        );
        expect(await taskCount(app)).toBe(before);
        // The same click sent alone does add a task: the count above would have shown it.
        await app.data('mutation { click(target: { testId: "add-task" }) { elapsedMs } }');
        expect(await taskCount(app)).toBe(before + 1);
      },
      SAFETY_NET_MS,
    );

    it(
      'an expect that fails stops the steps after it like an action does',
      async () => {
        const before = await taskCount(app);
        const response = await app.send(`mutation {
        add: click(target: { testId: "add-task" }) { target { name } }
        check: expect(kind: COUNT, target: { selector: "#tasks li" }, equals: "999", timeoutMs: 1000) { actual }
        again: click(target: { testId: "add-task" }) { target { name } }
        title: expect(kind: TITLE, contains: "Fixture") { actual }
      }`);
        expect(response.data).toEqual({
          add: { target: { name: 'Add task' } },
          check: null,
          again: null,
          title: null,
        });
        expect(outcomes(response)).toEqual([
          ['check', 'EXPECTATION_FAILED', undefined],
          ['again', 'STEP_SKIPPED', 'check'],
          ['title', 'STEP_SKIPPED', 'check'],
        ]);
        expect(await taskCount(app)).toBe(before + 1);
      },
      SAFETY_NET_MS,
    );

    it(
      'a document whose steps all succeed answers every step and no error',
      async () => {
        const before = await taskCount(app);
        const response = await app.send(`mutation {
        name: fill(target: { testId: "name" }, value: "Grace") { target { value } }
        add: click(target: { role: "button", name: "Add task" }) { target { name } }
        tasks: expect(kind: COUNT, target: { selector: "#tasks li" }, equals: "${before + 1}") { actual }
      }`);
        expect(response.errors).toBeUndefined();
        expect(response.data).toEqual({
          name: { target: { value: 'Grace' } },
          add: { target: { name: 'Add task' } },
          tasks: { actual: String(before + 1) },
        });
      },
      SAFETY_NET_MS,
    );

    it(
      'each operation starts afresh: the same document twice over one graphql-ws connection runs its first steps twice',
      async () => {
        const ws = wsClient(app.gateway.wsUrl);
        try {
          const document = parse(FILL_MISS_ADD.replace('"Ada"', '"Lin"'));
          for (const _ of [1, 2]) {
            await app.data('mutation { clear(target: { testId: "name" }) { elapsedMs } }');
            const result = await wsRequest<Loose, Loose>(ws, document);
            expect(result.data?.a).toEqual({ target: { role: 'textbox', name: 'Name', value: 'Lin' } });
            expect(result.errors?.map((error) => error.extensions?.code)).toEqual([
              'SELECTOR_NO_MATCH',
              'STEP_SKIPPED',
            ]);
          }
        } finally {
          await ws.dispose();
        }
      },
      SAFETY_NET_MS,
    );
  });
}

reportRealElectronSkipped('multi-step operations');

describe('a multi-step operation under governance', () => {
  const APPROVAL_EVENTS =
    'subscription { approvalRequests { state request { id operation target { name } } } }';
  const CLICKS = `{ audit(first: 500) { edges { node { seq operation outcome errorCode } } } }`;
  let run: GovernedRun;
  let approvals: Subscription<Loose>;

  beforeAll(async () => {
    run = await startGovernedRun();
    approvals = run.approver.watch(APPROVAL_EVENTS);
    await approversWatching(run, 1, SAFETY_NET_MS);
  }, SAFETY_NET_MS);
  afterAll(async () => {
    approvals?.dispose();
    await run?.stop();
    await run?.cleanup();
  }, SAFETY_NET_MS);

  const auditedClicksAfter = async (seq: number) =>
    (await run.agent.data(CLICKS)).audit.edges
      .map((edge: Loose) => edge.node)
      .filter((node: Loose) => node.seq > seq && node.operation === 'click')
      .map((node: Loose) => [node.outcome, node.errorCode]);

  it(
    'a skipped step asks no approver and is not audited; a denied step skips the rest',
    async () => {
      const before = await taskCount(run.agent);
      const records = (await run.agent.data(CLICKS)).audit.edges;
      const lastSeq: number = records[records.length - 1].node.seq;

      // "Delete account" asks an approver whenever it runs; here it comes after a failed step.
      const skipped = await run.agent.send(`mutation {
      miss: click(target: { role: "button", name: "Add tsak" }, timeoutMs: 1000) { target { name } }
      del: click(target: { testId: "delete-account" }) { target { name } }
      add: click(target: { testId: "add-task" }) { target { name } }
    }`);
      expect(skipped.data).toEqual({ miss: null, del: null, add: null });
      expect(outcomes(skipped)).toEqual([
        ['miss', 'SELECTOR_NO_MATCH', undefined],
        ['del', 'STEP_SKIPPED', 'miss'],
        ['add', 'STEP_SKIPPED', 'miss'],
      ]);

      // Now it runs first and asks. The stream delivers requests in order: had the skipped step asked,
      // its request would be the first one here.
      const answered = new Set<string>();
      const denied = run.agent.send(`mutation {
      del: click(target: { testId: "delete-account" }) { target { name } }
      add: click(target: { testId: "add-task" }) { target { name } }
    }`);
      const request = await nextPendingApproval(approvals, answered);
      expect(request.target.name).toBe('Delete account');
      expect(approvals.received.filter((event) => event.approvalRequests.state === 'PENDING')).toHaveLength(
        1,
      );
      await run.approver.data(
        `mutation { deny(id: "${request.id}", reason: "not in this test") { status } }`,
      );
      const response = await denied;
      expect(response.data).toEqual({ del: null, add: null });
      expect(outcomes(response)).toEqual([
        ['del', 'POLICY_DENIED', undefined],
        ['add', 'STEP_SKIPPED', 'del'],
      ]);
      expect(response.errors![1]!.extensions.details.failedCode).toBe('POLICY_DENIED');

      // The audit holds the two steps that ran (one failed, one denied) and none of the three skipped.
      expect(await auditedClicksAfter(lastSeq)).toEqual([
        ['FAILED', 'SELECTOR_NO_MATCH'],
        ['DENIED', 'POLICY_DENIED'],
      ]);
      expect(await taskCount(run.agent)).toBe(before);
    },
    SAFETY_NET_MS,
  );

  it(
    'stop runs after a failed step, as a finally would',
    async () => {
      const response = await run.agent.send(`mutation {
      miss: click(target: { role: "button", name: "Add tsak" }, timeoutMs: 1000) { target { name } }
      add: click(target: { testId: "add-task" }) { target { name } }
      stop(id: "${run.sessionId}") { id status }
    }`);
      expect(response.data).toEqual({
        miss: null,
        add: null,
        stop: { id: run.sessionId, status: 'STOPPED' },
      });
      expect(outcomes(response)).toEqual([
        ['miss', 'SELECTOR_NO_MATCH', undefined],
        ['add', 'STEP_SKIPPED', 'miss'],
      ]);
    },
    SAFETY_NET_MS,
  );
});
