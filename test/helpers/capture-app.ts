import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import type { ServeConfig } from '../../server/config.js';
import { ClickDocument, LaunchDocument, SessionWindowsDocument } from '../generated/graphql.js';
import { startDebuggableChromium } from './debuggable.js';
import { fixtureLaunch, STAND_IN } from './fixture-app.js';
import { type RunningGateway, type Subscription, startGateway, subscribe, wsClient } from './gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './gateway-client.js';

const APP_DIR = new URL('../../fixtures/app/', import.meta.url);
/**
 * How long the capture window may take to open and load after the launch returns: a safety net, sized for
 * a loaded machine rather than the second or two it takes on a quiet one.
 */
const CAPTURE_WINDOW_TIMEOUT_MS = 45_000;
/** The window list is cheap to read; this only spaces the reads out while the window opens. */
const WINDOW_POLL_MS = 100;

export interface CaptureServer {
  readonly server: Server;
  readonly url: string;
  readonly startFlood: () => void;
  close(): Promise<void>;
}

export const DATA_JSON = { items: ['apple', 'pear'] };

/**
 * The capture page's server: the page and its script, and the API it calls (JSON, a form echo, an image,
 * a ping for load tests, and /api/flood-start, held until `startFlood` so an `autostart` flood begins only
 * once the test is listening), on 127.0.0.1 with a free port.
 */
export async function startCaptureServer(): Promise<CaptureServer> {
  let startFlood = () => {};
  const floodStarted = new Promise<void>((resolve) => {
    startFlood = resolve;
  });
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const send = (type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(body);
    };
    if (path === '/') return send('text/html', await readFile(new URL('capture.html', APP_DIR)));
    if (path === '/capture.js')
      return send('text/javascript', await readFile(new URL('capture.js', APP_DIR)));
    if (path === '/api/data.json')
      return send('application/json', JSON.stringify(DATA_JSON), { 'set-cookie': 'served=yes; Path=/' });
    if (path === '/api/image.png') return send('image/png', await readFile(new URL('tray.png', APP_DIR)));
    if (path === '/api/ping') return send('text/plain', 'pong');
    if (path === '/api/flood-start') return floodStarted.then(() => send('text/plain', 'go'));
    if (path === '/api/form') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      return send('text/plain', `got ${Buffer.concat(chunks).toString()}`);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    startFlood,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface CaptureApp extends GatewayClient {
  readonly gateway: RunningGateway;
  readonly sessionId: string;
  /** The origin of the capture page, e.g. http://127.0.0.1:41234. */
  readonly origin: string;
  /** The capture window's id. */
  readonly windowId: string;
  /** Lets a page opened with `?autostart` begin its flood. */
  startFlood(): void;
  /** Clicks a test id in the capture window; `timeoutMs` for a page kept busy, else the gateway's default. */
  click(testId: string, timeoutMs?: number): Promise<void>;
  /** Waits (event-driven, in the page) until a test id's text equals `text`; `timeoutMs` as for `click`. */
  textIs(testId: string, text: string, timeoutMs?: number): Promise<void>;
  /** A subscription over graphql-ws (one client, opened on first use and closed by `stop`). */
  live(query: string): Subscription<Loose>;
  stop(): Promise<void>;
}

/** Waits for the capture window: the fixture app opens it after its main window, in the background. */
async function captureWindow(client: GatewayClient): Promise<string> {
  const deadline = Date.now() + CAPTURE_WINDOW_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { session } = await client.data(SessionWindowsDocument, {});
    const found = session?.windows.find((window) => window.title === 'Capture Fixture');
    if (found) return found.id;
    await new Promise((resolve) => setTimeout(resolve, WINDOW_POLL_MS));
  }
  throw new Error(`the capture window did not open within ${CAPTURE_WINDOW_TIMEOUT_MS} ms`);
}

