import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import { SchemaArbitraries } from './arbitraries.js';
import {
  inspectorUrl,
  type MemoryAfterGc,
  memoryAfterGc,
  NODE_INSPECT,
  writeHeapSnapshot,
} from './gateway-memory.js';
import { judge, SOURCE_ROOT, type Violation } from './judge.js';
import { payloadArbitraries } from './payloads.js';
import { PROBE_STALL_MS, Probe, residentMegabytes } from './probe.js';
import {
  describeRequest,
  type FuzzRequest,
  type RequestArbitraries,
  requestArbitraries,
} from './requests.js';
import { type FuzzWorld, fieldHints, valueHints } from './safe-values.js';
import { send } from './send.js';

/**
 * One fuzz run: a temporary folder with the files fuzzed paths point at, a loopback server for fuzzed URLs,
 * an idle process for fuzzed pids, and the gateway started as users start it (`stagegraph serve --demo`, its
 * audit and artifacts in the folder, no desktop in its environment), with the probe beside it. A gateway that
 * exits is recorded and started again, so shrinking still meets a live server.
 */

/** The demo launches an app on the stand-in: a minute or more on two loaded cores. */
const DEMO_READY_MS = 180_000;
/** A run that restarts the gateway more often than this has found all it will: it stops. */
const MAX_RESTARTS = 5;
const REQUESTS_REMEMBERED = 5;
/** How long a stopping gateway has to stop its demo session and exit before it is killed. */
const STOP_GRACE_MS = 30_000;

export interface GatewayExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The request in flight when the exit was seen, and those just before it. */
  readonly during: string;
  readonly before: readonly string[];
  readonly stderrTail: string;
}

export class FuzzRun {
  readonly exits: GatewayExit[] = [];
  readonly probe = new Probe();
  /** Requests checked so far. */
  checks = 0;
  /** How often each error code was answered, and how many results carried data without errors: what the run reached. */
  readonly codes = new Map<string, number>();
  cleanData = 0;
  readonly #recent: string[] = [];
  #gateway!: GatewayProcess;
  #exited = false;
  #closing = false;
  readonly world: FuzzWorld;
  readonly requests: RequestArbitraries;
  readonly #cleanup: () => Promise<void>;

  private constructor(
    gateway: GatewayProcess,
    world: FuzzWorld,
    requests: RequestArbitraries,
    cleanup: () => Promise<void>,
  ) {
    this.world = world;
    this.requests = requests;
    this.#cleanup = cleanup;
    this.#watch(gateway);
    this.probe.start(gateway.url);
  }

  static async open(): Promise<FuzzRun> {
    const folder = await mkdtemp(join(tmpdir(), 'stagegraph-fuzz-'));
    const files = {
      text: join(folder, 'not-a-script.txt'),
      exitsJs: join(folder, 'exits.js'),
      exitsSh: join(folder, 'exits.sh'),
      emptyDir: join(folder, 'empty'),
      upload: join(folder, 'upload.txt'),
      missing: join(folder, 'missing', 'nothing.js'),
    };
    await writeFile(files.text, 'root:x:0:0:root:/root:/bin/bash\nthis is not a script {\n');
    await writeFile(files.exitsJs, 'process.exit(3);\n');
    await writeFile(files.exitsSh, '#!/bin/sh\nexit 3\n');
    await chmod(files.exitsSh, 0o755);
    await mkdir(files.emptyDir);
    await writeFile(files.upload, 'fuzz upload\n');
    const server = await loopbackServer();
    const idle = spawn('sleep', ['3600'], { stdio: 'ignore' });
    process.once('exit', () => idle.kill('SIGKILL'));
    const release = () => cleanup(folder, server, idle);
    const gateway = await startGateway(folder).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    try {
      const { sessionIds, windowIds } = await demoReady(gateway);
      const world: FuzzWorld = {
        folder,
        files,
        standIn: join(SOURCE_ROOT, 'fixtures/electron-standin/electron'),
        loopbackPort: (server.address() as AddressInfo).port,
        idlePid: idle.pid as number,
        gatewayPid: gateway.pid,
        sessionIds,
        windowIds,
      };
      const schema = buildSchema(await readFile(join(SOURCE_ROOT, 'schema.graphql'), 'utf8'));
      const arbitraries = new SchemaArbitraries(schema, {
        byName: valueHints(world),
        byField: fieldHints(world),
      });
      const requests = requestArbitraries(payloadArbitraries(arbitraries));
      return new FuzzRun(gateway, world, requests, release);
    } catch (error) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
      await release();
      throw error;
    }
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /** One valid request per root field, drawn from `seed`. */
  examples(seed: number): FuzzRequest[] {
    return this.requests.eachField.map(
      (arbitrary, index) => fc.sample(arbitrary, { numRuns: 1, seed: seed + index })[0]!,
    );
  }

