import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors/registry.js';
import { procStat } from '../../transports/process/process-group.js';
import { fixtureLaunch } from '../helpers/fixture-app.js';
import { type GatewayClient, gatewayClient, type LooseResponse } from '../helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import {
  expectGroupsGone,
  isAlive,
  livingGroupMembers,
  rendererPids,
  signalEach,
} from '../helpers/processes.js';
import { LAUNCH, LAUNCH_TIMEOUT_MS, STILL_ANSWERING, UNATTENDED_POLICY } from './documents.js';

/** Every operation answers by its own deadline (at most a snapshot's 30 s); past this it hangs. */
const ANSWER_SAFETY_NET_MS = 90_000;

/** One kind of operation as an agent sends it, on the fixture app's session `id`. */
interface Operation {
  readonly kind: string;
  readonly document: (id: string) => string;
}

/** The kinds of operation the issue names, each with the shortest timeout it takes (or its default). */
const OPERATIONS: readonly Operation[] = [
  {
    kind: 'click',
    document: (id) =>
      `mutation { click(session: "${id}", target: { testId: "log" }, timeoutMs: 2000) { elapsedMs } }`,
  },
  {
    kind: 'fill',
    document: (id) =>
      `mutation { fill(session: "${id}", target: { testId: "name" }, value: "Ada", timeoutMs: 2000) { elapsedMs } }`,
  },
  {
    kind: 'snapshot',
    document: (id) => `{ session(id: "${id}") { window { snapshot(interactiveOnly: true) { id } } } }`,
  },
  {
    kind: 'expect',
    document: (id) =>
      `mutation { expect(session: "${id}", kind: VISIBLE, target: { testId: "log" }, timeoutMs: 2000) { actual } }`,
  },
  {
    kind: 'screenshot',
    document: (id) => `{ session(id: "${id}") { window { screenshot { width } } } }`,
  },
  {
    kind: 'menu invoke',
    document: (id) =>
      `mutation { invokeMenuItem(session: "${id}", path: ["View", "Dark Mode"]) { invoked reason } }`,
  },
];

/** What a stopped process answers for each kind: a code, or the operation's data (null). */
const WHILE_RENDERER_STOPPED: Record<string, string | null> = {
  click: 'RENDERER_NOT_RESPONDING',
  fill: 'RENDERER_NOT_RESPONDING',
  snapshot: 'RENDERER_NOT_RESPONDING',
  expect: 'RENDERER_NOT_RESPONDING',
  screenshot: 'RENDERER_NOT_RESPONDING',
  // The main process clicks the item; the renderer hears of it once continued.
  'menu invoke': null,
};
const WHILE_MAIN_STOPPED: Record<string, string | null> = {
  // The renderers are Chromium's, reached over CDP without the main process.
  click: null,
  fill: null,
  snapshot: null,
  expect: null,
  screenshot: null,
  'menu invoke': 'MAIN_NOT_RESPONDING',
};

