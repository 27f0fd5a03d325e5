import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument, SessionWindowsDocument } from './generated/graphql.js';
import { startDebuggableChromium, startFixtureOutside } from './helpers/debuggable.js';
import { fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { useLoopbackServer } from './helpers/loopback-server.js';
import { whileMoving } from './helpers/progress.js';

/**
 * The click that is performed but not confirmed: generous, so that on a loaded machine the actionability
 * checks before the click still fit in it — the test depends on the click being sent before it runs out.
 */
const UNCONFIRMED_CLICK_TIMEOUT_MS = 10_000;
/**
 * The Save button's handler blocks the renderer on a synchronous request this server holds for longer
 * than the click's timeout, counted from when the request arrives — that is, after the click was sent,
 * which is after the click's own timer started. Both timers run in this process, so the click's runs out
 * first whatever the machine's load: the order of events decides, not their speed.
 */
const HOLD_MS = UNCONFIRMED_CLICK_TIMEOUT_MS + 1_000;
/** The API behind "Load order" answers after this: far longer than the page's 80 ms of DOM quiet. */
const SLOW_API_MS = 300;
/** The click on "Watch updates" gives up on its never-ending request after this, and says so. */
const NEVER_ENDING_CLICK_TIMEOUT_MS = 2_000;
const LOAD_CLICKS = 5;

const PAGE = `<!doctype html>
<title>Action Effects</title>
<h1>Action effects</h1>
<button type="button" data-testid="save">Save</button>
<button type="button" data-testid="archive" disabled>Archive</button>
<button type="button" data-testid="load">Load order</button>
<button type="button" data-testid="watch">Watch updates</button>
<ul data-testid="orders"></ul>
<p data-testid="status"></p>
<script>
  const $ = (id) => document.querySelector('[data-testid="' + id + '"]');
  // A long poll the page keeps open from the start: not any action's, so no action waits for it.
  fetch('/never?since=load').catch(() => {});
  $('save').addEventListener('click', () => {
    const hold = new XMLHttpRequest();
    hold.open('GET', '/hold', false);
    hold.send();
    $('save').textContent = 'Saved';
  });
  let orders = 0;
  $('load').addEventListener('click', async () => {
    orders += 1;
    const text = await (await fetch('/slow?order=' + orders)).text();
    const item = document.createElement('li');
    item.textContent = text;
    $('orders').append(item);
  });
  $('watch').addEventListener('click', () => {
    $('status').textContent = 'Watching for updates';
    fetch('/never?since=click').catch(() => {});
  });
</script>`;

const server = useLoopbackServer((request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? '/', 'http://x');
  const answer = (text: string) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    response.end(text);
  };
  if (url.pathname === '/') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(PAGE);
  } else if (url.pathname === '/hold') setTimeout(() => answer('held'), HOLD_MS);
  else if (url.pathname === '/slow')
    setTimeout(() => answer(`Order ${url.searchParams.get('order')} loaded`), SLOW_API_MS);
  else if (url.pathname !== '/never') response.writeHead(404).end();
  // /never is never answered; the server closes it when the file's tests are done.
});

interface EffectsWindow {
  readonly client: GatewayClient;
  readonly windowId: string;
  stop(): Promise<void>;
}

/** A gateway that drives unattended, as the page-level suites do. */
const unattendedGateway = () => startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 });

/** The fixture app's extra window on the effects page, once the session lists it. */
async function effectsWindowOf(client: GatewayClient): Promise<string> {
  const windows = await whileMoving(
    async () => (await client.data(SessionWindowsDocument, {})).session?.windows ?? [],
    (list) => list.some((window) => window.title === 'Action Effects'),
    'the effects window opening',
  );
  return windows.find((window) => window.title === 'Action Effects')?.id ?? '';
}

/** The fixture app on the stand-in, launched by the gateway, with the effects page in its extra window. */
async function onStandIn(): Promise<EffectsWindow> {
  const gateway = await unattendedGateway();
  const client = gatewayClient(gateway.url);
  await client.data(LaunchDocument, {
    input: fixtureLaunch(STAND_IN, { FIXTURE_CAPTURE_URL: `${server.origin()}/` }),
  });
  return { client, windowId: await effectsWindowOf(client), stop: () => gateway.stop() };
}

/**
 * The same app started by hand and injected into: its windows are reached through the relay over
 * webContents.debugger, where extra CDP sessions hear no events, so the watch takes Playwright's.
 */
