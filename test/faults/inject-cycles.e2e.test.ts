import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPortsOf } from '../../transports/process/proc-sockets.js';
import { type OutsideProcess, startFixtureOutside } from '../helpers/debuggable.js';
import { type RunningGateway, startGateway } from '../helpers/gateway.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import { injectUseDetach } from '../helpers/inject-cycles.js';
import { expectPidsGone, isAlive, livingGroupMembers } from '../helpers/processes.js';
import { STILL_ANSWERING, UNATTENDED_POLICY } from './documents.js';

const CYCLES = 50;

describe('detach after heavy use of an upgraded inject session, over and over, from an app the gateway did not start', () => {
  let app: OutsideProcess;
  let gateway: RunningGateway;
  let api: GatewayClient;

  beforeAll(async () => {
    app = await startFixtureOutside({ port: false });
    gateway = await startGateway({ policyFile: UNATTENDED_POLICY });
    api = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await app?.kill();
  });

  it(`${CYCLES} cycles of inject, snapshot, fill, click and menu, then detach: the app never dies, and quits cleanly after`, async () => {
    const portsBefore = loopbackPortsOf(app.pid);
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      await injectUseDetach(api, app.pid);
      // A dead app is reaped by this process's event loop: give it a turn so its exit can be named.
      if (!isAlive(app.pid)) await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        isAlive(app.pid),
        `the app died after detach ${cycle} (${JSON.stringify(app.exit())}):\n${app.output().slice(-1500)}`,
      ).toBe(true);
    }
    const { sessions } = await api.data(STILL_ANSWERING);
    expect(new Set(sessions.map((session: { status: string }) => session.status))).toEqual(
      new Set(['DETACHED']),
    );
    // The inspector the cycles opened is closed again: the app listens where it did before.
    await expect.poll(() => loopbackPortsOf(app.pid), { timeout: 30_000 }).toEqual(portsBefore);
    expect(app.output()).not.toMatch(/Segmentation fault|FATAL|Uncaught|unhandled/i);

    // Healthy: asked to quit, the app ends its own Chromium; nothing of it is left behind.
    const members = livingGroupMembers(app.pid);
    expect(members.length).toBeGreaterThan(1);
    process.kill(app.pid, 'SIGTERM');
    await expectPidsGone(members, 60_000);
    await expect.poll(() => app.exit(), { timeout: 30_000 }).toMatchObject({ signal: null });
  }, 900_000);
});
