import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_MAIN, fixtureLaunch } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import type { Subscription } from './helpers/gateway.js';
import {
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/** Long enough for the approver to answer at load 15; an ask nobody answers fails the test by timing out. */
const APPROVAL_TIMEOUT_MS = 10_000;
const POLICY = 'version: 1\nrules: []\n';
const APPROVAL_EVENTS =
  'subscription { approvalRequests { state request { id operation session { id } target { name } } } }';

const clickDelete = (session: string) =>
  `mutation { click(session: "${session}", target: { testId: "delete-account" }) { target { name } } }`;

let dir: string;
let policyFile: string;
let run: GovernedRun;
let approvals: Subscription<Loose>;
const answered = new Set<string>();
const nextPending = () => nextPendingApproval(approvals, answered);
const asked = () => approvals.received.filter((event) => event.approvalRequests.state === 'PENDING').length;

async function launch(main = FIXTURE_APP_MAIN): Promise<string> {
  const { launch } = await run.agent.data(
    'mutation ($input: LaunchInput!) { launch(input: $input) { id } }',
    { input: { ...fixtureLaunch(), main } },
  );
  await run.agent.data(
    `mutation { click(session: "${launch.id}", target: { testId: "stop-ticking" }) { windowId } }`,
  );
  return launch.id;
}

/** The click's audit record: how its ASK was settled, and under which scope. */
async function approvalOf(session: string): Promise<Loose> {
  const { audit } = await run.approver.data(
    `{ audit(first: 500, filter: { operations: ["click"], sessionId: "${session}" }) { edges { node { approval { scope decidedBy } } } } }`,
  );
  return audit.edges.at(-1)?.node.approval;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-app-scope-e2e-'));
  policyFile = join(dir, 'policy.yaml');
  await writeFile(policyFile, POLICY);
  run = await startGovernedRun({ policyFile, approvalTimeoutMs: APPROVAL_TIMEOUT_MS });
  approvals = run.approver.watch(APPROVAL_EVENTS);
  await approversWatching(run, 1);
});
afterAll(async () => {
  approvals?.dispose();
  await run?.stop();
  await run?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('APP-scope approvals', () => {
  it('reach later sessions of the same app, never another app, and end with a policy reload', async () => {
    const first = run.sessionId!;
    const second = await launch();
    // Another app: its own folder and package name, run by the same executable.
    const otherApp = join(dir, 'other-app');
    await cp(FIXTURE_APP_MAIN, otherApp, { recursive: true });
    const manifest = JSON.parse(await readFile(join(otherApp, 'package.json'), 'utf8'));
    await writeFile(join(otherApp, 'package.json'), JSON.stringify({ ...manifest, name: 'other-app' }));
    const other = await launch(otherApp);

    const click = run.agent.send(clickDelete(first));
    const request = await nextPending();
    expect(request.session.id).toBe(first);
    const approved = await run.approver.data(
      `mutation { approve(id: "${request.id}", scope: APP) { status scope } }`,
    );
    expect(approved.approve).toEqual({ status: 'APPROVED', scope: 'APP' });
    expect((await click).errors).toBeUndefined();
    expect(await approvalOf(first)).toMatchObject({ scope: 'APP' });

    // Asked again, nobody would answer and the click would fail with APPROVAL_TIMEOUT.
    await run.agent.data(clickDelete(second));
    expect(asked()).toBe(1);
    expect(await approvalOf(second)).toEqual({ scope: 'APP', decidedBy: 'app-grant' });

    const otherClick = run.agent.send(clickDelete(other));
    const otherRequest = await nextPending();
    expect(otherRequest.session.id).toBe(other);
    await run.approver.data(`mutation { approve(id: "${otherRequest.id}") { status } }`);
    expect((await otherClick).errors).toBeUndefined();

    await writeFile(policyFile, `${POLICY}# reloaded\n`);
    await run.gateway.gateway.governance?.reloadPolicy();
    const afterReload = run.agent.send(clickDelete(second));
    const reasked = await nextPending();
    expect(reasked.session.id).toBe(second);
    await run.approver.data(`mutation { approve(id: "${reasked.id}") { status } }`);
    expect((await afterReload).errors).toBeUndefined();
    expect(asked()).toBe(3);
  });
});
