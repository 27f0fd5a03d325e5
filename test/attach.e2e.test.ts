import { fileURLToPath } from 'node:url';
import CDP from 'chrome-remote-interface';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, InteractiveNodesDocument, SessionEventsDocument } from './generated/graphql.js';
import { startCaptureServer } from './helpers/capture-app.js';
import { type OutsideProcess, startDebuggableChromium, startFixtureOutside } from './helpers/debuggable.js';
import type { Loose } from './helpers/fixture-session.js';
import { startGateway, subscribe, wsClient } from './helpers/gateway.js';
import { gatewayClient as clientOf } from './helpers/gateway-client.js';
import { livingGroupMembers } from './helpers/processes.js';

const ATTACH_POLICY = fileURLToPath(new URL('./attach.policy.yaml', import.meta.url));

/** A gateway on a free port and a client for it. */
async function gatewayClient(overrides: Parameters<typeof startGateway>[0] = {}) {
  const gateway = await startGateway(overrides);
  return { gateway, ...clientOf(gateway.url) };
}

describe('attach over CDP to a headless Chromium started outside Stagegraph', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>;
  let chromium: OutsideProcess;
  let api: Awaited<ReturnType<typeof gatewayClient>>;
  let client: Client;
  let session: string;

  beforeAll(async () => {
    server = await startCaptureServer();
    chromium = await startDebuggableChromium(`${server.url}/`);
    api = await gatewayClient({ allowEval: 'both', policyFile: ATTACH_POLICY });
    client = wsClient(api.gateway.wsUrl);
  });
  afterAll(async () => {
    await client?.dispose();
    await api?.gateway.stop();
    await chromium?.kill();
    await server?.close();
  });

  it('attaches by port, on the renderer it prefers, with an honest capability matrix', async () => {
    const { attach } = await api.data(
      `mutation ($port: Int!) { attach(input: { port: $port }) { id status transport ownsProcess pid endpoint
        capabilities { ATTACH LAUNCH SNAPSHOT INTERACTION CONSOLE DIALOGS INTERCEPT STORAGE SCREENSHOT RENDERER_EVAL CLOCK NATIVE_UI MAIN_EVAL }
        app { name versions { name version } } activeWindow { id title url } } }`,
      { port: chromium.port },
    );
    session = attach.id;
    expect(attach).toMatchObject({
      status: 'RUNNING',
      transport: 'cdp',
      ownsProcess: false,
      pid: chromium.pid,
      capabilities: {
        ATTACH: true,
        LAUNCH: false,
        SNAPSHOT: true,
        INTERACTION: true,
        CONSOLE: true,
        DIALOGS: true,
        INTERCEPT: true,
        STORAGE: true,
        SCREENSHOT: true,
        RENDERER_EVAL: true,
        CLOCK: true,
        NATIVE_UI: false,
        MAIN_EVAL: false,
      },
      activeWindow: { id: 'w1', title: 'Capture Fixture', url: `${server.url}/` },
    });
    expect(attach.endpoint).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${chromium.port}/devtools/browser/`));
    expect(attach.app.versions.map((v: Loose) => v.name)).toContain('chrome');
  });

  it('snapshots, clicks, stubs the network and reads cookies and the console over CDP', async () => {
    const { session: read } = await api.data(
      '{ session { window { find(role: "button", name: "Fetch JSON") { ref } } } }',
    );
    const [button] = read.window.find;
    await api.data(
      `mutation { stubNetwork(input: { pattern: "*/api/data.json", headers: [{ name: "content-type", value: "application/json" }], body: ${JSON.stringify(JSON.stringify({ items: ['stubbed'] }))} }) { id } }`,
    );
    await api.data(ClickDocument, { target: { ref: button.ref } });
    await api.data(
      'mutation { expect(kind: TEXT, target: { testId: "json-result" }, equals: "Items: stubbed", timeoutMs: 10000) { actual } }',
    );

    await api.data(ClickDocument, { target: { testId: 'set-storage' } });
    const { session: cookies } = await api.data(
      `{ session { cookies(urls: ["${server.url}"]) { name value } } }`,
    );
    expect(cookies.cookies.map((cookie: Loose) => cookie.name)).toContain('theme');

    await api.data(ClickDocument, { target: { testId: 'log-levels' } });
    await expect
      .poll(
        async () =>
          (await api.data('{ session { console { entries { type source windowId } } } }')).session.console
            .entries,
        { timeout: 10_000 },
      )
      .toContainEqual({ type: 'error', source: 'RENDERER', windowId: 'w1' });

    const evaluated = await api.data('mutation { evalRenderer(code: "() => document.title") { json } }');
    expect(evaluated.evalRenderer.json).toBe('"Capture Fixture"');
  });

  it('drives the fake clock over CDP too (Playwright installs it through the page sessions)', async () => {
    await api.data('mutation { installClock(time: "2030-01-01T00:00:00Z") { installed } }');
    await api.data(ClickDocument, { target: { testId: 'start-countdown' } });
    await api.data('mutation { runClockFor(ms: 10000) { installed } }');
    await api.data(
      'mutation { expect(kind: TEXT, target: { testId: "countdown" }, equals: "Lift-off", timeoutMs: 5000) { actual } }',
    );
  });

  it('refuses what a CDP attach cannot reach, before any call: the menu, main eval, stop', async () => {
    const menu = await api.failure('{ session { applicationMenu { label } } }');
    expect(menu).toMatchObject({ code: 'CAPABILITY_UNSUPPORTED' });
    expect(menu.message).toContain('playwright-electron');
    const main = await api.failure('mutation { evalMain(code: "() => 1") { json } }');
    expect(main.code).toBe('CAPABILITY_UNSUPPORTED');
    const stop = await api.failure(`mutation { stop(id: "${session}") { id } }`);
    expect(stop).toMatchObject({
      code: 'NOT_OWNED',
      nextActions: [`mutation { detach(id: "${session}") { id status } }`],
    });
  });

  it('announces a window opened behind its back, and detaches leaving the browser running', async () => {
    const live = subscribe(client, SessionEventsDocument, { session });
    await CDP.New({ port: chromium.port, url: `${server.url}/?second` });
    const opened = await live.waitFor(
      (event) => event.sessionEvents.type === 'WINDOW_OPENED' && event.sessionEvents.window?.id === 'w2',
    );
    expect(opened.sessionEvents.window?.title).toBe('Capture Fixture');

    const { detach } = await api.data(`mutation { detach(id: "${session}") { status } }`);
    expect(detach.status).toBe('DETACHED');
    await live.waitFor((event) => event.sessionEvents.type === 'DETACHED');
    expect(livingGroupMembers(chromium.pid).length).toBeGreaterThan(0);
    const version = await CDP.Version({ port: chromium.port });
    expect(version.Browser).toMatch(/Chrome/);
    live.dispose();
  });

  it('turns DISCONNECTED, with an event, when the browser is killed', async () => {
    const { attach } = await api.data(`mutation { attach(input: { port: ${chromium.port} }) { id status } }`);
    const live = subscribe(client, SessionEventsDocument, { session: attach.id });
    await chromium.kill();
    const lost = await live.waitFor((event) => event.sessionEvents.type === 'DISCONNECTED');
    expect(lost.sessionEvents.status).toBe('DISCONNECTED');
    const after = await api.failure(ClickDocument, { session: attach.id, target: { testId: 'alert' } });
    expect(after.code).toBe('SESSION_NOT_RUNNING');
    live.dispose();
  });
});

describe('attach over CDP to the fixture app, started on the stand-in with a debugging port', () => {
  let app: OutsideProcess;
  let api: Awaited<ReturnType<typeof gatewayClient>>;
  let client: Client;

  beforeAll(async () => {
    app = await startFixtureOutside({ port: true });
    api = await gatewayClient({ policyFile: ATTACH_POLICY });
    client = wsClient(api.gateway.wsUrl);
  });
  afterAll(async () => {
    await client?.dispose();
    await api?.gateway.stop();
    await app?.kill();
  });

  it('finds the app with discover, attaches on its window by title, snapshots, clicks and reads the console', async () => {
    await expect
      .poll(
        async () => {
          const { discover } = await api.data(
            `{ discover(ports: [${app.port}, 1]) { port pid targets { type title } } }`,
          );
          return discover;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([
        expect.objectContaining({
          port: app.port,
          targets: expect.arrayContaining([{ type: 'page', title: 'Stagegraph Fixture' }]),
        }),
      ]);

    const { attach } = await api.data(
      `mutation { attach(input: { cdpUrl: "http://127.0.0.1:${app.port}", titleContains: "Stagegraph" }) { id status activeWindow { title } app { standIn } } }`,
    );
    expect(attach).toMatchObject({
      status: 'RUNNING',
      activeWindow: { title: 'Stagegraph Fixture' },
      app: { standIn: true },
    });

    const { session } = await api.data(InteractiveNodesDocument, {});
    const log = session?.window?.snapshot.nodes.find((node) => node.name === 'Log to console');
    await api.data(ClickDocument, { target: { ref: log?.ref } });
    await expect
      .poll(
        async () =>
          (await api.data('{ session { console(textContains: "clicked") { entries { text source } } } }'))
            .session.console.entries,
        { timeout: 10_000 },
      )
      .toEqual([{ text: 'fixture: button clicked', source: 'RENDERER' }]);
  });

  it('sees the window the app opens through its own main process', async () => {
    const live = subscribe(client, SessionEventsDocument, {});
    await api.data(ClickDocument, { target: { testId: 'open-second' } });
    const opened = await live.waitFor(
      (event) =>
        event.sessionEvents.type === 'WINDOW_OPENED' && event.sessionEvents.window?.title === 'Second Window',
    );
    expect(opened.sessionEvents.window?.id).toBe('w2');
    live.dispose();
  });

  it('refuses an unknown renderer filter, a silent port and a remote host with codes that say why', async () => {
    const missing = await api.failure(
      `mutation { attach(input: { port: ${app.port}, titleContains: "No such window" }) { id } }`,
    );
    expect(missing).toMatchObject({ code: 'WINDOW_NOT_FOUND' });
    const silent = await api.failure('mutation { attach(input: { port: 1 }) { id } }');
    expect(silent.code).toBe('ATTACH_FAILED');
    const remote = await api.failure('mutation { attach(input: { port: 9222, host: "192.0.2.1" }) { id } }');
    expect(remote.code).toBe('HOST_NOT_ALLOWED');
    const both = await api.failure(
      `mutation { attach(input: { port: 1, cdpUrl: "http://127.0.0.1:2" }) { id } }`,
    );
    expect(both.code).toBe('BAD_INPUT');
  });
});
