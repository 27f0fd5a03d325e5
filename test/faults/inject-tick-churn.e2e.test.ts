import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startStandInAppOutside } from '../helpers/debuggable.js';
import { type RunningGateway, startGateway } from '../helpers/gateway.js';
import { type GatewayClient, gatewayClient } from '../helpers/gateway-client.js';
import { isAlive } from '../helpers/processes.js';
import { UNATTENDED_POLICY } from './documents.js';

const TICK_CHURN = fileURLToPath(new URL('./apps/tick-churn.cjs', import.meta.url));
/**
 * Inject's shipped source run inside the inspector's interrupt stalled this app's next-tick queue by the
 * second inject (in 3 of 3 runs): the agent's connect never ran and the inject timed out waiting for it.
 */
const CYCLES = 30;

/** The last "own tick" the app printed: its own next ticks run while the count grows. */
const ownTicks = (output: string): number =>
  Math.max(0, ...[...output.matchAll(/tick-churn: own tick (\d+)/g)].map((match) => Number(match[1])));

describe('inject into an app whose main process never stops passing through its next-tick queue', () => {
  let app: OutsideProcess;
  let gateway: RunningGateway;
  let api: GatewayClient;

  beforeAll(async () => {
    app = await startStandInAppOutside(TICK_CHURN, /tick-churn: ready/);
    gateway = await startGateway({ policyFile: UNATTENDED_POLICY });
    api = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await app?.kill();
  });

  it(`${CYCLES} injects: each agent connects back and detaches, and the app's own next ticks still run after`, async () => {
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const response = await api.send(
        `mutation { inject(input: { pid: ${app.pid}, upgrade: false }) { id status } }`,
      );
      expect(response.errors, `inject ${cycle}: ${JSON.stringify(response.errors)}`).toBeUndefined();
      expect(response.data.inject.status).toBe('RUNNING');
      const { detach } = await api.data(`mutation { detach(id: "${response.data.inject.id}") { status } }`);
      expect(detach.status).toBe('DETACHED');
    }
    expect(isAlive(app.pid)).toBe(true);
    const seen = ownTicks(app.output());
    await expect.poll(() => ownTicks(app.output()), { timeout: 30_000 }).toBeGreaterThan(seen);
  }, 600_000);
});
