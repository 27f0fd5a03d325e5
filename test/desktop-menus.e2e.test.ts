import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { desktopSteps } from './helpers/desktop-steps.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { expectPidsGone } from './helpers/processes.js';

if (!DESKTOP_AVAILABLE) {
  describe.skip(`desktop menus as people have them (${desktopSkipReason})`, () => {
    it('trims menu labels and opens a modal dialog from a menu without freezing', () => {});
  });
}

/**
 * The GTK3 fixture's File > Save As...: a label padded as an Xfce editor's are, with a mnemonic and an
 * accelerator, whose handler runs a modal file chooser in a nested main loop — as editors do.
 */
describe.runIf(DESKTOP_AVAILABLE)('desktop menus as people have them', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let session: string;
  let appPid: number;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-menus-'));
  const { act, said } = desktopSteps(artifactsDir, () => ({ api, session }));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir }, [createAtspiTransport({ environment: withoutDesktop() })]);
    api = gatewayClient(gateway.url);
    const { launchDesktop } = await api.data(
      `mutation { launchDesktop(input: { command: "${SYSTEM_PYTHON}", args: ["${FIXTURE_APP}"], env: [{ name: "STAGEGRAPH_FIXTURE_ROWS", value: "5" }], timeoutMs: 90000 }) { id pid } }`,
    );
    session = launchDesktop.id;
    appPid = launchDesktop.pid;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('shows menu labels trimmed, without mnemonics, the accelerator in its own field', async () => {
    const { session: read } = await api.data(
      `{ session(id: "${session}") { applicationMenu { label submenu { label accelerator } } } }`,
    );
    const file = read.applicationMenu.find((item: Loose) => item.label === 'File');
    expect(file.submenu).toContainEqual({ label: 'Save As...', accelerator: 'Ctrl+Shift+S' });
    const { session: snapshot } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { snapshot { nodes { role name } } } } }`,
    );
    const names = snapshot.window.snapshot.nodes
      .filter((node: Loose) => node.role === 'menuitem')
      .map((node: Loose) => node.name);
    expect(names).toContain('Save As...');
    expect(names.filter((name: string) => name !== name.trim())).toEqual([]);
  });

  it('invokes Save As... by its label; the modal chooser is a window that reads and acts, and the session works after Cancel', async () => {
    const client = wsClient(gateway.wsUrl);
    const events = subscribe(
      client,
      parse(
        'subscription ($session: ID) { sessionEvents(session: $session) { type window { id title } } }',
      ) as TypedDocumentNode<Loose, Loose>,
      { session },
    );
    try {
      const { invokeMenuItem } = await act(
        `invokeMenuItem(session: "${session}", path: ["File", "Save As..."]) { invoked reason label }`,
      );
      expect(invokeMenuItem).toEqual({ invoked: true, reason: null, label: 'Save As...' });
      await said('save-as=open');
      const opened = await events.waitFor(
        (event) =>
          event.sessionEvents.type === 'WINDOW_OPENED' && event.sessionEvents.window.title === 'Save File',
        60_000,
      );
      const dialog = opened.sessionEvents.window.id;
      const { session: read } = await api.data(
        `{ session(id: "${session}") { windows { id title } window(id: "${dialog}") { snapshot(interactiveOnly: true) { nodes { role name } } } } }`,
      );
      expect(read.windows.map((window: Loose) => window.title)).toContain('Save File');
      expect(read.window.snapshot.nodes).toContainEqual({ role: 'button', name: 'Cancel' });
      await act(
        `click(session: "${session}", window: "${dialog}", target: { role: "button", name: "Cancel" }) { windowId }`,
      );
      await said('save-as=cancelled');
      await events.waitFor(
        (event) => event.sessionEvents.type === 'WINDOW_CLOSED' && event.sessionEvents.window.id === dialog,
        60_000,
      );
      await act(
        `click(session: "${session}", window: "w1", target: { role: "button", name: "Change later" }) { windowId }`,
      );
      await act(
        `expect(session: "${session}", window: "w1", kind: TEXT, target: { text: "Changed" }, equals: "Changed", timeoutMs: 30000) { actual }`,
      );
    } finally {
      events.dispose();
      await client.dispose();
    }
  });

  it('stops and leaves no process', async () => {
    await act(`stop(id: "${session}") { status }`);
    await expectPidsGone([appPid], 30_000);
  });
});
