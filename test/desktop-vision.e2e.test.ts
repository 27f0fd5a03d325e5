import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import { desktopSkipReason, SYSTEM_PYTHON, withoutDesktop } from './helpers/desktop-fixture.js';
import { appSaid } from './helpers/desktop-steps.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';

const DRAWING_APP = fileURLToPath(new URL('../fixtures/desktop-app/drawing_app.py', import.meta.url));
/** The fixture paints with cairo through PyGObject, which needs its cairo bridge (Debian: python3-gi-cairo). */
const skipReason =
  desktopSkipReason ||
  (spawnSync(SYSTEM_PYTHON, ['-c', 'import gi; gi.require_foreign("cairo")']).status === 0
    ? ''
    : `${SYSTEM_PYTHON} has no cairo bridge for gi (Debian: python3-gi-cairo)`);

if (skipReason) {
  describe.skip(`the vision tier on a GTK drawing area (${skipReason})`, () => {
    it('reads and clicks painted buttons', () => {});
  });
}

/**
 * Issue 37 on the desktop: a GTK3 window whose buttons are painted on a Gtk.DrawingArea, so its tree names
 * none of them. Over AT-SPI, the text index reads them from the window's X pixels, and an `ocr:` click lands
 * on the painted button through the X pointer; the app prints what it was hit at.
 */
describe.skipIf(skipReason !== '')('the vision tier on a GTK drawing area', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let session: string;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-vision-'));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir, policyFile: UNATTENDED_POLICY }, [
      createAtspiTransport({ environment: withoutDesktop() }),
    ]);
    api = gatewayClient(gateway.url);
    const { launchDesktop } = await api.data(
      `mutation { launchDesktop(input: { command: "${SYSTEM_PYTHON}", args: ["${DRAWING_APP}"], timeoutMs: 90000 }) { id } }`,
    );
    session = launchDesktop.id;
    await vi.waitFor(
      () => {
        if (!appSaid(artifactsDir, session).includes('ready')) throw new Error('not up');
      },
      { timeout: 30_000 },
    );
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('lists the painted labels, none of which the tree names', async () => {
    const { window } = (
      await api.data(`{ session(id: "${session}") { window { snapshot { nodes { name } }
        textIndex(minConfidence: 80) { words { text bbox { x y width height } } } } } }`)
    ).session;
    const words = window.textIndex.words.map((w: Loose) => w.text);
    expect(words).toEqual(expect.arrayContaining(['Open', 'Export', 'Delete']));
    const names = window.snapshot.nodes.map((n: Loose) => n.name);
    expect(names).not.toContain('Export');
  });

  it('clicks the painted "Export" found by OCR, and the app says it was hit there', async () => {
    const { click } = await api.data(
      `mutation { click(session: "${session}", target: { query: "ocr:'Export'" }) { resolvedBy { strategy confidence } } }`,
    );
    expect(click.resolvedBy).toEqual({ strategy: 'OCR', confidence: 'OCR' });
    await vi.waitFor(
      () => {
        if (!appSaid(artifactsDir, session).includes('clicked Export')) throw new Error('not clicked yet');
      },
      { timeout: 30_000 },
    );
  });
});