/** What a target hands the shared builder: a gateway with a session on the capture page, and how to end it all. */
interface StartedCaptureTarget {
  readonly gateway: RunningGateway;
  readonly client: GatewayClient;
  readonly server: CaptureServer;
  readonly sessionId: string;
  readonly windowId: string;
  /** Ends what the target started besides the gateway and the server (an outside browser). */
  readonly stopTarget?: () => Promise<void>;
}

const timeoutArgument = (timeoutMs?: number) => (timeoutMs === undefined ? '' : `, timeoutMs: ${timeoutMs}`);

/** The part every target shares: clicks and text checks in the capture window, and an orderly stop. */
function captureApp({
  gateway,
  client,
  server,
  sessionId,
  windowId,
  stopTarget,
}: StartedCaptureTarget): CaptureApp {
  let socket: Client | undefined;
  return {
    ...client,
    gateway,
    sessionId,
    origin: server.url,
    windowId,
    startFlood: server.startFlood,
    async click(testId, timeoutMs) {
      await client.data(ClickDocument, { window: windowId, target: { testId }, timeoutMs });
    },
    async textIs(testId, text, timeoutMs) {
      await client.data(
        `mutation { expect(window: "${windowId}", kind: TEXT, target: { testId: "${testId}" }, equals: ${JSON.stringify(text)}${timeoutArgument(timeoutMs)}) { actual } }`,
      );
    },
    live(query) {
      socket ??= wsClient(gateway.wsUrl);
      return subscribe(socket, parse(query));
    },
    async stop() {
      await socket?.dispose();
      await gateway.stop();
      await stopTarget?.();
      await server.close();
    },
  };
}

/** A fresh capture server, and a gateway with a client, for a target to put a session on. */
async function captureBackend(gatewayConfig: Partial<ServeConfig>) {
  const server = await startCaptureServer();
  const gateway = await startGateway(gatewayConfig);
  return { server, gateway, client: gatewayClient(gateway.url) };
}

/** The fixture app on the stand-in with its capture window open on a fresh capture server. */
export async function startCaptureApp(
  query = '',
  gatewayConfig: Partial<ServeConfig> = {},
): Promise<CaptureApp> {
  const { server, gateway, client } = await captureBackend(gatewayConfig);
  const { launch } = await client.data(LaunchDocument, {
    input: fixtureLaunch(STAND_IN, { FIXTURE_CAPTURE_URL: `${server.url}/${query}` }),
  });
  const windowId = await captureWindow(client);
  return captureApp({ gateway, client, server, sessionId: launch!.id, windowId });
}

/**
 * The capture page alone in a plain headless Chromium started outside Stagegraph, with the gateway attached
 * to it over CDP: the renderer-only behaviour without any Electron main process.
 */
export async function attachCaptureApp(
  query = '',
  gatewayConfig: Partial<ServeConfig> = {},
): Promise<CaptureApp> {
  const { server, gateway, client } = await captureBackend(gatewayConfig);
  const chromium = await startDebuggableChromium(`${server.url}/${query}`);
  const target = { gateway, client, server, stopTarget: () => chromium.kill() };
  try {
    const { attach } = await client.data(
      'mutation ($port: Int!) { attach(input: { port: $port }) { id activeWindow { id } } }',
      { port: chromium.port },
    );
    return captureApp({ ...target, sessionId: attach.id, windowId: attach.activeWindow.id });
  } catch (error) {
    // The browser lives outside the gateway: a failed attach would leave it running.
    await captureApp({ ...target, sessionId: '', windowId: '' }).stop();
    throw error;
  }
}

/** The targets the capture suites run on, named as the other two-target suites name theirs. */
export interface CaptureTarget {
  readonly name: string;
  /** The capture page opened with `query` (e.g. `?autostart&lines=10`) behind a gateway with `config`. */
  readonly start: (query?: string, config?: Partial<ServeConfig>) => Promise<CaptureApp>;
}

export const CAPTURE_TARGETS: readonly CaptureTarget[] = [
  { name: 'stand-in', start: startCaptureApp },
  { name: 'plain Chromium over CDP attach', start: attachCaptureApp },
];
