import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAND_IN } from '../helpers/fixture-app.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import { childrenOf, commandLine, isAlive } from '../helpers/processes.js';

/** As many of one failing mutation at once as took the gateway down before (issue 31: twelve launches). */
const BURST = 12;
/** Above the bursts' pace: each burst is answered by its own failure, never RATE_LIMITED. */
const MUTATION_RATE = 1_000;
/** The apps, Xvfbs and Chromiums of a burst end on a loaded machine within this; a safety net, not a target. */
const REAP_SAFETY_NET_MS = 60_000;
/** Every app a burst starts carries this in its environment, and so does everything it spawns. */
const MARKER = `STAGEGRAPH_BURST=${randomUUID()}`;
const MARKED_ENV = `[{ name: "STAGEGRAPH_BURST", value: "${MARKER.split('=')[1]}" }]`;

let served: GatewayProcess;
let agent: GatewayClient;
let emptyFolder: string;
/** An app folder with an entry that does nothing: what is launched with an executable that is not Electron. */
let emptyApp: string;
let closedPort: number;
let deadPid: number;
/** A loopback port that answers HTTP with an app's page, not DevTools JSON. */
let pagePort: number;
let pageServer: Server;
/** A program that is not Node (it does not handle SIGUSR1) serving a `/json/list` that is not a target list. */
let notNode: ChildProcess;
/** The gateway's own children before any burst (tsx's esbuild service). */
let ownChildren: number[];

beforeAll(async () => {
  // Burst after burst from one client outruns the default mutation rate (20 a second, 40 at once): this file
  // is about what each failing mutation answers, not about the rate limit.
  served = await serveInChild(['--mutation-rate', String(MUTATION_RATE)]);
  agent = gatewayClient(served.url);
  emptyFolder = mkdtempSync(join(tmpdir(), 'stagegraph-not-an-app-'));
  emptyApp = mkdtempSync(join(tmpdir(), 'stagegraph-empty-app-'));
  writeFileSync(join(emptyApp, 'index.js'), '');
  closedPort = await portJustClosed();
  deadPid = await pidJustReaped();
  pageServer = createHttpServer((_request, response) => response.end('<!doctype html><title>an app</title>'));
  pageServer.listen(0, '127.0.0.1');
  await once(pageServer, 'listening');
  pagePort = (pageServer.address() as { port: number }).port;
  notNode = await serveNotATargetList();
  ownChildren = childrenOf(served.pid);
});

afterAll(async () => {
  pageServer?.close();
  notNode?.kill('SIGKILL');
  if (served?.child.exitCode === null) {
    served.child.kill('SIGTERM');
    await served.exited;
  }
});

/** A loopback port something listened on a moment ago: nothing answers there now. */
async function portJustClosed(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The pid of a process that has exited and been reaped. */
async function pidJustReaped(): Promise<number> {
  const child = spawn('true');
  await once(child, 'exit');
  return child.pid as number;
}

/** Python's HTTP server on a loopback port, answering `/json/list` with a JSON object, once it listens. */
async function serveNotATargetList(): Promise<ChildProcess> {
  const root = mkdtempSync(join(tmpdir(), 'stagegraph-not-devtools-'));
  mkdirSync(join(root, 'json'));
  writeFileSync(join(root, 'json', 'list'), '{"not": "a target list"}');
  const child = spawn(
    '/usr/bin/python3',
    ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  // It says so once it listens (unbuffered: -u).
  const serving = new Promise<void>((resolve) =>
    child.stdout?.on('data', (chunk: Buffer) => String(chunk).includes('Serving HTTP') && resolve()),
  );
  await Promise.race([serving, once(child, 'exit').then(() => Promise.reject(new Error('python3 exited')))]);
  return child;
}

/** Live processes whose environment holds MARKER: what a burst started and did not reap. */
function marked(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return isAlive(pid) && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(MARKER);
      } catch {
        return false;
      }
    });
}

interface FailingMutation {
  readonly name: string;
  readonly document: () => string;
  readonly code: string;
  readonly reason: RegExp;
}

