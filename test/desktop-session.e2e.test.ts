import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtspiTransport } from '../transports/atspi/atspi-transport.js';
import type { DesktopHost } from '../transports/atspi/desktop-host.js';
import { SessionEventsDocument } from './generated/graphql.js';
import {
  DESKTOP_AVAILABLE,
  type DesktopFixture,
  desktopSkipReason,
  FIXTURE_APP,
  SYSTEM_PYTHON,
  startDesktopFixture,
  startOnDesktop,
  withoutDesktop,
} from './helpers/desktop-fixture.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { childrenOf, commandLine, expectPidsGone, isAlive } from './helpers/processes.js';

const DESKTOP_COMMANDS = /Xvfb|dbus-daemon|at-spi-bus-launcher|at-spi2-registryd/;
const SESSION_FIELDS =
  'id status transport ownsProcess pid app { name executablePath } capabilityNotes capabilities { LAUNCH ATTACH INTERACTION SNAPSHOT SCREENSHOT NATIVE_UI WINDOWS INTERCEPT CLOCK MAIN_EVAL RENDERER_EVAL STORAGE CONSOLE DIALOGS INJECT }';
const DESKTOP_MATRIX = {
  LAUNCH: true,
  ATTACH: true,
  INTERACTION: true,
  SNAPSHOT: true,
  SCREENSHOT: true,
  NATIVE_UI: true,
  WINDOWS: true,
  INTERCEPT: false,
  CLOCK: false,
  MAIN_EVAL: false,
  RENDERER_EVAL: false,
  STORAGE: false,
  CONSOLE: false,
  DIALOGS: false,
  INJECT: false,
};

function environOf(pid: number): Map<string, string> {
  try {
    const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return new Map(
      entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
  } catch {
    return new Map();
  }
}

/**
 * The processes of the desktop a launched session started: every live process sharing the app's private
 * XDG_RUNTIME_DIR (the host gives Xvfb, both buses, the launcher and the registry that folder), the app included.
 */
function desktopProcessesOf(appPid: number): number[] {
  const runtimeDir = environOf(appPid).get('XDG_RUNTIME_DIR');
  expect(runtimeDir, 'the app runs with the desktop host runtime folder').toMatch(/stagegraph-desktop-/);
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => isAlive(pid) && environOf(pid).get('XDG_RUNTIME_DIR') === runtimeDir);
}

/** The desktop processes this test process started directly (the in-process gateway's hosts). */
function ownDesktopChildren(): number[] {
  return childrenOf(process.pid).filter((pid) => DESKTOP_COMMANDS.test(commandLine(pid).join(' ')));
}

if (!DESKTOP_AVAILABLE) {
  describe.skip(`desktop sessions over AT-SPI (${desktopSkipReason})`, () => {
    it('launches, attaches, lists and ends desktop apps end to end', () => {});
  });
}

