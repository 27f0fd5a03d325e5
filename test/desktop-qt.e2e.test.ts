import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import {
  QT_BINDINGS,
  QT_FIXTURE_APP,
  qtSkipReason,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { calculatorSteps, desktopSteps, launchDesktopApp, windowTitled } from './helpers/desktop-steps.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { expectPidsGone } from './helpers/processes.js';

for (const binding of QT_BINDINGS) {
  const skipReason = qtSkipReason(binding);
  if (skipReason) {
    describe.skip(`a Qt app (${binding}) driven over AT-SPI (${skipReason})`, () => {
      it('registers on the owned desktop, reads its states and clicks its buttons', () => {});
    });
  }

  /**
   * The Qt Widgets calculator on a desktop the gateway owns, every step through GraphQL: Qt registers only
   * once it reached the accessibility bus (its address on the root window), reports ENABLED and SENSITIVE,
   * VISIBLE and SHOWING as AT-SPI means them, and leaves a closed menu's items neither VISIBLE nor SHOWING.
   */
  describe.skipIf(skipReason !== '')(`a Qt app (${binding}) driven over AT-SPI`, () => {
    let gateway: RunningGateway;
    let api: GatewayClient;
    let session: string;
    let appPid: number;
    const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-qt-'));
    const steps = desktopSteps(artifactsDir, () => ({ api, session }));
    const { act, said } = steps;
    const calculator = calculatorSteps(artifactsDir, () => ({ api, session }));
    const snapshot = async (): Promise<Loose[]> => {
      const { session: read } = await api.data(
        `{ session(id: "${session}") { window(id: "w1") { title snapshot(interactiveOnly: true) { nodes { role name states } } } } }`,
      );
      expect(read.window.title).toBe('Qt Calculator');
      return read.window.snapshot.nodes;
    };

    beforeAll(async () => {
      gateway = await startGateway({ artifactsDir }, [
        createAtspiTransport({ environment: withoutDesktop() }),
      ]);
      api = gatewayClient(gateway.url);
      ({ id: session, pid: appPid } = await launchDesktopApp(
        api,
        artifactsDir,
        SYSTEM_PYTHON,
        [QT_FIXTURE_APP, binding],
        'ready',
      ));
    }, 180_000);

    afterAll(async () => {
      await gateway?.stop();
      rmSync(artifactsDir, { recursive: true, force: true });
    });

    it('reads enabled, visible controls as such, the disabled one as disabled, the check box as checked', async () => {
      const nodes = await snapshot();
      const node = (role: string, name: string) =>
        nodes.find((found) => found.role === role && found.name === name);
      for (const name of ['0', '1', '7', '+', '=', 'C']) {
        expect(node('button', name), `button "${name}"`).toBeDefined();
        expect(node('button', name)?.states, `button "${name}"`).not.toContain('DISABLED');
      }
      expect(node('button', 'Undo')?.states).toContain('DISABLED');
      expect(node('checkbox', 'Round results')?.states).toContain('CHECKED');
      expect(node('textbox', 'Memo')?.states).toEqual([]);
      await calculator.expectsStates();
    });

    it('adds 12 and 3 by clicking buttons by role and name, and refuses the disabled one', () =>
      calculator.addsTwelveAndThree());

    it('says why focus fails while its window is not active', async () => {
      // The owned desktop has no window manager to activate the window, and Qt focuses only in an active one.
      const refused = await api.failure(
        `mutation { focus(session: "${session}", target: { role: "textbox", name: "Memo" }) { windowId } }`,
      );
      expect(refused.code).toBe('DESKTOP_ACTION_UNSUPPORTED');
      expect(refused.message).toMatch(/Qt \d+\.\d+.*Component\.GrabFocus.*active window/);
      expect(refused.hint).toMatch(/click/);
    });

    it('unchecks the check box, fills the line edit and types into it, each confirmed by the app', async () => {
      await act(
        `click(session: "${session}", target: { role: "checkbox", name: "Round results" }) { windowId }`,
      );
      await said('round=False');
      const unchecked = (await snapshot()).find((found) => found.name === 'Round results');
      expect(unchecked?.states).not.toContain('CHECKED');
      await act(
        `fill(session: "${session}", target: { role: "textbox", name: "Memo" }, value: "Hello Qt") { windowId }`,
      );
      await said('memo=Hello Qt');
      // Typed keys go through the X server and count only once the line edit's text shows them.
      await act(
        `type(session: "${session}", target: { role: "textbox", name: "Memo" }, text: " again") { windowId }`,
      );
      await said('memo=Hello Qt again');
    });

    it('reads the menu bar with trimmed labels, invokes an item, and a modal dialog from a menu reads and closes', async () => {
      const { session: read } = await api.data(
        `{ session(id: "${session}") { applicationMenu { label submenu { label accelerator } } } }`,
      );
      expect(read.applicationMenu.map((item: Loose) => item.label)).toEqual(['File', 'Help']);
      expect(read.applicationMenu[0].submenu).toContainEqual({ label: 'Open File…', accelerator: 'Ctrl+O' });
      const { invokeMenuItem: about } = await act(
        `invokeMenuItem(session: "${session}", path: ["Help", "About"]) { invoked reason label }`,
      );
      expect(about).toEqual({ invoked: true, reason: null, label: 'About' });
      await said('display=About');

      // Open File… runs a modal dialog in a nested event loop: the invoke answers, the dialog is a window.
      await act(`invokeMenuItem(session: "${session}", path: ["File", "Open File…"]) { invoked }`);
      await said('dialog=open');
      const dialog = await windowTitled(api, session, 'Open File');
      await act(
        `click(session: "${session}", window: "${dialog}", target: { role: "button", name: "Cancel" }) { windowId }`,
      );
      await said('dialog=cancelled');
      await act(
        `click(session: "${session}", window: "w1", target: { role: "button", name: "C", exact: true }) { windowId }`,
      );
      await said('display=0');
    });

    it('opens the "⋮" tool button\'s menu (a popup no window lists), reads its items and invokes them', async () => {
      const openMenu = () => steps.openMenu('Main Menu', 'Show Pi');
      await openMenu();
      const items = (await snapshot()).filter((node) => node.role === 'menuitem');
      // The menu bar's two (their closed menus' items not on screen), then the open menu's, read as the
      // window's last children.
      expect(items.map((node) => node.name)).toEqual(['File', 'Help', 'Show Pi', 'Show Answer']);
      const { session: popup } = await api.data(
        `{ session(id: "${session}") { contextMenu { items { label } } } }`,
      );
      expect(popup.contextMenu.items.map((item: Loose) => item.label)).toEqual(['Show Pi', 'Show Answer']);
      await act(`click(session: "${session}", target: { role: "menuitem", name: "Show Pi" }) { windowId }`);
      await said('display=3.14');
      // Clicked as a person clicks, the item closed its menu: it is no longer on screen.
      await act(
        `expect(session: "${session}", kind: HIDDEN, target: { role: "menuitem", name: "Show Answer" }, timeoutMs: 10000) { actual }`,
      );
      await openMenu();
      await act(
        `click(session: "${session}", target: { role: "menuitem", name: "Show Answer" }) { windowId }`,
      );
      await said('display=42');
    });

    it("opens the display's context menu with a right click, reads it and invokes its items", async () => {
      const openMenu = async () => {
        await act(
          `click(session: "${session}", target: { role: "text", name: "42" }, button: RIGHT) { windowId }`,
        );
        await expect
          .poll(
            async () => {
              const { session: read } = await api.data(
                `{ session(id: "${session}") { contextMenu { items { label } } } }`,
              );
              return read.contextMenu?.items.map((item: Loose) => item.label) ?? null;
            },
            { timeout: 30_000 },
          )
          .toEqual(['Copy Result', 'Double']);
      };
      await openMenu();
      await said('context-menu=open');
      const { invokeContextMenuItem: copied } = await act(
        `invokeContextMenuItem(session: "${session}", path: ["Copy Result"]) { invoked reason label }`,
      );
      expect(copied).toEqual({ invoked: true, reason: null, label: 'Copy Result' });
      await said('copied=42');
      await said('context-menu=closed');
      await openMenu();
      await act(`invokeContextMenuItem(session: "${session}", path: ["Double"]) { invoked }`);
      await said('display=84');
    });

    it('focuses a button and the line edit once its window is active', async () => {
      // The pointer's clicks into the window above (the "⋮" button, the right click) activated it.
      for (const [role, name] of [
        ['button', '7'],
        ['textbox', 'Memo'],
      ]) {
        await act(
          `focus(session: "${session}", target: { role: "${role}", name: "${name}", exact: true }) { windowId }`,
        );
        await expect
          .poll(
            async () =>
              (await snapshot()).find((node) => node.role === role && node.name === name)?.states ?? [],
            { timeout: 30_000 },
          )
          .toContain('FOCUSED');
      }
    });

    it('stops and leaves no process', async () => {
      await act(`stop(id: "${session}") { status }`);
      await expectPidsGone([appPid], 30_000);
    });
  });
}
