import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawnDeflateOffers } from '../transports/process/uncompressed-websockets.js';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';

/**
 * The DevTools connections the gateway opens on this machine go uncompressed: Playwright offers
 * permessage-deflate on every CDP WebSocket, and inflating each message cost more CPU than the rest of a
 * console line's way through the gateway. The seam is Node's `http.request`; these tests fail when a
 * Playwright release opens its handshake some other way.
 */
describe('DevTools connections on loopback go uncompressed', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  let chromium: OutsideProcess | undefined;
  beforeAll(async () => {
    gateway = await startGateway({ mutationsPerSecond: 1_000 });
    api = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await chromium?.kill();
  });

  it('on launch: Playwright’s connection to the app offers no compression, and the app is driven as ever', async () => {
    const before = withdrawnDeflateOffers();
    const { launch } = await api.data(
      'mutation ($input: LaunchInput!) { launch(input: $input) { id windows { title } } }',
      { input: fixtureLaunch() },
    );
    expect(withdrawnDeflateOffers()).toBeGreaterThan(before);
    expect(launch.windows).toContainEqual({ title: 'Stagegraph Fixture' });
    await api.data(`mutation { stop(id: "${launch.id}") { status } }`);
  });

  it('on attach: connectOverCDP to a browser the user started offers none either', async () => {
    chromium = await startDebuggableChromium('data:text/html,<title>outside</title>');
    const before = withdrawnDeflateOffers();
    const { attach } = await api.data(
      'mutation ($port: Int!) { attach(input: { port: $port }) { id windows { title } } }',
      { port: chromium.port },
    );
    expect(withdrawnDeflateOffers()).toBeGreaterThan(before);
    expect(attach.windows).toContainEqual({ title: 'outside' });
    await api.data(`mutation { detach(id: "${attach.id}") { status } }`);
  });
});
