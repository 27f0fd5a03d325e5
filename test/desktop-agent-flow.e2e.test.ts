import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { desktopSteps } from './helpers/desktop-steps.js';
import { type RunningGateway, type Subscription, startGateway, subscribe } from './helpers/gateway.js';
import type { Loose } from './helpers/gateway-client.js';
import {
  AGENT_TOKEN,
  APPROVER_TOKEN,
  nextPendingApproval,
  type TokenClient,
  tokenClient,
} from './helpers/governed-gateway.js';
import { expectPidsGone } from './helpers/processes.js';

function document(source: string): TypedDocumentNode<Loose, Loose> {
  return parse(source) as TypedDocumentNode<Loose, Loose>;
}

/** Lines the app printed to stdout, as the session recorded them in its folder. */
if (!DESKTOP_AVAILABLE) {
  describe.skip(`an agent drives a desktop app over AT-SPI (${desktopSkipReason})`, () => {
    it('reads, fills, toggles, selects, opens a dialog, waits, invokes menus and captures', () => {});
  });
}

/**
 * What an agent does with a desktop app, every step through the running server: the same fields it uses on
 * Electron windows — snapshot, targets by role and name, actions, expectations, the application menu,
 * session events, snapshot changes and screenshots — on the GTK fixture, on a desktop the gateway owns.
 */
