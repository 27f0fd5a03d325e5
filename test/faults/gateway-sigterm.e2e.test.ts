import { fileURLToPath } from 'node:url';
import { type Client, createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loopbackPortsOf } from '../../transports/process/proc-sockets.js';
import { type OutsideProcess, startFixtureOutside } from '../helpers/debuggable.js';
import { fixtureLaunch, STAND_IN } from '../helpers/fixture-app.js';
import { type Subscription, subscribe, wsRequest } from '../helpers/gateway.js';
import { gatewayClient, type Loose } from '../helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import {
  childrenOf,
  expectGroupsGone,
  isAlive,
  livingGroupMembers,
  rendererPids,
  signalEach,
} from '../helpers/processes.js';
import {
  LAUNCH,
  LAUNCH_TIMEOUT_MS,
  parseLoose,
  SESSION_EVENTS,
  STILL_ANSWERING,
  UNATTENDED_POLICY,
} from './documents.js';

const BLOCKS_BEFORE_READY = fileURLToPath(new URL('./apps/blocks-before-ready.cjs', import.meta.url));
const WINDOWLESS = fileURLToPath(new URL('./apps/windowless.cjs', import.meta.url));
/** How long the gateway may take to stop within its own bounds; a safety net for a hung one. */
const EXIT_SAFETY_NET_MS = 60_000;

describe('SIGTERM of the gateway while work is in flight', () => {
  let gateway: GatewayProcess | undefined;
  let client: Client | undefined;
  let outside: OutsideProcess | undefined;
  /** Groups of apps the gateway started, found while it ran. */
  const launchedGroups = new Set<number>();

  afterEach(async () => {
    await client?.dispose();
    if (gateway && isAlive(gateway.pid)) gateway.child.kill('SIGKILL');
    for (const pgid of launchedGroups) {
      signalEach([-pgid], 'SIGCONT');
      signalEach([-pgid], 'SIGKILL');
    }
    await expectGroupsGone([...launchedGroups]);
    launchedGroups.clear();
    await outside?.kill();
    outside = undefined;
    gateway = undefined;
    client = undefined;
  });

  async function serve(): Promise<{ gateway: GatewayProcess; client: Client; events: Subscription<Loose> }> {
    gateway = await serveInChild(['--policy', UNATTENDED_POLICY]);
    // The server going away is this suite's point: the socket closing is expected, not worth a log line.
    client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      onNonLazyError: () => {},
    });
    // A live observer of every session throughout.
    const events = subscribe(client, SESSION_EVENTS, {});
    return { gateway, client, events };
  }

  /** The apps the gateway has spawned so far: each leads its own process group. */
  function noteLaunchedGroups(server: GatewayProcess): number[] {
    for (const pid of childrenOf(server.pid)) launchedGroups.add(pid);
    return [...launchedGroups];
  }

  async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGTERM, then the exit, then no process of what the gateway launched. */
  async function terminate(server: GatewayProcess): Promise<void> {
    noteLaunchedGroups(server);
    server.child.kill('SIGTERM');
    const exit = await Promise.race([
      server.exited,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`no exit after SIGTERM:\n${server.stderr().slice(-3000)}`)),
          EXIT_SAFETY_NET_MS,
        ),
      ),
    ]);
    expect(exit, server.stderr().slice(-3000)).toMatchObject({ signal: null });
    await expectGroupsGone([...launchedGroups], 10_000);
  }

  it('during a launch Playwright is still waiting for: exits, and the half-started app is reaped', async () => {
    const { gateway: server } = await serve();
    const api = gatewayClient(server.url);
    const launch = api
      .send(LAUNCH, {
        input: { main: BLOCKS_BEFORE_READY, executablePath: STAND_IN, timeoutMs: LAUNCH_TIMEOUT_MS },
      })
      .catch((error: unknown) => error);
    const [app] = await waitFor(() => {
      const spawned = childrenOf(server.pid);
      return spawned.length > 0 ? spawned : undefined;
    }, 'the launch spawning its app');
    expect(isAlive(app!)).toBe(true);
    await terminate(server);
    await launch;
  });

  it('during a launch waiting for its first window (STARTING): exits, and the app is reaped', async () => {
    const { gateway: server, events } = await serve();
    const api = gatewayClient(server.url);
    const launch = api
      .send(LAUNCH, { input: { main: WINDOWLESS, executablePath: STAND_IN, timeoutMs: LAUNCH_TIMEOUT_MS } })
      .catch((error: unknown) => error);
    await events.waitFor((event) => event.sessionEvents.type === 'STARTED', LAUNCH_TIMEOUT_MS);
    const { sessions } = await api.data(STILL_ANSWERING);
    expect(sessions).toMatchObject([{ status: 'STARTING' }]);
    await terminate(server);
    await launch;
  });

  it('during a click on a SIGSTOPped renderer: exits, and the app (stopped renderer included) is reaped', async () => {
    const { gateway: server, client: ws } = await serve();
    const api = gatewayClient(server.url);
    const { launch } = await api.data(LAUNCH, {
      input: { ...fixtureLaunch(), timeoutMs: LAUNCH_TIMEOUT_MS },
    });
    launchedGroups.add(launch.pid);
    const members = livingGroupMembers(launch.pid);
    signalEach(rendererPids(launch.pid), 'SIGSTOP');
    const click = wsRequest(
      ws,
      parseLoose(
        `mutation { click(session: "${launch.id}", target: { testId: "log" }, timeoutMs: 30000) { elapsedMs } }`,
      ),
    ).catch((error: unknown) => error);
    // Messages of one socket are taken in order: once this is answered, the click is under way.
    await wsRequest(ws, parseLoose(STILL_ANSWERING));
    await terminate(server);
    expect(members.filter(isAlive)).toEqual([]);
    await click;
  });

  it('during an inject: exits, and the app it did not start keeps running, its inspector closed', async () => {
    outside = await startFixtureOutside({ port: false });
    const app = outside;
    const portsBefore = loopbackPortsOf(app.pid);
    const { gateway: server } = await serve();
    const api = gatewayClient(server.url);
    const inject = api
      .send(`mutation { inject(input: { pid: ${app.pid} }) { id } }`)
      .catch((error: unknown) => error);
    // The inspector opening is the inject under way.
    await waitFor(
      () => (loopbackPortsOf(app.pid).length > portsBefore.length ? true : undefined),
      'the inject opening the inspector',
    );
    await terminate(server);
    await inject;
    expect(isAlive(app.pid), app.output().slice(-2000)).toBe(true);
    await expect.poll(() => loopbackPortsOf(app.pid), { timeout: 10_000 }).toEqual(portsBefore);
  });
});