describe.runIf(DESKTOP_AVAILABLE)('desktop sessions over AT-SPI, launched on a desktop of their own', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  const artifactsDir = mkdtempSync(join(tmpdir(), 'stagegraph-desktop-session-'));
  const launchDesktop = (input: Record<string, unknown>) =>
    api.send(
      `mutation ($input: LaunchDesktopInput!) { launchDesktop(input: $input) { ${SESSION_FIELDS} } }`,
      {
        input,
      },
    );

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir }, [createAtspiTransport({ environment: withoutDesktop() })]);
    api = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  });

  it('launches the fixture with both its windows, refuses what AT-SPI cannot do, and a kill -9 is a crash that leaves nothing', async () => {
    const response = await launchDesktop({ command: SYSTEM_PYTHON, args: [FIXTURE_APP], timeoutMs: 60_000 });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.launchDesktop;
    expect(session).toMatchObject({
      status: 'RUNNING',
      transport: 'atspi',
      ownsProcess: true,
      app: { name: 'app.py', executablePath: SYSTEM_PYTHON },
      capabilities: DESKTOP_MATRIX,
      capabilityNotes: [],
    });
    await expect
      .poll(
        async () =>
          (await api.data(`{ session(id: "${session.id}") { windows { id title url } } }`)).session.windows,
        {
          timeout: 30_000,
        },
      )
      .toEqual([
        {
          id: 'w1',
          title: 'Desktop Fixture',
          url: expect.stringMatching(/^atspi:\/\/:1\.\d+\/org\/a11y\/atspi\/accessible\//),
        },
        { id: 'w2', title: 'Inspector Panel', url: expect.stringMatching(/^atspi:\/\//) },
      ]);

    const clock = await api.failure(`{ session(id: "${session.id}") { clock { installed } } }`);
    expect(clock).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    const network = await api.failure(`mutation { startNetworkCapture(session: "${session.id}") { id } }`);
    expect(network).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });

    const desktop = desktopProcessesOf(session.pid);
    const commands = desktop.map((pid) => commandLine(pid).join(' '));
    expect(commands.join('\n')).toMatch(/Xvfb/);
    expect(commands.join('\n')).toMatch(/at-spi-bus-launcher/);
    expect(desktop).toContain(session.pid);

    process.kill(session.pid, 'SIGKILL');
    await expect
      .poll(
        async () => (await api.data(`{ session(id: "${session.id}") { status exit { signal } } }`)).session,
        {
          timeout: 30_000,
        },
      )
      .toEqual({ status: 'CRASHED', exit: { signal: 'SIGKILL' } });
    await expectPidsGone(desktop, 30_000);
  });

  it('stop ends the app and its desktop, and the output is in the session folder', async () => {
    const response = await launchDesktop({ command: SYSTEM_PYTHON, args: [FIXTURE_APP], timeoutMs: 60_000 });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.launchDesktop;
    const desktop = desktopProcessesOf(session.pid);
    const { stop } = await api.data(`mutation { stop(id: "${session.id}") { status } }`);
    expect(stop.status).toBe('STOPPED');
    await expectPidsGone(desktop, 30_000);
    expect(readFileSync(join(artifactsDir, session.id, 'stdout.log'), 'utf8')).toMatch(/^ready pid=\d+$/m);
  });

  it('answers a missing command with LAUNCH_FAILED and a hint, leaving no desktop behind', async () => {
    const before = ownDesktopChildren();
    const failure = await api.failure(
      'mutation { launchDesktop(input: { command: "/nonexistent/stagegraph-app", timeoutMs: 30000 }) { id } }',
    );
    expect(failure).toMatchObject({ code: 'LAUNCH_FAILED', hint: expect.stringContaining('PATH') });
    expect(failure.message).toContain('ENOENT');
    await expect.poll(() => ownDesktopChildren(), { timeout: 30_000 }).toEqual(before);
  });

  it('forceKill ends the app and its desktop at once', async () => {
    const response = await launchDesktop({ command: SYSTEM_PYTHON, args: [FIXTURE_APP], timeoutMs: 60_000 });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.launchDesktop;
    const desktop = desktopProcessesOf(session.pid);
    const { forceKill } = await api.data(
      `mutation { forceKill(id: "${session.id}") { status exit { signal } } }`,
    );
    expect(forceKill).toEqual({ status: 'STOPPED', exit: { signal: 'SIGKILL' } });
    await expectPidsGone(desktop, 30_000);
  });

  it('answers a command that never shows an accessible window with LAUNCH_TIMEOUT, leaving nothing behind', async () => {
    const before = ownDesktopChildren();
    // A duration no other run uses, so the check below finds this run's sleeper and no one else's.
    const seconds = (600 + process.pid / 1e7).toFixed(7);
    // The budget covers starting the desktop too: generous, so a loaded machine still reaches the app's wait.
    const failure = await api.failure(
      `mutation { launchDesktop(input: { command: "/bin/sleep", args: ["${seconds}"], timeoutMs: 20000 }) { id } }`,
    );
    expect(failure).toMatchObject({ code: 'LAUNCH_TIMEOUT', details: { command: '/bin/sleep' } });
    await expect.poll(() => ownDesktopChildren(), { timeout: 30_000 }).toEqual(before);
    const sleeper = readdirSync('/proc').find(
      (pid) => /^\d+$/.test(pid) && commandLine(Number(pid)).join(' ') === `/bin/sleep ${seconds}`,
    );
    expect(sleeper).toBeUndefined();
  });

  it('answers attachDesktop and desktopApps with DESKTOP_UNAVAILABLE when the server runs on no desktop', async () => {
    for (const operation of [
      '{ desktopApps { name } }',
      'mutation { attachDesktop(input: { appName: "app.py" }) { id } }',
    ]) {
      const failure = await api.failure(operation);
      expect(failure, operation).toMatchObject({
        code: 'DESKTOP_UNAVAILABLE',
        hint: expect.stringContaining('launchDesktop'),
      });
    }
  });
});

