import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors/registry.js';
import { procStat } from '../../transports/process/process-group.js';
import { fixtureLaunch } from '../helpers/fixture-app.js';
import { type RunningGateway, startGateway, subscribe, wsClient } from '../helpers/gateway.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import {
  expectGroupsGone,
  expectPidsGone,
  livingGroupMembers,
  rendererPids,
  signalEach,
} from '../helpers/processes.js';
import { LAUNCH, SESSION_EVENTS, STILL_ANSWERING } from './documents.js';

/** A click on a stopped renderer must fail on its own bounds; past this it hangs, and the test says so. */
const STALL_SAFETY_NET_MS = 90_000;
/** A loaded machine may take this long to start the stand-in and its Chromium; a safety net, not a target. */
const LAUNCH_TIMEOUT_MS = 60_000;

describe('faults in an app the gateway launched', () => {
  let gateway: RunningGateway;
  let client: Client;
  /** The agent that launches and acts. */
  let agent: GatewayClient;
  /** Another client, which must keep being answered whatever happens to the agent's app. */
  let other: GatewayClient;
  /** Every process of the sessions this file launched, recorded while they ran. */
  const started: number[] = [];
  const groups: number[] = [];

  beforeAll(async () => {
    gateway = await startGateway();
    client = wsClient(gateway.wsUrl);
    agent = gatewayClient(gateway.url);
    other = gatewayClient(gateway.url);
  });
  afterEach(async () => {
    // A stopped renderer ignores SIGKILL's siblings until continued; continue first, then reap.
    signalEach(started, 'SIGCONT');
    for (const pgid of groups) signalEach([-pgid], 'SIGKILL');
    await expectGroupsGone(groups);
    started.length = 0;
    groups.length = 0;
  });
  afterAll(async () => {
    await client?.dispose();
    await gateway?.stop();
  });

  async function launch(): Promise<{ id: string; pid: number }> {
    const { launch: launched } = await agent.data(LAUNCH, {
      input: { ...fixtureLaunch(), timeoutMs: LAUNCH_TIMEOUT_MS },
    });
    expect(launched.status).toBe('RUNNING');
    groups.push(launched.pid);
    started.push(...livingGroupMembers(launched.pid));
    return launched;
  }

  async function expectAnswering(): Promise<void> {
    const answer = await other.data(STILL_ANSWERING);
    expect(answer.errorCodes.length).toBe(Object.keys(ERROR_CODES).length);
  }

  it('kill -9 of the app: the session turns CRASHED, its Chromium is reaped, the gateway answers', async () => {
    const { id, pid } = await launch();
    const members = livingGroupMembers(pid);
    expect(rendererPids(pid).length).toBeGreaterThan(0);
    const events = subscribe(client, SESSION_EVENTS, { session: id });

    process.kill(pid, 'SIGKILL');
    const crashed = await events.waitFor((event) => event.sessionEvents.type === 'CRASHED', 30_000);
    expect(crashed.sessionEvents).toMatchObject({ status: 'CRASHED', exit: { signal: 'SIGKILL' } });
    await expectGroupsGone([pid]);
    await expectPidsGone(members);

    await expectAnswering();
    const { session } = await other.data(`{ session(id: "${id}") { status exit { signal } } }`);
    expect(session).toEqual({ status: 'CRASHED', exit: { signal: 'SIGKILL' } });
    events.dispose();
  });

  it('kill -9 of the renderer: RENDERER_CRASHED, the next action fails with a registered code, stop reaps all', async () => {
    const { id, pid } = await launch();
    const members = livingGroupMembers(pid);
    const events = subscribe(client, SESSION_EVENTS, { session: id });

    signalEach(rendererPids(pid), 'SIGKILL');
    const crashed = await events.waitFor((event) => event.sessionEvents.type === 'RENDERER_CRASHED', 30_000);
    expect(crashed.sessionEvents).toMatchObject({ status: 'RUNNING', window: { id: 'w1' } });

    const refused = await agent.failure(
      `mutation { click(session: "${id}", target: { testId: "log" }, timeoutMs: 5000) { elapsedMs } }`,
    );
    expect(refused).toMatchObject({ code: 'RENDERER_CRASHED', retryable: false });
    await expectAnswering();

    const { stop } = await agent.data(`mutation { stop(id: "${id}") { status } }`);
    expect(stop.status).toBe('STOPPED');
    await events.waitFor((event) => event.sessionEvents.type === 'STOPPED');
    await expectGroupsGone([pid]);
    await expectPidsGone(members);
    events.dispose();
  });

  it('SIGSTOP of the renderer during a click: RENDERER_NOT_RESPONDING, other clients answered meanwhile, works after SIGCONT', async () => {
    const { id, pid } = await launch();
    const members = livingGroupMembers(pid);
    const renderers = rendererPids(pid);
    expect(renderers.length).toBeGreaterThan(0);

    signalEach(renderers, 'SIGSTOP');
    const click = agent.send(
      `mutation { click(session: "${id}", target: { testId: "log" }, timeoutMs: 2000) { elapsedMs } }`,
    );
    // Another client is answered while the click waits on the stopped renderer.
    const answer = await other.data(STILL_ANSWERING);
    expect(answer.sessions).toContainEqual({ id, status: 'RUNNING' });

    const timedOut = await within(click, STALL_SAFETY_NET_MS, 'the click on a stopped renderer');
    expect(timedOut.errors?.[0]?.extensions).toMatchObject({
      code: 'RENDERER_NOT_RESPONDING',
      retryable: true,
    });
    expect(timedOut.errors?.[0]?.message).toMatch(/renderer has not answered/);
    // It answered on its own deadline: the renderer is still stopped.
    expect(renderers.every((renderer) => procStat(renderer)?.state === 'T')).toBe(true);
    await expectAnswering();

    signalEach(renderers, 'SIGCONT');
    const again = await agent.data(
      `mutation { click(session: "${id}", target: { testId: "log" }, timeoutMs: 30000) { elapsedMs } }`,
    );
    expect(again.click.elapsedMs).toBeGreaterThanOrEqual(0);
    const { stop } = await agent.data(`mutation { stop(id: "${id}") { status } }`);
    expect(stop.status).toBe('STOPPED');
    await expectGroupsGone([pid]);
    await expectPidsGone(members);
  });
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
