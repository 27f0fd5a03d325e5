import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPortsOf } from '../../transports/proc-sockets.js';
import { type OutsideProcess, startFixtureOutside } from '../helpers/debuggable.js';
import { type RunningGateway, startGateway } from '../helpers/gateway.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import { expectGroupsGone, isAlive } from '../helpers/processes.js';
import { STILL_ANSWERING } from './documents.js';

const CYCLES = 50;

describe('inject and detach, over and over, into an app the gateway did not start', () => {
  let app: OutsideProcess;
  let gateway: RunningGateway;
  let agent: GatewayClient;

  beforeAll(async () => {
    app = await startFixtureOutside({ port: false });
    gateway = await startGateway();
    agent = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await app?.kill();
    if (app) await expectGroupsGone([app.pid]);
  });

  it(`survives ${CYCLES} inject/detach cycles: the app alive after each, its inspector closed at the end`, async () => {
    const portsBefore = loopbackPortsOf(app.pid);
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const injected = await agent.send(
        `mutation { inject(input: { pid: ${app.pid} }) { id status windows { id title } } }`,
      );
      expect(injected.errors, `cycle ${cycle}: ${JSON.stringify(injected.errors)}`).toBeUndefined();
      expect(injected.data.inject.status).toBe('RUNNING');
      const detached = await agent.send(`mutation { detach(id: "${injected.data.inject.id}") { status } }`);
      expect(detached.errors, `cycle ${cycle}: ${JSON.stringify(detached.errors)}`).toBeUndefined();
      expect(detached.data.detach.status).toBe('DETACHED');
      // A dead app is reaped by this process's event loop: give it a turn so its exit can be named.
      if (!isAlive(app.pid)) await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        isAlive(app.pid),
        `the app died in cycle ${cycle} (${JSON.stringify(app.exit())}):\n${app.output().slice(-1500)}`,
      ).toBe(true);
    }
    const { sessions } = await agent.data(STILL_ANSWERING);
    expect(sessions).toHaveLength(Math.min(CYCLES, 50));
    expect(new Set(sessions.map((session: { status: string }) => session.status))).toEqual(
      new Set(['DETACHED']),
    );
    // Whatever inspector the cycles opened is closed again: the app listens where it did before.
    await expect.poll(() => loopbackPortsOf(app.pid), { timeout: 10_000 }).toEqual(portsBefore);
    expect(isAlive(app.pid)).toBe(true);
  });
});