describe.runIf(DESKTOP_AVAILABLE)('an agent drives a desktop app over AT-SPI', () => {
  let gateway: RunningGateway;
  let api: TokenClient;
  let approver: TokenClient;
  let approvals: Subscription<Loose>;
  let client: Client;
  let session: string;
  let appPid: number;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-flow-'));
  const { act, said } = desktopSteps(artifactsDir, () => ({ api, session }));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir, token: AGENT_TOKEN, approverToken: APPROVER_TOKEN }, [
      createAtspiTransport({ environment: withoutDesktop() }),
    ]);
    api = tokenClient(gateway, AGENT_TOKEN);
    client = api.ws;
    approver = tokenClient(gateway, APPROVER_TOKEN);
    approvals = approver.watch(
      'subscription { approvalRequests { state request { id operation risk reasons target { kind role name path bbox { width } } } } }',
    );
    await vi.waitFor(
      () => {
        if (gateway.gateway.governance?.broker.approverCount !== 1)
          throw new Error('no approver watching yet');
      },
      { timeout: 30_000 },
    );
    const { launchDesktop } = await api.data(
      `mutation { launchDesktop(input: { command: "${SYSTEM_PYTHON}", args: ["${FIXTURE_APP}"], timeoutMs: 90000 }) { id pid } }`,
    );
    session = launchDesktop.id;
    appPid = launchDesktop.pid;
  }, 180_000);

  afterAll(async () => {
    approvals?.dispose();
    await Promise.all([api?.ws.dispose(), approver?.ws.dispose()]);
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('reads the form as a snapshot with roles, names, AT-SPI paths and a redacted password', async () => {
    const { session: read } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { snapshot(interactiveOnly: true) { nodes { ref role name value atspiRole atspiPath } } } } }`,
    );
    const nodes: Loose[] = read.window.snapshot.nodes;
    const named = (role: string, name: string) =>
      nodes.find((node) => node.role === role && node.name === name);
    for (const [role, name] of [
      ['textbox', 'Name'],
      ['textbox', 'Password'],
      ['checkbox', 'Subscribe'],
      ['combobox', 'Colour'],
      ['spinbutton', 'Quantity'],
      ['button', 'Submit'],
      ['button', 'Show dialog'],
      ['button', 'Change later'],
    ]) {
      expect(named(role!, name!), `${role} "${name}"`).toMatchObject({
        ref: expect.any(String),
        atspiRole: expect.any(String),
        atspiPath: expect.stringMatching(/^\/org\/a11y\/atspi\/accessible\//),
      });
    }
    expect(named('combobox', 'Colour')?.value).toBe('Red');
    const rows = nodes.filter((node) => /^Row \d+$/.test(node.name));
    expect(rows.length).toBe(1000);
    // Nothing is edited yet: File > Save is disabled, and refused as Electron's menus refuse it.
    const { invokeMenuItem: refused } = await act(
      `invokeMenuItem(session: "${session}", path: ["File", "Save"]) { invoked reason }`,
    );
    expect(refused).toEqual({ invoked: false, reason: 'DISABLED' });
  });

  it('fills, toggles, selects and submits the form, the app seeing each change', async () => {
    await act(
      `fill(session: "${session}", target: { role: "textbox", name: "Name" }, value: "Ada") { windowId }`,
    );
    await said('name=Ada');
    await act(
      `fill(session: "${session}", target: { role: "textbox", name: "Password" }, value: "hunter2", secret: true) { windowId }`,
    );
    await act(
      `setChecked(session: "${session}", target: { role: "checkbox", name: "Subscribe" }, checked: true) { windowId }`,
    );
    await said('subscribe=True');
    await act(
      `selectOption(session: "${session}", target: { role: "combobox", name: "Colour" }, labels: ["Green"]) { windowId }`,
    );
    await said('colour=Green');
    // "Submit" is a destructive word to the default policy: the desktop click asks, as a page's would.
    const submitting = api.send(
      `mutation { click(session: "${session}", target: { role: "button", name: "Submit" }) { windowId } }`,
    );
    const request = await nextPendingApproval(approvals, new Set());
    expect(request).toMatchObject({
      operation: 'click',
      risk: 'HIGH',
      target: {
        kind: 'ELEMENT',
        role: 'button',
        name: 'Submit',
        path: [expect.stringMatching(/^\/org\/a11y\/atspi\/accessible\//)],
        bbox: { width: expect.any(Number) },
      },
    });
    await approver.data(`mutation { approve(id: "${request.id}") { status } }`);
    expect((await submitting).errors).toBeUndefined();
    await said('status=Submitted Ada');
    const { session: read } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { snapshot(interactiveOnly: true) { nodes { role name value } } } } }`,
    );
    const password = read.window.snapshot.nodes.find((node: Loose) => node.name === 'Password');
    expect(password.value).not.toContain('hunter2');
  });

  it('waits for the label that changes later, woken by the app, and a wrong expectation fails with its code', async () => {
    await act(`click(session: "${session}", target: { role: "button", name: "Change later" }) { windowId }`);
    const { expect: reached } = await act(
      `expect(session: "${session}", kind: TEXT, target: { text: "Changed" }, equals: "Changed", timeoutMs: 30000) { actual }`,
    );
    expect(reached.actual).toBe('Changed');
    const failure = await api.failure(
      `mutation { expect(session: "${session}", kind: TEXT, target: { text: "Changed" }, equals: "Never", timeoutMs: 1000) { actual } }`,
    );
    expect(failure.code).toBe('EXPECTATION_FAILED');
  });

  it('reads the menu bar, refuses Save while disabled and invokes it after an edit', async () => {
    const { session: read } = await api.data(
      `{ session(id: "${session}") { applicationMenu { label type enabled submenu { label type enabled checked } } } }`,
    );
    expect(read.applicationMenu.map((item: Loose) => item.label)).toEqual(['File', 'View', 'Help']);
    expect(read.applicationMenu[1].submenu).toEqual([
      { label: 'Show Status', type: 'CHECKBOX', enabled: true, checked: true },
    ]);
    // The Name field was edited above, so Save is enabled now; Delete All is the destructive neighbour.
    const { invokeMenuItem: saved } = await act(
      `invokeMenuItem(session: "${session}", path: ["File", "Save"]) { invoked reason }`,
    );
    expect(saved).toEqual({ invoked: true, reason: null });
    await said('status=Saved');
    const { invokeMenuItem: missing } = await act(
      `invokeMenuItem(session: "${session}", path: ["File", "Nope"]) { invoked reason }`,
    );
    expect(missing).toEqual({ invoked: false, reason: 'NOT_FOUND' });
    const trays = await api.failure(`{ session(id: "${session}") { trays { id } } }`);
    expect(trays).toMatchObject({
      code: 'CAPABILITY_UNSUPPORTED',
      message: expect.stringContaining('StatusNotifierItem'),
    });
  });

  it('announces the modal dialog as a window, and its OK button answers it', async () => {
    const events = subscribe(
      client,
      document(
        'subscription ($session: ID) { sessionEvents(session: $session) { type window { id title } } }',
      ),
      { session },
    );
    try {
      await act(`click(session: "${session}", target: { role: "button", name: "Show dialog" }) { windowId }`);
      const opened = await events.waitFor((event) => event.sessionEvents.type === 'WINDOW_OPENED', 60_000);
      const dialog = opened.sessionEvents.window.id;
      await act(
        `click(session: "${session}", window: "${dialog}", target: { role: "button", name: "OK" }) { windowId }`,
      );
      await said('status=Confirmed');
      await events.waitFor(
        (event) => event.sessionEvents.type === 'WINDOW_CLOSED' && event.sessionEvents.window.id === dialog,
        60_000,
      );
    } finally {
      events.dispose();
    }
  });

  it('streams a snapshot change when a field changes', async () => {
    const changes = subscribe(
      client,
      document(
        'subscription ($session: ID) { snapshotChanges(session: $session, window: "w1") { windowId diff { outline } } }',
      ),
      { session },
    );
    try {
      // The first diff is against the window as the subscription found it, and nothing says when it has
      // found it: fill Name with a new value each time (never one it had, so no edit undoes another), each
      // a change the app confirms, until a diff has come.
      for (let edit = 1; edit <= 200 && changes.received.length === 0; edit++) {
        await act(
          `fill(session: "${session}", target: { role: "textbox", name: "Name" }, value: "Edit ${edit}") { windowId }`,
        );
        await said(`name=Edit ${edit}`);
      }
      const change = await changes.waitFor((event) => event.snapshotChanges.windowId === 'w1', 60_000);
      expect(change.snapshotChanges.diff.outline).not.toBe('');
    } finally {
      changes.dispose();
    }
  });

  it('captures the window and an element as PNGs of their own size', async () => {
    const { session: read } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { screenshot { format width height base64 } } } }`,
    );
    const shot = read.window.screenshot;
    const image = PNG.sync.read(Buffer.from(shot.base64, 'base64'));
    expect([image.width, image.height]).toEqual([shot.width, shot.height]);
    expect(shot.width).toBeGreaterThan(300);
    const colours = new Set<number>();
    for (let offset = 0; offset < image.data.length; offset += 4 * 97)
      colours.add(image.data.readUInt32BE(offset));
    expect(colours.size).toBeGreaterThan(2);
    const { session: element } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { screenshot(target: { role: "button", name: "Submit" }) { width height base64 } } } }`,
    );
    const button = PNG.sync.read(Buffer.from(element.window.screenshot.base64, 'base64'));
    expect(button.width).toBeLessThan(shot.width);
    expect(button.width).toBe(element.window.screenshot.width);
  });

  it('records every desktop action in the audit with its target, and stop leaves no process', async () => {
    const { audit } = await api.data(
      `{ audit(first: 500, filter: { sessionId: "${session}", operations: ["click"] }) { edges { node { target { role name bbox { width } path } } } } }`,
    );
    const submit = audit.edges.find((edge: Loose) => edge.node.target?.name === 'Submit')?.node;
    expect(submit?.target).toMatchObject({
      role: 'button',
      bbox: { width: expect.any(Number) },
      path: [expect.stringMatching(/^\/org\/a11y\/atspi\/accessible\//)],
    });
    await act(`stop(id: "${session}") { status }`);
    await expectPidsGone([appPid], 30_000);
  });
});