describe.runIf(DESKTOP_AVAILABLE)('desktop sessions over AT-SPI, on the current desktop', () => {
  let fixture: DesktopFixture;
  let host: DesktopHost;
  let appPid: number;
  let gateway: RunningGateway;
  let api: GatewayClient;
  let client: Client;
  const attachDesktop = (input: string) =>
    api.send(`mutation { attachDesktop(input: ${input}) { ${SESSION_FIELDS} windows { id title } } }`);

  beforeAll(async () => {
    fixture = await startDesktopFixture({ timeoutMs: 60_000 });
    ({ host, pid: appPid } = fixture);
    // The gateway runs on the test's desktop, as it would on a user's.
    gateway = await startGateway({}, [
      createAtspiTransport({ environment: { ...withoutDesktop(), ...host.env } }),
    ]);
    api = gatewayClient(gateway.url);
    client = wsClient(gateway.wsUrl);
  }, 180_000);

  afterAll(async () => {
    await client?.dispose();
    await gateway?.stop();
    await fixture?.stop();
  });

  it('lists the desktop apps with their pids and window titles', async () => {
    await expect
      .poll(async () => (await api.data('{ desktopApps { name pid busName windowTitles } }')).desktopApps, {
        timeout: 30_000,
      })
      .toContainEqual({
        name: 'app.py',
        pid: appPid,
        busName: expect.stringMatching(/^:1\.\d+$/),
        windowTitles: ['Desktop Fixture', 'Inspector Panel'],
      });
  });

  it('attaches by pid and lets go, leaving the app running', async () => {
    const response = await attachDesktop(`{ pid: ${appPid}, timeoutMs: 30000 }`);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.attachDesktop;
    expect(session).toMatchObject({
      status: 'RUNNING',
      transport: 'atspi',
      ownsProcess: false,
      pid: appPid,
      capabilities: DESKTOP_MATRIX,
      windows: [
        { id: 'w1', title: 'Desktop Fixture' },
        { id: 'w2', title: 'Inspector Panel' },
      ],
    });
    const stop = await api.failure(`mutation { stop(id: "${session.id}") { id } }`);
    expect(stop.code).toBe('NOT_OWNED');
    const { detach } = await api.data(`mutation { detach(id: "${session.id}") { status } }`);
    expect(detach.status).toBe('DETACHED');
    expect(isAlive(appPid)).toBe(true);
  });

  it('attaches by name and announces the modal dialog the app opens as a new window', async () => {
    const response = await attachDesktop('{ appName: "app.py", timeoutMs: 30000 }');
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const session = response.data.attachDesktop;
    const live = subscribe(client, SessionEventsDocument, { session: session.id });
    // The window is announced from the app's own signals, before anything reads the dialog.
    const clicking = api.send(
      `mutation { click(session: "${session.id}", target: { role: "button", name: "Show dialog" }) { windowId } }`,
    );
    const opened = await live.waitFor(
      (event) => event.sessionEvents.type === 'WINDOW_OPENED' && event.sessionEvents.window?.id === 'w3',
      60_000,
    );
    // GTK names a message dialog by its kind (Question), not by its title.
    expect(opened.sessionEvents.window?.title).toMatch(/Question|Confirm/);
    expect(opened.sessionEvents.window?.url).toMatch(/^atspi:\/\/:1\.\d+\/org\/a11y\/atspi\/accessible\//);
    const clicked = await clicking;
    expect(clicked.errors, JSON.stringify(clicked.errors)).toBeUndefined();
    live.dispose();
    const { detach } = await api.data(`mutation { detach(id: "${session.id}") { status } }`);
    expect(detach.status).toBe('DETACHED');
  });

  it('is DISCONNECTED when an attached app leaves the registry (killed by someone else)', async () => {
    // An app of its own: the other one is left showing its modal dialog.
    const other = await startOnDesktop(host);
    try {
      const response = await attachDesktop(`{ pid: ${other.pid}, timeoutMs: 30000 }`);
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      const session = response.data.attachDesktop;
      process.kill(other.pid, 'SIGKILL');
      await expect
        .poll(async () => (await api.data(`{ session(id: "${session.id}") { status } }`)).session.status)
        .toBe('DISCONNECTED');
    } finally {
      other.stop();
    }
  });

  it('says INTERACTION is false, and why, on a Wayland desktop with no X display, and refuses actions first', async () => {
    const { DISPLAY: _display, ...busOnly } = host.env;
    const other = await startOnDesktop(host);
    const wayland = await startGateway({}, [
      createAtspiTransport({
        environment: { ...withoutDesktop(), ...busOnly, WAYLAND_DISPLAY: 'wayland-0' },
      }),
    ]);
    try {
      const waylandApi = gatewayClient(wayland.url);
      const { attachDesktop } = await waylandApi.data(
        `mutation { attachDesktop(input: { pid: ${other.pid}, timeoutMs: 30000 }) { ${SESSION_FIELDS} } }`,
      );
      expect(attachDesktop).toMatchObject({
        status: 'RUNNING',
        capabilities: { ...DESKTOP_MATRIX, INTERACTION: false },
        capabilityNotes: [expect.stringContaining('Wayland')],
      });
      const click = await waylandApi.failure(
        `mutation { focus(session: "${attachDesktop.id}", target: { role: "textbox", name: "Name" }) { windowId } }`,
      );
      expect(click.code).toBe('CAPABILITY_UNSUPPORTED');
    } finally {
      await wayland.stop();
      other.stop();
    }
  });

  it('answers a pid with no accessible app with DESKTOP_APP_NOT_FOUND and where to look', async () => {
    const failure = await api.failure(
      `mutation { attachDesktop(input: { pid: ${process.pid}, timeoutMs: 1000 }) { id } }`,
    );
    expect(failure).toMatchObject({
      code: 'DESKTOP_APP_NOT_FOUND',
      nextActions: ['query { desktopApps { name pid windowTitles } }'],
    });
  });
});