describe('SIGSTOP and SIGCONT of an app the gateway launched, during each kind of operation', () => {
  let gateway: GatewayProcess;
  /** The agent whose app is stopped. */
  let agent: GatewayClient;
  /** Another client, acting on another session, which must keep being answered meanwhile. */
  let other: GatewayClient;
  let stopped: { id: string; pid: number };
  let bystander: { id: string; pid: number };
  const groups: number[] = [];

  beforeAll(async () => {
    gateway = await serveInChild(['--policy', UNATTENDED_POLICY]);
    agent = gatewayClient(gateway.url);
    other = gatewayClient(gateway.url);
    [stopped, bystander] = await Promise.all([launch(), launch()]);
  });
  afterEach(() => {
    // A failed test must not leave the app stopped for the next one.
    signalEach(livingGroupMembers(stopped.pid), 'SIGCONT');
  });
  afterAll(async () => {
    for (const pgid of groups) {
      signalEach([-pgid], 'SIGCONT');
      signalEach([-pgid], 'SIGKILL');
    }
    await expectGroupsGone(groups);
    if (gateway && isAlive(gateway.pid)) gateway.child.kill('SIGKILL');
  });

  async function launch(): Promise<{ id: string; pid: number }> {
    const { launch: launched } = await agent.data(LAUNCH, {
      input: { ...fixtureLaunch(), timeoutMs: LAUNCH_TIMEOUT_MS },
    });
    expect(launched.status).toBe('RUNNING');
    groups.push(launched.pid);
    return launched;
  }

  /**
   * Stops `pids`, sends the operation, and while it waits has the other client act on the other session
   * and read the server. Returns the operation's answer, taken while the pids were still stopped.
   */
  async function whileStopped(pids: readonly number[], operation: Operation): Promise<LooseResponse> {
    expect(pids.length).toBeGreaterThan(0);
    signalEach(pids, 'SIGSTOP');
    await waitUntil(() => pids.every(isStopped), 'the processes to stop');
    const answer = agent.send(operation.document(stopped.id));
    const [meanwhile, still] = await Promise.all([
      other.data(
        `mutation { click(session: "${bystander.id}", target: { testId: "log" }, timeoutMs: 30000) { elapsedMs } }`,
      ),
      other.data(STILL_ANSWERING),
    ]);
    expect(meanwhile.click.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(still.errorCodes.length).toBe(Object.keys(ERROR_CODES).length);
    const answered = await within(answer, ANSWER_SAFETY_NET_MS, `${operation.kind} on a stopped app`);
    // It answered on its own deadline, not because the app was continued.
    expect(pids.every(isStopped)).toBe(true);
    return answered;
  }

  function expectAnswer(response: LooseResponse, code: string | null, kind: string): void {
    if (code === null) {
      expect(response.errors, `${kind}: ${JSON.stringify(response.errors)}`).toBeUndefined();
      return;
    }
    expect(response.errors?.[0]?.extensions, `${kind}: ${JSON.stringify(response)}`).toMatchObject({
      code,
      retryable: true,
    });
  }

  /** After SIGCONT the same operation works. */
  async function worksAgain(operation: Operation): Promise<void> {
    const response = await agent.send(operation.document(stopped.id));
    expect(
      response.errors,
      `${operation.kind} after SIGCONT: ${JSON.stringify(response.errors)}`,
    ).toBeUndefined();
  }

  for (const operation of OPERATIONS) {
    it(`renderer stopped during ${operation.kind}: ${WHILE_RENDERER_STOPPED[operation.kind] ?? 'answered'}, then works after SIGCONT`, async () => {
      const renderers = rendererPids(stopped.pid);
      const response = await whileStopped(renderers, operation);
      expectAnswer(response, WHILE_RENDERER_STOPPED[operation.kind] ?? null, operation.kind);
      signalEach(renderers, 'SIGCONT');
      await worksAgain(operation);
    });
  }

  for (const operation of OPERATIONS) {
    it(`main process stopped during ${operation.kind}: ${WHILE_MAIN_STOPPED[operation.kind] ?? 'answered'}, then works after SIGCONT`, async () => {
      const response = await whileStopped([stopped.pid], operation);
      expectAnswer(response, WHILE_MAIN_STOPPED[operation.kind] ?? null, operation.kind);
      signalEach([stopped.pid], 'SIGCONT');
      await worksAgain(operation);
    });
  }

  it('a menu invoke answered MAIN_NOT_RESPONDING does not click the item once the process resumes', async () => {
    const darkMode = async (): Promise<boolean> => {
      const { session } = await agent.data(
        `{ session(id: "${stopped.id}") { menuItem(path: ["View", "Dark Mode"]) { checked } } }`,
      );
      return session.menuItem.checked;
    };
    const before = await darkMode();
    const invoke = OPERATIONS.find((operation) => operation.kind === 'menu invoke') as Operation;
    expectAnswer(await whileStopped([stopped.pid], invoke), 'MAIN_NOT_RESPONDING', invoke.kind);
    signalEach([stopped.pid], 'SIGCONT');
    // The process runs what its inspector queued before it reads the menu: the given-up click refuses.
    expect(await darkMode()).toBe(before);
  });

  it('leaves nothing behind: stop reaps both apps', async () => {
    for (const session of [stopped, bystander]) {
      const { stop } = await agent.data(`mutation { stop(id: "${session.id}") { status } }`);
      expect(stop.status).toBe('STOPPED');
    }
    await expectGroupsGone(groups);
  });
});

/** Whether the process is stopped by a signal (state T), as SIGSTOP leaves it. */
function isStopped(pid: number): boolean {
  return procStat(pid)?.state === 'T';
}

async function waitUntil(holds: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
