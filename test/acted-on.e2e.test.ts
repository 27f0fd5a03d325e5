import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import type { Subscription } from './helpers/gateway.js';
import {
  approversWatching,
  type GovernedRun,
  nextPendingApproval,
  startGovernedRun,
} from './helpers/governed-gateway.js';

/**
 * Native things acted on — application menu items, context-menu items, trays — are presented to risk,
 * rules, approvers and the audit as page elements are: a destructive label asks first.
 */
const POLICY = `
version: 1
rules:
  - id: no-help-menu
    description: the Help menu is off limits in this run
    target: { kind: menuItem, path: "Help > *" }
    decision: DENY
`;
const APPROVAL_EVENTS = `subscription { approvalRequests { state request { id operation risk reasons
  target { kind role name path windowId previewError } } } }`;
const TARGET_FIELDS = 'kind role name path windowId previewError';
/** The fixture's destructive File menu item, as approvers and the audit are shown it. */
const DELETE_ALL_NOTES = {
  kind: 'MENU_ITEM',
  role: 'menuitem',
  name: 'Delete All Notes',
  path: ['File', 'Delete All Notes'],
  previewError: null,
};

let dir: string;
let run: GovernedRun;
let approvals: Subscription<Loose>;
const answered = new Set<string>();

const nextPending = () => nextPendingApproval(approvals, answered);

/** Sends `mutation`, expects it to be asked about, denies it and expects POLICY_DENIED; returns the request. */
async function askedAndDenied(mutation: string): Promise<Loose> {
  const denied = run.agent.send(mutation);
  const request = await nextPending();
  await run.approver.data(`mutation { deny(id: "${request.id}") { status } }`);
  expect((await denied).errors?.[0]?.extensions?.code).toBe('POLICY_DENIED');
  return request;
}

/** Sends `mutation` again, approves the ask and returns what the operation answered. */
async function askedAndApproved(mutation: string): Promise<Loose> {
  const approved = run.agent.send(mutation);
  const request = await nextPending();
  await run.approver.data(`mutation { approve(id: "${request.id}") { status } }`);
  const response = await approved;
  expect(response.errors).toBeUndefined();
  return response.data;
}

/** Passes at once unless the status shows `text`: a denied handler never ran, so nothing can come later. */
const statusLacks = (text: string) =>
  run.agent.data(
    `mutation { expect(kind: TEXT, target: { testId: "status" }, contains: ${JSON.stringify(text)}, not: true) { actual } }`,
  );