async function onInjected(): Promise<EffectsWindow> {
  const app = await startFixtureOutside({ port: false, env: { FIXTURE_CAPTURE_URL: `${server.origin()}/` } });
  let gateway: RunningGateway | undefined;
  try {
    gateway = await unattendedGateway();
    const client = gatewayClient(gateway.url);
    await client.data(`mutation { inject(input: { pid: ${app.pid} }) { id } }`);
    const stop = async () => {
      await gateway?.stop();
      await app.kill();
    };
    return { client, windowId: await effectsWindowOf(client), stop };
  } catch (error) {
    await gateway?.stop();
    await app.kill();
    throw error;
  }
}

/** The effects page alone in a plain Chromium started outside Stagegraph, attached over CDP. */
async function onPlainChromium(): Promise<EffectsWindow> {
  const chromium = await startDebuggableChromium(`${server.origin()}/`);
  let gateway: RunningGateway | undefined;
  try {
    gateway = await unattendedGateway();
    const client = gatewayClient(gateway.url);
    const { attach } = await client.data(
      'mutation ($port: Int!) { attach(input: { port: $port }) { activeWindow { id } } }',
      { port: chromium.port },
    );
    const stop = async () => {
      await gateway?.stop();
      await chromium.kill();
    };
    return { client, windowId: attach.activeWindow.id, stop };
  } catch (error) {
    await gateway?.stop();
    await chromium.kill();
    throw error;
  }
}

const HOSTS = [
  { name: 'the fixture app on the stand-in', start: onStandIn },
  { name: 'plain Chromium over CDP attach', start: onPlainChromium },
  { name: 'the fixture app injected into', start: onInjected },
];

for (const host of HOSTS) {
  describe(`action effects on ${host.name}`, () => {
    let effects: EffectsWindow;
    beforeAll(async () => {
      effects = await host.start();
    }, 120_000);
    afterAll(() => effects?.stop());

    const click = (testId: string, selection: string, timeoutMs?: number) =>
      effects.client.send(
        `mutation { click(window: "${effects.windowId}", target: { testId: "${testId}" }${timeoutMs ? `, timeoutMs: ${timeoutMs}` : ''}) { ${selection} } }`,
      );

    it('the diff of a click holds what its request brought, every time, with nothing left pending', async () => {
      for (let order = 1; order <= LOAD_CLICKS; order += 1) {
        const { data, errors } = await click(
          'load',
          'diff { added { role name } } settle { requestsFinished stillPending { url } }',
        );
        expect(errors).toBeUndefined();
        expect(data.click.diff.added).toContainEqual({ role: 'text', name: `Order ${order} loaded` });
        // The page's long poll, open since it loaded, is not this click's and was not waited for.
        expect(data.click.settle.stillPending).toEqual([]);
        expect(data.click.settle.requestsFinished).toBeGreaterThanOrEqual(1);
      }
    }, 120_000);

    it('a click that starts a never-ending request still answers, naming the request it gave up on', async () => {
      const { data, errors } = await click(
        'watch',
        'diff { added { name } } settle { stillPending { method url resourceType } }',
        NEVER_ENDING_CLICK_TIMEOUT_MS,
      );
      expect(errors).toBeUndefined();
      expect(data.click.settle.stillPending).toEqual([
        { method: 'GET', url: `${server.origin()}/never?since=click`, resourceType: 'fetch' },
      ]);
      expect(data.click.diff.added.map((node: Loose) => node.name)).toContain('Watching for updates');
    }, 60_000);

    it('a click the page received but did not confirm in time is ACTION_UNCONFIRMED, not retryable, with the state after', async () => {
      const { data, errors } = await click('save', 'target { name }', UNCONFIRMED_CLICK_TIMEOUT_MS);
      expect(data?.click ?? null).toBeNull();
      expect(errors?.[0]?.extensions).toMatchObject({
        code: 'ACTION_UNCONFIRMED',
        retryable: false,
        details: {
          phase: 'performing click action',
          // Read once the page was free again: the handler had run to its end.
          target: { role: 'button', name: 'Saved' },
          pendingRequests: [{ method: 'GET', url: `${server.origin()}/hold`, resourceType: 'xhr' }],
        },
      });
      expect(errors?.[0]?.extensions?.nextActions?.[0]).toContain('node(ref:');
    }, 120_000);

    it('a target disabled throughout was never clicked: ELEMENT_DISABLED, retryable', async () => {
      const { errors } = await click('archive', 'windowId', 5_000);
      expect(errors?.[0]?.extensions).toMatchObject({ code: 'ELEMENT_DISABLED', retryable: true });
    }, 60_000);
  });
}