  /** Sends one request and returns what was wrong with its answer (nothing, mostly). */
  async check(request: FuzzRequest): Promise<Violation[]> {
    const violations: Violation[] = [];
    if (this.#exited) {
      violations.push(...this.#exitViolation('before this request'));
      await this.#restart();
    }
    const described = describeRequest(request);
    this.#recent.push(described);
    if (this.#recent.length > REQUESTS_REMEMBERED + 1) this.#recent.shift();
    this.checks += 1;
    const probes = this.probe.latencies.length;
    const probeFailures = this.probe.failures.length;
    const answer = await send(this.#gateway.url, this.#gateway.wsUrl, request);
    violations.push(...judge(answer));
    this.#tally(answer.results);
    const slowest = Math.max(this.probe.waiting(), ...this.probe.latencies.slice(probes));
    if (slowest > PROBE_STALL_MS)
      violations.push({ kind: 'probe stalled', detail: `{ __typename } waited ${Math.round(slowest)} ms` });
    for (const failure of this.probe.failures.slice(probeFailures))
      if (!this.#exited) violations.push({ kind: 'probe failed', detail: failure });
    if (this.#exited) violations.push(...this.#exitViolation('during this request'));
    return violations;
  }

  #tally(results: readonly unknown[]): void {
    for (const result of results) {
      const { data, errors } = (result ?? {}) as {
        data?: unknown;
        errors?: { extensions?: { code?: unknown } }[];
      };
      if (data && !errors) this.cleanData += 1;
      for (const error of Array.isArray(errors) ? errors : []) {
        const code = String(error?.extensions?.code);
        this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
      }
    }
  }

  /** The gateway's resident set now, garbage included: cheap enough for a progress line. */
  residentMegabytes(): number {
    return residentMegabytes(this.#gateway.pid);
  }

  /** The gateway's memory after a forced full collection: what a growth bound reads. */
  memoryAfterGc(): Promise<MemoryAfterGc> {
    return memoryAfterGc(inspectorUrl(this.#gateway.stderr()));
  }

  writeHeapSnapshot(path: string): Promise<void> {
    return writeHeapSnapshot(inspectorUrl(this.#gateway.stderr()), path);
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.probe.stop();
    if (!this.#exited) {
      this.#gateway.child.kill('SIGTERM');
      // A gateway that stopped answering may not run its shutdown either.
      const kill = setTimeout(() => this.#gateway.child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.#gateway.exited;
      clearTimeout(kill);
    }
    await this.#cleanup();
  }

  #watch(gateway: GatewayProcess): void {
    this.#gateway = gateway;
    this.#exited = false;
    // A runner that dies without closing the run (a crash, a timeout) takes its gateway with it.
    const orphaned = () => gateway.child.kill('SIGTERM');
    process.once('exit', orphaned);
    void gateway.exited.then(() => process.off('exit', orphaned));
    void gateway.exited.then(({ code, signal }) => {
      if (this.#gateway !== gateway || this.#closing) return;
      this.#exited = true;
      this.exits.push({
        code,
        signal,
        during: this.#recent.at(-1) ?? '(none)',
        before: this.#recent.slice(0, -1),
        stderrTail: gateway.stderr().slice(-3_000),
      });
    });
  }

  #exitViolation(when: string): Violation[] {
    const exit = this.exits.at(-1);
    return [
      {
        kind: 'gateway exited',
        detail: `${when}: code ${exit?.code} signal ${exit?.signal}; ${exit?.stderrTail.slice(-600)}`,
      },
    ];
  }

  async #restart(): Promise<void> {
    if (this.exits.length > MAX_RESTARTS)
      throw new Error(`the gateway exited ${this.exits.length} times: the run stops`);
    const gateway = await startGateway(this.world.folder);
    await demoReady(gateway);
    this.#watch(gateway);
    this.probe.retarget(gateway.url);
  }
}

let started = 0;

/**
 * Each gateway gets an audit folder of its own: one a killed gateway left may still be locked. Its inspector
 * is open on loopback so the run can force a collection before reading memory (gateway-memory.ts).
 */
async function startGateway(folder: string): Promise<GatewayProcess> {
  started += 1;
  return serveInChild(
    [
      '--demo',
      '--audit-dir',
      join(folder, `audit-${started}`),
      '--artifacts',
      join(folder, 'artifacts'),
      '--upload-root',
      folder,
    ],
    // No desktop: desktop fields fail as they would on a server; launchDesktop starts its own.
    { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, DBUS_SESSION_BUS_ADDRESS: undefined },
    [NODE_INSPECT],
  );
}

/** Waits for the demo session to run with a window, and returns the ids fuzzed arguments should sometimes hit. */
async function demoReady(gateway: GatewayProcess): Promise<{ sessionIds: string[]; windowIds: string[] }> {
  const until = Date.now() + DEMO_READY_MS;
  let last = '';
  while (Date.now() < until) {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ sessions { id status windows { id } } }' }),
    }).catch(() => undefined);
    last = response ? await response.text() : 'no answer';
    const sessions = (JSON.parse(last.startsWith('{') ? last : '{}').data?.sessions ?? []) as {
      id: string;
      status: string;
      windows: { id: string }[];
    }[];
    const running = sessions.filter((session) => session.status === 'RUNNING' && session.windows.length > 0);
    if (running.length > 0)
      return {
        sessionIds: running.map((session) => session.id),
        windowIds: running.flatMap((session) => session.windows.map((window) => window.id)),
      };
    await delay(500);
  }
  throw new Error(`the demo session did not start within ${DEMO_READY_MS} ms: ${last}\n${gateway.stderr()}`);
}

/** Plain pages for fuzzed URLs; 404 on DevTools paths, so no fuzzed attach finds a browser. */
async function loopbackServer(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/json') || request.url?.startsWith('/devtools')) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>fuzz</title><p>fuzz page</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function cleanup(folder: string, server: Server, idle: ChildProcess): Promise<void> {
  idle.kill('SIGKILL');
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
}
