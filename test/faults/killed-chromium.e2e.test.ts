import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors/registry.js';
import { procStat } from '../../transports/process/process-group.js';
import { type OutsideProcess, startDebuggableChromium } from '../helpers/debuggable.js';
import { fixtureLaunch } from '../helpers/fixture-app.js';
import { type GatewayClient, gatewayClient, type LooseResponse } from '../helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import {
  commandLine,
  expectGroupsGone,
  isAlive,
  livingGroupMembers,
  rendererPids,
  signalEach,
} from '../helpers/processes.js';
import { LAUNCH, LAUNCH_TIMEOUT_MS, STILL_ANSWERING, UNATTENDED_POLICY } from './documents.js';

/** A snapshot answers by its 30 s read deadline at the latest; past this it hangs. */
const ANSWER_SAFETY_NET_MS = 90_000;
const CONTROLS_PAGE = new URL('../../fixtures/pages/controls.html', import.meta.url).href;

const snapshotOf = (id: string) =>
  `{ session(id: "${id}") { window { snapshot(interactiveOnly: true) { id } } } }`;

/**
 * kill -9 of the Chromium behind a session while a snapshot is in flight: the snapshot is held in the
 * page by stopping its renderer first, so the kill lands mid-snapshot whatever the machine's speed.
 */
describe('kill -9 of the Chromium behind a session, mid-snapshot', () => {
  let gateway: GatewayProcess;
  let agent: GatewayClient;
  let other: GatewayClient;
  const groups: number[] = [];
  let outside: OutsideProcess | undefined;

  beforeAll(async () => {
    gateway = await serveInChild(['--policy', UNATTENDED_POLICY]);
    agent = gatewayClient(gateway.url);
    other = gatewayClient(gateway.url);
  });
  afterEach(async () => {
    for (const pgid of groups) {
      signalEach([-pgid], 'SIGCONT');
      signalEach([-pgid], 'SIGKILL');
    }
    await expectGroupsGone(groups);
    groups.length = 0;
    await outside?.kill();
    outside = undefined;
  });
  afterAll(() => {
    if (gateway && isAlive(gateway.pid)) gateway.child.kill('SIGKILL');
  });

  /**
   * Holds a snapshot of session `id` in the page (its renderers stopped), has another client answered,
   * kills every Chromium process in `group` with SIGKILL, and returns the snapshot's answer.
   */
  async function snapshotKilledUnder(id: string, group: number): Promise<LooseResponse> {
    const renderers = rendererPids(group);
    expect(renderers.length).toBeGreaterThan(0);
    signalEach(renderers, 'SIGSTOP');
    // A window listing finds the renderer silent; from then on a window is looked up without waiting on it.
    const windowTitle = `{ session(id: "${id}") { window { title } } }`;
    await other.data(windowTitle);
    let settled = false;
    const snapshot = agent.send(snapshotOf(id)).finally(() => {
      settled = true;
    });
    // The same lookup, sent after the snapshot's, twice over and answered: the snapshot is past its own
    // lookup, waiting in the stopped page.
    await other.data(windowTitle);
    await other.data(windowTitle);
    await other.data(STILL_ANSWERING);
    expect(settled).toBe(false);
    signalEach(chromiumPids(group), 'SIGKILL');
    return within(snapshot, ANSWER_SAFETY_NET_MS, 'the snapshot whose Chromium was killed');
  }

  /** A registered code other than INTERNAL, and the gateway still answers. */
  async function expectRegisteredAndAnswering(response: LooseResponse): Promise<void> {
    const code = response.errors?.[0]?.extensions?.code;
    expect(code, JSON.stringify(response)).toBeDefined();
    expect(Object.keys(ERROR_CODES)).toContain(code);
    expect(code).not.toBe('INTERNAL');
    const still = await other.data(STILL_ANSWERING);
    expect(still.errorCodes.length).toBe(Object.keys(ERROR_CODES).length);
  }

  it('a stand-in session: the snapshot answers a registered code, the gateway answers, stop reaps all', async () => {
    const { launch } = await agent.data(LAUNCH, {
      input: { ...fixtureLaunch(), timeoutMs: LAUNCH_TIMEOUT_MS },
    });
    groups.push(launch.pid);
    const members = livingGroupMembers(launch.pid);

    await expectRegisteredAndAnswering(await snapshotKilledUnder(launch.id, launch.pid));

    const { stop } = await agent.data(`mutation { stop(id: "${launch.id}") { status } }`);
    expect(['STOPPED', 'EXITED', 'CRASHED']).toContain(stop.status);
    await expectGroupsGone([launch.pid]);
    expect(members.filter(isAlive)).toEqual([]);
  });

  it('a plain Chromium attached over CDP: the snapshot answers a registered code, the gateway answers', async () => {
    outside = await startDebuggableChromium(CONTROLS_PAGE);
    const { attach } = await agent.data(
      `mutation { attach(input: { port: ${outside.port} }) { id status } }`,
    );
    expect(attach.status).toBe('RUNNING');

    await expectRegisteredAndAnswering(await snapshotKilledUnder(attach.id, outside.pid));

    const { session } = await other.data(`{ session(id: "${attach.id}") { status } }`);
    expect(session.status).toBe('DISCONNECTED');
    await expectGroupsGone([outside.pid]);
  });
});

/** Every Chromium process of a group (browser, zygotes, renderers, GPU and utility processes). */
function chromiumPids(group: number): number[] {
  return livingGroupMembers(group).filter((pid) => {
    const line = commandLine(pid).join(' ');
    return /chrom/i.test(line) && procStat(pid) !== undefined;
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
