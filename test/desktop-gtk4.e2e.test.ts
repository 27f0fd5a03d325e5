import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  GTK4_FIXTURE_APP,
  gtk4SkipReason,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { calculatorSteps, desktopSteps, launchDesktopApp, windowTitled } from './helpers/desktop-steps.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { expectPidsGone } from './helpers/processes.js';

/** Lines the app printed to stdout, as the session recorded them in its folder. */
if (gtk4SkipReason) {
  describe.skip(`a GTK4 app driven over AT-SPI (${gtk4SkipReason})`, () => {
    it('reads GTK4 states as GTK4 means them and clicks its buttons', () => {});
  });
}

/**
 * The GTK4/libadwaita calculator on a desktop the gateway owns, every step through GraphQL: GTK4 reports
 * SENSITIVE and VISIBLE but never ENABLED or SHOWING, and its controls must still read as enabled and shown.
 */
describe.skipIf(gtk4SkipReason !== '')('a GTK4 app driven over AT-SPI', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let session: string;
  let appPid: number;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-gtk4-'));
  const steps = desktopSteps(artifactsDir, () => ({ api, session }));
  const { act, said } = steps;
  const calculator = calculatorSteps(artifactsDir, () => ({ api, session }));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir }, [createAtspiTransport({ environment: withoutDesktop() })]);
    api = gatewayClient(gateway.url);
    ({ id: session, pid: appPid } = await launchDesktopApp(
      api,
      artifactsDir,
      SYSTEM_PYTHON,
      [GTK4_FIXTURE_APP],
      'toolkit=',
    ));
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('reads enabled, visible controls as such, and the insensitive one as disabled', async () => {
    const { session: read } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { title snapshot(interactiveOnly: true) { nodes { role name states } } } } }`,
    );
    expect(read.window.title).toBe('GTK4 Calculator');
    const nodes: Loose[] = read.window.snapshot.nodes;
    const button = (name: string) => nodes.find((node) => node.role === 'button' && node.name === name);
    for (const name of ['0', '1', '7', '+', '=', 'C', 'Main Menu']) {
      expect(button(name), `button "${name}"`).toBeDefined();
      expect(button(name)?.states, `button "${name}"`).not.toContain('DISABLED');
    }
    expect(button('Undo')?.states).toContain('DISABLED');
    await calculator.expectsStates();
  });

  it('adds 12 and 3 by clicking buttons by role and name, and refuses the disabled one', async () => {
    await calculator.addsTwelveAndThree();
    const { expect: shown } = await act(
      `expect(session: "${session}", kind: COUNT, target: { role: "text", name: "15" }, equals: "1", timeoutMs: 10000) { actual }`,
    );
    expect(shown.actual).toBe('1');
  });

  it('says why focus cannot work on GTK 4.8 instead of an empty PROTOCOL_ERROR', async () => {
    const response = await api.send(
      `mutation { focus(session: "${session}", target: { role: "button", name: "7", exact: true }) { windowId } }`,
    );
    // A GTK that implements Component.GrabFocus focuses the button; GTK 4.8 answers an error with no reason.
    if (response.errors) {
      expect(response.errors[0]?.extensions?.code).toBe('DESKTOP_ACTION_UNSUPPORTED');
      expect(response.errors[0]?.message).toMatch(/GTK 4\.\d+.*Component\.GrabFocus/);
      expect(response.errors[0]?.extensions?.hint).toMatch(/click|Tab/);
    }
  });

  it('opens the primary menu (a popover), reads its items and invokes one', async () => {
    const openMenu = () => steps.openMenu('Main Menu', 'About');
    await openMenu();
    const { session: read } = await api.data(
      `{ session(id: "${session}") { window(id: "w1") { snapshot(interactiveOnly: true) { nodes { role name } } } } }`,
    );
    const items = read.window.snapshot.nodes.filter((node: Loose) => node.role === 'menuitem');
    expect(items.map((node: Loose) => node.name)).toEqual(['Open File…', 'Clear', 'About']);
    const { session: popover } = await api.data(
      `{ session(id: "${session}") { contextMenu { items { label } } } }`,
    );
    expect(popover.contextMenu.items.map((item: Loose) => item.label)).toEqual([
      'Open File…',
      'Clear',
      'About',
    ]);
    await act(`click(session: "${session}", target: { role: "menuitem", name: "About" }) { windowId }`);
    await said('display=About');

    // Open File… opens a modal file chooser: a new window that reads and acts; Cancel answers it.
    await openMenu();
    await act(`click(session: "${session}", target: { role: "menuitem", name: "Open File…" }) { windowId }`);
    await said('dialog=open');
    const dialog = await windowTitled(api, session, 'Open File');
    // GTK 4.8 names a button with a mnemonic label by the label as written and as shown ("_Cancel Cancel");
    // a role's name matches whole, so the part shown is asked for with exact: false.
    await act(
      `click(session: "${session}", window: "${dialog}", target: { role: "button", name: "Cancel", exact: false }) { windowId }`,
    );
    await said('dialog=cancelled');
    await act(
      `click(session: "${session}", window: "w1", target: { role: "button", name: "C", exact: true }) { windowId }`,
    );
    await said('display=0');
  });

  it('stops and leaves no process', async () => {
    await act(`stop(id: "${session}") { status }`);
    await expectPidsGone([appPid], 30_000);
  });
});
