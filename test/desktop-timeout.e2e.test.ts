import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import { ATSPI_CALL_TIMEOUT_MS } from '../transports/atspi/bus/atspi-bus.js';
import {
  DESKTOP_AVAILABLE,
  desktopSkipReason,
  SYSTEM_PYTHON,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';

/** A GTK3 window whose Freeze button blocks the app's main loop for FREEZE_S seconds, then answers again. */
const FREEZE_S = Math.ceil(ATSPI_CALL_TIMEOUT_MS / 1000) + 8;
const FREEZING_APP = `
import os, time, gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
window = Gtk.Window(title="Freezer")
button = Gtk.Button(label="Freeze")
button.connect("clicked", lambda _b: time.sleep(${FREEZE_S}))
window.add(button)
window.connect("destroy", Gtk.main_quit)
window.show_all()
print(f"ready pid={os.getpid()}", flush=True)
Gtk.main()
`;

if (!DESKTOP_AVAILABLE) {
  describe.skip(`a desktop app that stops answering (${desktopSkipReason})`, () => {
    it('answers DESKTOP_TIMEOUT with a desktop hint', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('a desktop app that stops answering', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let session: string;

  beforeAll(async () => {
    gateway = await startGateway({}, [createAtspiTransport({ environment: withoutDesktop() })]);
    api = gatewayClient(gateway.url);
    const { launchDesktop } = await api.data(
      `mutation ($script: String!) { launchDesktop(input: { command: "${SYSTEM_PYTHON}", args: ["-c", $script], timeoutMs: 90000 }) { id } }`,
      { script: FREEZING_APP },
    );
    session = launchDesktop.id;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers DESKTOP_TIMEOUT naming the method, with a desktop hint (no DevTools wording), and works once the app answers again', async () => {
    await api.data(
      `mutation { click(session: "${session}", target: { role: "button", name: "Freeze" }) { windowId } }`,
    );
    const failure = await api.failure(
      `{ session(id: "${session}") { window(id: "w1") { snapshot { outline } } } }`,
    );
    expect(failure).toMatchObject({ code: 'DESKTOP_TIMEOUT', retryable: true });
    expect(failure.message).toMatch(/^[A-Za-z]+\.[A-Za-z]+: no answer within \d+ ms/);
    expect(failure.hint).not.toMatch(/debugger|discover|DevTools/);
    await expect
      .poll(
        async () =>
          (await api.send(`{ session(id: "${session}") { window(id: "w1") { snapshot { outline } } } }`)).data
            ?.session?.window?.snapshot?.outline ?? '',
        { timeout: 60_000, interval: 1000 },
      )
      .toContain('Freeze');
  }, 120_000);
});
