import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPortsOf } from '../transports/process/proc-sockets.js';
import {
  ClickDocument,
  InteractiveNodesDocument,
  SessionEventsDocument,
  SessionWindowsDocument,
} from './generated/graphql.js';
import { startCaptureServer } from './helpers/capture-app.js';
import { type OutsideProcess, startFixtureOutside } from './helpers/debuggable.js';
import type { Loose } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

const ATTACH_POLICY = fileURLToPath(new URL('./attach.policy.yaml', import.meta.url));
describe('inject into the fixture app, started on the stand-in without any debugging flag', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>;
  let app: OutsideProcess;
  let gateway: RunningGateway;
  let client: Client;
  let session: string;
  let api: GatewayClient;
  const send = (query: string) => api.send(query);
  const data = (query: string) => api.data(query);
  const failure = (query: string) => api.failure(query);
  const windowTitled = async (title: string) =>
    (await api.data(SessionWindowsDocument, { id: session })).session?.windows.find(
      (window) => window.title === title,
    )?.id;

  beforeAll(async () => {
    server = await startCaptureServer();
    app = await startFixtureOutside({ port: false, env: { FIXTURE_CAPTURE_URL: `${server.url}/` } });
    gateway = await startGateway({ allowEval: 'both', policyFile: ATTACH_POLICY });
    api = gatewayClient(gateway.url);
    client = wsClient(gateway.wsUrl);
  });
  afterAll(async () => {
    await client?.dispose();
    await gateway?.stop();
    await app?.kill();
    await server?.close();
  });

  it('refuses INJECT_FAILED for a pid that is not Node, and for one that does not exist, harming neither', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const notNode = await failure(`mutation { inject(input: { pid: ${sleeper.pid} }) { id } }`);
      expect(notNode.code).toBe('INJECT_FAILED');
      expect(notNode.message).toContain('does not handle SIGUSR1');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sleeper.exitCode).toBeNull();
      expect(sleeper.signalCode).toBeNull();
    } finally {
      sleeper.kill('SIGKILL');
    }
    const missing = await failure('mutation { inject(input: { pid: 4194000 }) { id } }');
    expect(missing).toMatchObject({
      code: 'INJECT_FAILED',
      message: expect.stringContaining('no such process'),
    });
    const itself = await failure(`mutation { inject(input: { pid: ${process.pid} }) { id } }`);
    expect(itself.code).toBe('INJECT_FAILED');
  });

  it('injects: main eval, the main console, windows and the application menu, from the main process alone', async () => {
    const { inject } = await data(
      `mutation { inject(input: { pid: ${app.pid} }) { id status transport ownsProcess pid endpoint app { name standIn }
        capabilities { INJECT MAIN_EVAL NATIVE_UI WINDOWS CONSOLE RENDERER_EVAL SNAPSHOT INTERACTION SCREENSHOT INTERCEPT STORAGE DIALOGS LAUNCH ATTACH CLOCK } } }`,
    );
    session = inject.id;
    expect(inject).toMatchObject({
      status: 'RUNNING',
      transport: 'inspector',
      ownsProcess: false,
      pid: app.pid,
      app: { name: 'Stagegraph Fixture', standIn: true },
      capabilities: {
        INJECT: true,
        MAIN_EVAL: true,
        NATIVE_UI: true,
        WINDOWS: true,
        CONSOLE: true,
        RENDERER_EVAL: true,
        SNAPSHOT: true,
        INTERACTION: true,
        SCREENSHOT: true,
        INTERCEPT: true,
        STORAGE: true,
        DIALOGS: true,
        LAUNCH: false,
        ATTACH: false,
        CLOCK: false,
      },
    });
    expect(inject.endpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);

    const evaluated = await data(
      `mutation { evalMain(session: "${session}", code: "({ app }) => { console.log('main says hi'); return app.getName() }") { json } }`,
    );
    expect(evaluated.evalMain.json).toBe('"Stagegraph Fixture"');
    await expect
      .poll(
        async () =>
          (
            await data(
              `{ session(id: "${session}") { console(textContains: "main says") { entries { text source } } } }`,
            )
          ).session.console.entries,
        { timeout: 5_000 },
      )
      .toEqual([{ text: 'main says hi', source: 'MAIN' }]);

    await expect.poll(() => windowTitled('Stagegraph Fixture'), { timeout: 10_000 }).toBeDefined();
    const { session: menu } = await data(
      `{ session(id: "${session}") { applicationMenu { label submenu { label } } } }`,
    );
    expect(menu.applicationMenu.map((item: Loose) => item.label)).toEqual(['File', 'View', 'Help']);
    expect(menu.applicationMenu[0].submenu.map((item: Loose) => item.label)).toContain('New Window');
  });

  it('upgrades through webContents.debugger: snapshot, click and console on the same session', async () => {
    const main = (await windowTitled('Stagegraph Fixture')) as string;
    const { session: read } = await api.data(InteractiveNodesDocument, { session, window: main });
    const log = read?.window?.snapshot.nodes.find(
      (node) => node.role === 'button' && node.name === 'Log to console',
    );
    expect(log).toBeDefined();
    await api.data(ClickDocument, { session, window: main, target: { ref: log?.ref } });
    await expect
      .poll(
        async () =>
          (
            await data(
              `{ session(id: "${session}") { console(textContains: "clicked") { entries { text source windowId } } } }`,
            )
          ).session.console.entries,
        { timeout: 5_000 },
      )
      .toEqual([{ text: 'fixture: button clicked', source: 'RENDERER', windowId: main }]);
    const shot = await data(
      `{ session(id: "${session}") { window(id: "${main}") { screenshot { width height } } } }`,
    );
    expect(shot.session.window.screenshot.width).toBeGreaterThan(0);
  });

  it('captures and stubs the network, reads cookies and answers a JS dialog through the debugger', async () => {
    await expect.poll(() => windowTitled('Capture Fixture'), { timeout: 10_000 }).toBeDefined();
    const capture = (await windowTitled('Capture Fixture')) as string;
    const on = `session: "${session}", window: "${capture}"`;
    const click = (testId: string) =>
      api.data(ClickDocument, { session, window: capture, target: { testId } });
    await data(
      `mutation { startNetworkCapture(session: "${session}", filter: { urlPatterns: ["*/api/data.json"] }) { id } }`,
    );
    await data(
      `mutation { stubNetwork(session: "${session}", input: { pattern: "*/api/data.json", headers: [{ name: "content-type", value: "application/json" }], body: ${JSON.stringify(JSON.stringify({ items: ['injected'] }))} }) { id } }`,
    );
    await click('fetch-json');
    await data(
      `mutation { expect(${on}, kind: TEXT, target: { testId: "json-result" }, equals: "Items: injected", timeoutMs: 10000) { actual } }`,
    );
    // The relay gives extra CDP sessions no events of their own, so capture must take Playwright's.
    const captured = async () =>
      (await data(`{ session(id: "${session}") { network { entries { url status stubId windowId } } } }`))
        .session.network.entries;
    await expect.poll(captured, { timeout: 10_000 }).toHaveLength(1);
    expect((await captured())[0]).toMatchObject({
      url: `${server.url}/api/data.json`,
      status: 200,
      windowId: capture,
    });
    expect((await captured())[0].stubId).not.toBeNull();

    await click('set-storage');
    const { session: jar } = await data(
      `{ session(id: "${session}") { cookies(urls: ["${server.url}"]) { name } } }`,
    );
    expect(jar.cookies.map((cookie: Loose) => cookie.name)).toContain('theme');

    await data(`mutation { setDialogPolicy(session: "${session}", default: ACCEPT) { default } }`);
    await click('confirm');
    await data(
      `mutation { expect(${on}, kind: TEXT, target: { testId: "dialog-result" }, equals: "Confirm: true", timeoutMs: 10000) { actual } }`,
    );
  });

  it('announces a window the app opens from its menu, and drives it', async () => {
    const events = subscribe(client, SessionEventsDocument, { session });
    const invoked = await data(
      `mutation { invokeMenuItem(session: "${session}", path: ["File", "New Window"]) { invoked } }`,
    );
    expect(invoked.invokeMenuItem.invoked).toBe(true);
    const opened = await events.waitFor((event) => event.sessionEvents.type === 'WINDOW_OPENED');
    expect(opened.sessionEvents.window?.title).toBe('Second Window');
    const second = opened.sessionEvents.window?.id;
    await expect
      .poll(
        async () => {
          const response = await send(
            `{ session(id: "${session}") { window(id: "${second}") { find(role: "heading") { name } } } }`,
          );
          return response.data?.session?.window?.find?.map((node: Loose) => node.name);
        },
        { timeout: 10_000 },
      )
      .toContain('Second Window');
    events.dispose();
  });

  it('lets an injected app that quits by itself end: it exits 0 and its session turns DISCONNECTED', async () => {
    // Node, ending with an inspector session open, waits for it to leave: with the gateway's session
    // staying, this app hung at exit for good.
    const quitting = await startFixtureOutside({ port: false });
    try {
      const { inject } = await data(
        `mutation { inject(input: { pid: ${quitting.pid}, upgrade: false }) { id status } }`,
      );
      expect(inject.status).toBe('RUNNING');
      const events = subscribe(client, SessionEventsDocument, { session: inject.id });
      await data(
        `mutation { evalMain(session: "${inject.id}", code: "({ app }) => { setTimeout(() => app.quit(), 0); return null }") { json } }`,
      );
      const lost = await events.waitFor((event) => event.sessionEvents.type === 'DISCONNECTED', 30_000);
      expect(lost.sessionEvents.status).toBe('DISCONNECTED');
      events.dispose();
      await expect.poll(() => quitting.exit(), { timeout: 30_000 }).toEqual({ code: 0, signal: null });
      await expectGroupsGone([quitting.pid]);
    } finally {
      await quitting.kill();
    }
  });

  it('detaches leaving the app running, its debuggers and the inspector it opened closed; a killed app turns DISCONNECTED', async () => {
    const { detach } = await data(`mutation { detach(id: "${session}") { status } }`);
    expect(detach.status).toBe('DETACHED');
    expect(livingGroupMembers(app.pid).length).toBeGreaterThan(0);
    await expect.poll(() => loopbackPortsOf(app.pid), { timeout: 5_000 }).toEqual([]);

    const { inject } = await data(
      `mutation { inject(input: { pid: ${app.pid}, upgrade: false }) { id capabilities { SNAPSHOT MAIN_EVAL } } }`,
    );
    expect(inject.capabilities).toEqual({ SNAPSHOT: false, MAIN_EVAL: true });
    // Renderer eval needs no upgrade: the main process runs it through webContents.executeJavaScript.
    const title = await data(
      `mutation { evalRenderer(session: "${inject.id}", window: "w1", code: "() => document.title") { json } }`,
    );
    expect(title.evalRenderer.json).toBe('"Stagegraph Fixture"');
    const refused = await failure(`{ session(id: "${inject.id}") { window { snapshot { totalNodes } } } }`);
    expect(refused.code).toBe('CAPABILITY_UNSUPPORTED');
    const events = subscribe(client, SessionEventsDocument, { session: inject.id });
    process.kill(app.pid, 'SIGKILL');
    const lost = await events.waitFor((event) => event.sessionEvents.type === 'DISCONNECTED', 5_000);
    expect(lost.sessionEvents.status).toBe('DISCONNECTED');
    events.dispose();
    await app.kill();
    await expectGroupsGone([app.pid]);
  });
});
