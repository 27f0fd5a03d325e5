import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from '../domain/sessions/session.js';
import type { SessionRegistry } from '../domain/sessions/session-registry.js';
import { grantsRole, type ServeConfig } from './config.js';

export const FIXTURE_APP = fileURLToPath(new URL('../fixtures/app/', import.meta.url));
export const STAND_IN = fileURLToPath(new URL('../fixtures/electron-standin/electron', import.meta.url));

const STAND_IN_NOTICE = `
################################################################################
#  NO ELECTRON BINARY FOUND: the demo runs on the Electron-API STAND-IN.       #
#  It is a TEST FIXTURE (real Node main process + headless Chromium windows),  #
#  NOT Electron. Set ELECTRON_PATH or pass --electron to use real Electron.    #
################################################################################`;

/** The fixture's pages the demo serves; nothing else of the folder is reachable. */
const PAGES: Record<string, string> = {
  '/index.html': 'text/html',
  '/renderer.js': 'text/javascript',
  '/second.html': 'text/html',
};
/** What the fixture's Fetch button fetches when it is given no URL: a real response to capture. */
const DATA = { greeting: 'hello from the demo server', served: 'data.json' };

export interface Demo {
  readonly session: Session;
  /** Where the fixture's pages are served: a real loopback origin for cookies, storage and network. */
  readonly origin: string;
  /** Stops serving the pages (the session is stopped with the gateway's other sessions). */
  close(): Promise<void>;
}

/**
 * A demo approver token, added to the configuration when none is configured, so the demo can show an
 * ASK answered from a second GraphiQL tab. It is printed, so it is only ever made for a demo.
 */
export function withDemoApprover(config: ServeConfig): { config: ServeConfig; approverToken?: string } {
  if (!config.demo || grantsRole(config, 'approver')) return { config };
  const approverToken = `demo-approver-${randomBytes(12).toString('hex')}`;
  return { config: { ...config, approverToken }, approverToken };
}

/**
 * Launches the fixture app as a demo session, instrumented (trays and start-up notifications are seen),
 * its pages served from a loopback HTTP origin: on real Electron when one is configured, else the stand-in.
 */
export async function launchDemo(
  sessions: SessionRegistry,
  config: ServeConfig,
  log: (line: string) => void,
): Promise<Demo> {
  const realElectron = config.electron ?? process.env.ELECTRON_PATH;
  const useStandIn = !realElectron || !existsSync(realElectron);
  if (useStandIn) log(STAND_IN_NOTICE);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    if (path === '/data.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(DATA));
      return;
    }
    const type = PAGES[path];
    if (!type) {
      response.writeHead(404).end();
      return;
    }
    void readFile(join(FIXTURE_APP, path.slice(1))).then(
      (body) => response.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  const origin = await listen(server);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    const session = await sessions.launch({
      main: FIXTURE_APP,
      instrumentNative: true,
      env: [{ name: 'FIXTURE_PAGE_ORIGIN', value: origin }],
      ...(useStandIn ? { executablePath: STAND_IN } : {}),
    });
    log(
      `demo session ${session.id} (${session.app.name ?? 'app'}) is ${session.status}; its pages: ${origin}`,
    );
    return { session, origin, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** How to watch and answer an ASK from a second GraphiQL tab, printed beside the GraphiQL URL. */
export function approverInstructions(url: string, approverToken: string | undefined): string {
  const header = approverToken
    ? `{"Authorization": "Bearer ${approverToken}"}`
    : '{"Authorization": "Bearer <your --approver-token>"}';
  return `
Act as an approver (the demo's Delete button asks a human first):
  1. Open a second tab at ${url}, put ${header} in its Headers pane, and run:
       subscription Approvals { approvalRequests { state request { id operation risk target { role name } } } }
  2. In the first tab (no header: an agent on loopback), run:
       mutation Delete { click(target: { testId: "delete-account" }) { target { name } } }
     It waits for you. In the second tab answer with the request's id:
       mutation Approve { approve(id: "<id>") { status } }    or    mutation { deny(id: "<id>", reason: "no") { status } }
  Or sign in at ${new URL('/', url).href} with the same token and answer under Approvals, the element in view.`;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