const statusIs = (text: string) =>
  run.agent.data(
    `mutation { expect(kind: TEXT, target: { testId: "status" }, equals: ${JSON.stringify(text)}) { actual } }`,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-acted-on-e2e-'));
  const policyFile = join(dir, 'policy.yaml');
  await writeFile(policyFile, POLICY);
  run = await startGovernedRun({ policyFile, approvalTimeoutMs: 60_000 }, { launch: false });
  await run.agent.data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
    input: { ...fixtureLaunch(undefined, { FIXTURE_DESTRUCTIVE_ITEMS: '1' }), instrumentNative: true },
  });
  await run.agent.data('mutation { click(target: { testId: "stop-ticking" }) { elapsedMs } }');
  approvals = run.approver.watch(APPROVAL_EVENTS);
  await approversWatching(run, 1);
});
afterAll(async () => {
  approvals?.dispose();
  await run?.stop();
  await run?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('native targets are presented like page elements', () => {
  it('a destructive application menu item asks, showing label, role and path; denied it does not run, approved it does', async () => {
    const invoke = 'mutation { invokeMenuItem(path: ["File", "Delete All Notes"]) { invoked label } }';
    const request = await askedAndDenied(invoke);
    expect(request).toMatchObject({
      operation: 'invokeMenuItem',
      risk: 'HIGH',
      target: DELETE_ALL_NOTES,
    });
    expect(request.reasons[0]).toMatch(/menuitem "Delete All Notes" \(File > Delete All Notes\).*"Delete"/);
    await statusLacks('Delete All Notes');

    expect((await askedAndApproved(invoke)).invokeMenuItem).toEqual({
      invoked: true,
      label: 'Delete All Notes',
    });
    await statusIs('Menu: Delete All Notes');
  });

  it('explainPolicy shows HIGH and why; an item that cannot be read is scored on the label asked for', async () => {
    const explain = async (path: string[]) =>
      (
        await run.agent.data(
          `{ explainPolicy(operation: "invokeMenuItem", args: ${JSON.stringify(JSON.stringify({ path }))}) {
             decision risk reasons target { ${TARGET_FIELDS} } } }`,
        )
      ).explainPolicy;
    const known = await explain(['File', 'Delete All Notes']);
    expect(known).toMatchObject({
      decision: 'ASK',
      risk: 'HIGH',
      target: { kind: 'MENU_ITEM', name: 'Delete All Notes', path: ['File', 'Delete All Notes'] },
    });
    expect(known.reasons[0]).toMatch(/whose name contains "Delete"/);
    const harmless = await explain(['File', 'New Window']);
    expect(harmless).toMatchObject({ decision: 'ALLOW', risk: 'MEDIUM', target: { name: 'New Window' } });
    const unreadable = await explain(['File', 'Erase Everything']);
    expect(unreadable).toMatchObject({
      risk: 'HIGH',
      target: { name: 'Erase Everything', previewError: 'no menu item at File > Erase Everything' },
    });
  });

  it('a page target not found in the preview is scored on its locator, not passed as harmless', async () => {
    const { explainPolicy } = await run.agent.data(
      `{ explainPolicy(operation: "click", target: { testId: "delete-everything" }, args: "{\\"timeoutMs\\": 100}") {
           decision risk target { kind role name previewError } } }`,
    );
    expect(explainPolicy).toEqual({
      decision: 'ASK',
      risk: 'HIGH',
      target: {
        kind: 'ELEMENT',
        role: 'unresolved',
        name: 'delete-everything',
        previewError: 'not found within 100 ms',
      },
    });
  });

  it('a policy rule denies by menu path, naming the rule', async () => {
    const denied = await run.agent.failure(
      'mutation { invokeMenuItem(path: ["Help", "About"]) { invoked } }',
    );
    expect(denied.code).toBe('POLICY_DENIED');
    expect(denied.message).toContain('no-help-menu');
  });

  it('a destructive context-menu item asks with its window; denied the menu stays open, approved it runs', async () => {
    await run.agent.data(
      'mutation { click(target: { testId: "context-target" }, button: RIGHT) { elapsedMs } }',
    );
    await expect
      .poll(
        async () => (await run.agent.data('{ session { contextMenu { windowId } } }')).session.contextMenu,
      )
      .not.toBeNull();
    const invoke = 'mutation { invokeContextMenuItem(path: ["Delete All Links"]) { invoked } }';
    const request = await askedAndDenied(invoke);
    expect(request).toMatchObject({
      operation: 'invokeContextMenuItem',
      risk: 'HIGH',
      target: { kind: 'CONTEXT_MENU_ITEM', role: 'menuitem', name: 'Delete All Links', windowId: 'w1' },
    });
    await statusLacks('Delete All Links');

    expect((await askedAndApproved(invoke)).invokeContextMenuItem).toEqual({ invoked: true });
    await statusIs('Context: Delete All Links');
  });

  it('clicking a destructively named tray asks; a harmless one does not', async () => {
    const tooltip = async (id: string) =>
      (await run.agent.data('{ session { trays { id tooltip } } }')).session.trays.find(
        (tray: Loose) => tray.id === id,
      ).tooltip;
    const invoke = 'mutation { invokeTray(tray: "t2", event: CLICK) { emitted tray { tooltip } } }';
    const request = await askedAndDenied(invoke);
    expect(request).toMatchObject({
      operation: 'invokeTray',
      risk: 'HIGH',
      target: { kind: 'TRAY', role: 'tray', name: 'Erase Cache', path: ['t2'] },
    });
    expect(await tooltip('t2')).toBe('Erase Cache');

    expect((await askedAndApproved(invoke)).invokeTray).toEqual({
      emitted: true,
      tray: { tooltip: 'Erase Cache (erased)' },
    });

    const before = answered.size;
    const harmless = await run.agent.data('mutation { invokeTray(tray: "t1", event: CLICK) { emitted } }');
    expect(harmless.invokeTray.emitted).toBe(true);
    expect(answered.size).toBe(before);
  });

  it('the audit records carry what was acted on', async () => {
    const { audit } = await run.agent.data(
      `{ audit(first: 500, filter: { operations: ["invokeMenuItem", "invokeContextMenuItem", "invokeTray"] }) {
         edges { node { operation decision outcome risk target { ${TARGET_FIELDS} } } } } }`,
    );
    const nodes = audit.edges.map((edge: Loose) => edge.node);
    expect(nodes).toContainEqual({
      operation: 'invokeMenuItem',
      decision: 'ASK',
      outcome: 'DENIED',
      risk: 'HIGH',
      target: { ...DELETE_ALL_NOTES, windowId: null },
    });
    expect(nodes).toContainEqual(
      expect.objectContaining({
        operation: 'invokeContextMenuItem',
        outcome: 'OK',
        target: expect.objectContaining({
          kind: 'CONTEXT_MENU_ITEM',
          name: 'Delete All Links',
          windowId: 'w1',
        }),
      }),
    );
    expect(nodes).toContainEqual(
      expect.objectContaining({
        operation: 'invokeTray',
        outcome: 'OK',
        risk: 'MEDIUM',
        target: expect.objectContaining({ kind: 'TRAY', name: 'Stagegraph Fixture' }),
      }),
    );
  });
});
