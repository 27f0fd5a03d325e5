import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import { fixtureLaunch, reportRealElectronSkipped } from './helpers/fixture-app.js';
import {
  FIXTURE_HOSTS,
  type FixtureSession,
  type Loose,
  UNATTENDED_POLICY,
} from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/**
 * Names keep their word breaks, and every name a snapshot shows works as a `{ role, name }` target: through
 * the gateway, on the fixture app (stand-in, real Electron where one resolves, plain Chromium) and on a page
 * of word-break cases in plain Chromium.
 */
for (const host of FIXTURE_HOSTS) {
  describe(host.name, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await host.start();
    });
    afterAll(() => app?.stop());

    const drafts = async () =>
      (
        await app.data(
          '{ session { window { find(role: "region", name: "Drafts") { ref } snapshot { outline nodes { ref role name } } } } }',
        )
      ).session.window;

    describe(`accessible names through the gateway on ${host.name}`, () => {
      it('shows a button of two inline-block spans as "Save draft", and clicks it by that name', async () => {
        const { snapshot } = await drafts();
        const save = snapshot.nodes.find(
          (node: Loose) => node.role === 'button' && node.name.replace(/\s/g, '') === 'Savedraft',
        );
        expect(save.name).toBe('Save draft');
        expect(snapshot.outline).toContain('button "Save draft"');
        const clicked = await app.data(
          'mutation { click(target: { role: "button", name: "Save draft" }) { target { ref name } } }',
        );
        expect(clicked.click.target).toEqual({ ref: save.ref, name: 'Save draft' });
        await app.data(
          'mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "Clicked: save-draft") { actual } }',
        );
      });

      it("clicks an icon button by the name Chromium gives it (its image's alt apart from the text)", async () => {
        const { snapshot } = await drafts();
        expect(snapshot.nodes).toEqual(
          expect.arrayContaining([expect.objectContaining({ role: 'button', name: 'Send now' })]),
        );
        // Playwright's getByRole names it "Sendnow": resolved through it, this click found nothing.
        await app.data(
          'mutation { click(target: { role: "button", name: "Send now" }) { target { name } } }',
        );
        await app.data(
          'mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "Clicked: send-now") { actual } }',
        );
        const glued = await app.failure(
          'mutation { click(target: { role: "button", name: "Savedraft" }, timeoutMs: 500) { target { name } } }',
        );
        expect(glued.code).toBe('SELECTOR_NO_MATCH');
        expect(glued.similarRefs[0]).toMatchObject({ role: 'button', name: 'Save draft' });
      });
    });
  });
}

reportRealElectronSkipped('accessible names');

describe('word-break cases in plain Chromium', () => {
  const PAGE = new URL('../fixtures/pages/accname-word-breaks.html', import.meta.url).href;
  let gateway: RunningGateway;
  let client: GatewayClient;
  beforeAll(async () => {
    gateway = await startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 }, [
      plainChromiumTransport(PAGE),
    ]);
    client = gatewayClient(gateway.url);
    await client.data(LaunchDocument, { input: fixtureLaunch() });
  });
  afterAll(() => gateway?.stop());

  it('every button, link and heading the snapshot names is found by that role and name, as that node', async () => {
    const { nodes } = (await client.data('{ session { window { snapshot { nodes { ref role name } } } } }'))
      .session.window.snapshot;
    const shown = nodes.filter((node: Loose) => ['button', 'link', 'heading'].includes(node.role));
    expect(shown.map((node: Loose) => node.name)).toEqual(
      expect.arrayContaining(['Save draft', "curl -X 'GET'", 'Shop API 1.0 OAS 3.0', 'Next page Continue']),
    );
    const unique = shown.filter(
      (node: Loose) =>
        shown.filter((other: Loose) => other.role === node.role && other.name === node.name).length === 1,
    );
    expect(unique.length).toBeGreaterThan(40);
    // One document: each step focuses its node by role and name and says which node that was.
    const steps = unique.map(
      (node: Loose, i: number) =>
        `s${i}: focus(target: { role: ${JSON.stringify(node.role)}, name: ${JSON.stringify(node.name)} }) { target { ref } }`,
    );
    const data = await client.data(`mutation { ${steps.join('\n')} }`);
    unique.forEach((node: Loose, i: number) => {
      expect(data[`s${i}`].target.ref, `${node.role} ${node.name}`).toBe(node.ref);
    });
  });
});