const FAILING: readonly FailingMutation[] = [
  {
    name: 'launch of /etc/passwd (not a script)',
    document: () =>
      `mutation { launch(input: { main: "/etc/passwd", executablePath: "${STAND_IN}", env: ${MARKED_ENV} }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /SyntaxError: Unexpected token/,
  },
  {
    name: 'launch of a folder with no app in it',
    document: () =>
      `mutation { launch(input: { main: "${emptyFolder}", executablePath: "${STAND_IN}", env: ${MARKED_ENV} }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /is not an app Electron can load/,
  },
  {
    name: 'launch of an executable that is not Electron',
    document: () => `mutation { launch(input: { main: "${emptyApp}", executablePath: "/bin/true" }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /The app exited \(code 0\) during start-up/,
  },
  {
    name: 'launch in a working folder that does not exist',
    document: () =>
      `mutation { launch(input: { main: "${emptyApp}", executablePath: "${STAND_IN}", cwd: "/no/such/folder" }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /"\/no\/such\/folder" \(cwd\) is not an existing folder/,
  },
  {
    name: 'attach to a closed port',
    document: () => `mutation { attach(input: { port: ${closedPort} }) { id } }`,
    code: 'ATTACH_FAILED',
    reason: /connection refused/,
  },
  {
    name: 'attach to a port that answers HTTP but not DevTools',
    document: () => `mutation { attach(input: { port: ${pagePort} }) { id } }`,
    code: 'ATTACH_FAILED',
    reason: /answered \/json\/version with something that is not JSON/,
  },
  {
    name: 'inject into a program that is not Node, serving HTTP on loopback',
    document: () => `mutation { inject(input: { pid: ${notNode.pid} }) { id } }`,
    code: 'INJECT_FAILED',
    reason: /python3\S* is not a Node or Electron main process/,
  },
  {
    name: 'inject into a dead pid',
    document: () => `mutation { inject(input: { pid: ${deadPid} }) { id } }`,
    code: 'INJECT_FAILED',
    reason: /no such process/,
  },
  {
    name: 'launchDesktop of a missing program',
    document: () =>
      `mutation { launchDesktop(input: { command: "/no/such/program", env: ${MARKED_ENV} }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /could not start: spawn \/no\/such\/program ENOENT/,
  },
  {
    name: 'launchCommand of a missing program',
    document: () =>
      `mutation { launchCommand(input: { command: "/no/such/program", env: ${MARKED_ENV} }) { id } }`,
    code: 'LAUNCH_FAILED',
    reason: /could not start: spawn \/no\/such\/program ENOENT/,
  },
];

describe(`bursts of ${BURST} concurrent failing mutations against a served gateway`, () => {
  it.each(FAILING)('$name: each answers $code with the reason', async ({ document, code, reason }) => {
    const answers = await Promise.all(Array.from({ length: BURST }, () => agent.send(document())));

    const failures = answers.map((answer) => ({
      data: answer.data,
      code: answer.errors?.[0]?.extensions?.code,
      message: answer.errors?.[0]?.message,
    }));
    for (const failure of failures) {
      expect(failure, JSON.stringify(failure)).toMatchObject({
        code,
        message: expect.stringMatching(reason),
      });
    }
    expect(served.child.exitCode, served.stderr()).toBeNull();
  });

  it('leaves the process serving, every process it started reaped, and no error unheard', async () => {
    expect(served.child.exitCode, served.stderr()).toBeNull();
    expect(await agent.data('{ sessions { id } }')).toEqual({ sessions: [] });
    const survivors = () =>
      [...marked(), ...childrenOf(served.pid).filter((pid) => !ownChildren.includes(pid))].map(
        (pid) => `${pid} ${commandLine(pid).join(' ').slice(0, 200)}`,
      );
    await expect.poll(survivors, { timeout: REAP_SAFETY_NET_MS }).toEqual([]);
    // Neither a rejection nor an exception reached the last-resort guard, nor an error masked as INTERNAL.
    expect(served.stderr()).not.toMatch(/stray (?:promise rejection|exception)|unexpected error/);
  });
});
