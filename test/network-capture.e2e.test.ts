import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptureApp, startCaptureApp } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import { listenOnLoopback } from './helpers/loopback-server.js';

// Capture as the raw CDP session assembles it: redirects, the cookie headers only ExtraInfo events carry,
// and pages that open after capture was armed. The page is driven with renderer eval, opted into here and let
// through by the attach suites' policy, which allows it.
const EVAL_POLICY = fileURLToPath(new URL('./attach.policy.yaml', import.meta.url));

/** Another origin with a redirect, so the page can follow one without touching the capture page's server. */
const redirects = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  if (path === '/hop') return response.writeHead(302, { location: '/landed' }).end();
  if (path === '/landed') return response.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
  response.writeHead(404).end();
});
let redirectOrigin = '';
let app: CaptureApp;
beforeAll(async () => {
  redirectOrigin = await listenOnLoopback(redirects);
  app = await startCaptureApp('', { allowEval: 'renderer', policyFile: EVAL_POLICY });
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => redirects.close(resolve));
});

const inPage = (code: string, window = app.windowId) =>
  app.data(`mutation { evalRenderer(window: "${window}", code: ${JSON.stringify(code)}) { json } }`);
const entries = async (args: string) =>
  (
    await app.data(
      `{ session { network(${args}) { entries { windowId method url status failure durationMs requestHeaders { name value } } } } }`,
    )
  ).session.network.entries;
const capture = async (filter: string) =>
  (await app.data(`mutation { startNetworkCapture(filter: { ${filter} }) { id } }`)).startNetworkCapture.id;
const stop = (id: string) => app.data(`mutation { stopNetworkCapture(capture: "${id}") { id } }`);
/** Opens `/?<name>` in a popup, kept in the capture page as `window.__<name>` once loaded. */
const openPopup = (name: string) =>
  inPage(`async () => {
    const popup = window.open('/?${name}', '_blank');
    while (popup.document.readyState !== 'complete' || popup.location.search !== '?${name}')
      await new Promise((resolve) => setTimeout(resolve, 20));
    window.__${name} = popup;
  }`);

describe('network capture over the page’s CDP session', () => {
  it('records each hop of a redirect as a request of its own', async () => {
    const id = await capture(`urlPatterns: ["${redirectOrigin}/*"]`);
    await inPage(`() => fetch('${redirectOrigin}/hop', { mode: 'no-cors' }).then((r) => r.text())`);
    await expect.poll(async () => (await entries(`urlContains: "${redirectOrigin}"`)).length).toBe(2);
    const [hop, landed] = await entries(`urlContains: "${redirectOrigin}"`);
    expect(hop).toMatchObject({ method: 'GET', url: `${redirectOrigin}/hop`, status: 302, failure: null });
    expect(landed).toMatchObject({ url: `${redirectOrigin}/landed`, status: 200, windowId: app.windowId });
    expect(landed.durationMs).toBeGreaterThanOrEqual(0);
    await stop(id);
  });

  it('shows the cookies a request carried (redacted), which only the ExtraInfo headers hold', async () => {
    const id = await capture('urlPatterns: ["*/api/data.json"]');
    // The first response sets a cookie; the second request carries it.
    await inPage(`() => fetch('/api/data.json').then((r) => r.text())`);
    await inPage(`() => fetch('/api/data.json').then((r) => r.text())`);
    await expect.poll(async () => (await entries('urlContains: "data.json", last: 2')).length).toBe(2);
    const [, second] = await entries('urlContains: "data.json", last: 2');
    expect(second.requestHeaders).toContainEqual({ name: 'cookie', value: '[redacted]' });
    await stop(id);
  });

  it('captures a page opened after capture was armed', async () => {
    const id = await capture('urlPatterns: ["*/api/ping?from=popup"]');
    await openPopup('popup');
    // A page is followed from the moment the gateway has seen it open and enabled its Network domain, a
    // moment after it opened: its requests are repeated until that moment has passed.
    const fromPopup = async () => {
      await inPage(`() => window.__popup.fetch('/api/ping?from=popup').then((r) => r.text())`);
      return (await entries('urlContains: "from=popup", last: 1')).length;
    };
    await expect.poll(fromPopup, { timeout: 10_000 }).toBe(1);
    const [entry] = await entries('urlContains: "from=popup", last: 1');
    expect(entry).toMatchObject({ method: 'GET', status: 200 });
    expect(entry.windowId).not.toBe(app.windowId);
    await inPage('() => window.__popup.close()');
    await stop(id);
  });
});

describe('network stubs over the page’s CDP session', () => {
  const stub = async (input: string) =>
    (await app.data(`mutation { stubNetwork(input: { ${input} }) { id } }`)).stubNetwork.id;
  const unstub = (id: string) => app.data(`mutation { unstubNetwork(stub: "${id}") { id } }`);

  it('names exactly the request a stub answered among identical ones in flight at once', async () => {
    const { startNetworkCapture: armed } = await app.data(
      'mutation { startNetworkCapture(filter: { urlPatterns: ["*/api/ping?same"] }, bodies: true) { id } }',
    );
    // The stubbed request is held back, so the real one finishes first: correlating by method and URL
    // would name the real one.
    const stubId = await stub('pattern: "*/api/ping?same", body: "stubbed", delayMs: 300, times: 1');
    const bodies = await inPage(`() => Promise.all([1, 2].map(() =>
      fetch('/api/ping?same', { cache: 'no-store' }).then((r) => r.text())))`);
    expect([...JSON.parse(bodies.evalRenderer.json)].sort()).toEqual(['pong', 'stubbed']);
    const same = async () =>
      (
        await app.data(
          '{ session { network(urlContains: "ping?same") { entries { stubId responseBody { data } } } } }',
        )
      ).session.network.entries;
    await expect.poll(async () => (await same()).length).toBe(2);
    const entries = await same();
    expect(entries.filter((entry: { stubId: string | null }) => entry.stubId === stubId)).toEqual([
      { stubId, responseBody: { data: 'stubbed' } },
    ]);
    expect(entries.filter((entry: { stubId: string | null }) => entry.stubId === null)).toEqual([
      { stubId: null, responseBody: { data: 'pong' } },
    ]);
    await unstub(stubId);
    await stop(armed.id);
  });

  it('stubs a page opened after the stub was added', async () => {
    const stubId = await stub('pattern: "*/api/ping?from=stubbedPopup", body: "stubbed"');
    await openPopup('stubbedPopup');
    // The page is stubbed from the moment the gateway has seen it open and enabled Fetch on it.
    const fromPopup = async () =>
      JSON.parse(
        (
          await inPage(
            `() => window.__stubbedPopup.fetch('/api/ping?from=stubbedPopup').then((r) => r.text())`,
          )
        ).evalRenderer.json,
      );
    await expect.poll(fromPopup, { timeout: 10_000 }).toBe('stubbed');
    await inPage('() => window.__stubbedPopup.close()');
    await unstub(stubId);
  });
});

reportRealElectronSkipped('network capture over the page’s CDP session');
