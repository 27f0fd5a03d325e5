import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newTestPage } from './helpers/browser.js';
import { http, type RunningGateway, startGateway } from './helpers/gateway.js';

let gateway: RunningGateway;
let browser: Browser;
let page: Page;
/** Every request the page tried to send off this machine; offline means this stays empty. */
const offMachine: string[] = [];

beforeAll(async () => {
  gateway = await startGateway();
  browser = await launchChromium();
  page = await newTestPage(browser);
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
      return route.continue();
    offMachine.push(url.href);
    return route.abort();
  });
  await page.goto(gateway.url, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** The URL of GraphiQL's script, as the page names it. */
async function bundleUrl(url: string): Promise<string> {
  const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
  const src = /src="([^"]+graphiql\.js)"/.exec(html)?.[1];
  if (!src) throw new Error(`the page names no script: ${html}`);
  return new URL(src, url).href;
}

async function run(operation: string) {
  const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(operation);
  const name = /^\w+ (\w+)/.exec(operation)?.[1] ?? '';
  await expect.poll(() => page.locator('.graphiql-query-editor').textContent()).toContain(name);
  // GraphiQL re-parses the operation name on a debounce; executing sooner runs the previous operation.
  await page.waitForTimeout(500);
  await page.locator('.graphiql-execute-button').click();
}

const response = () => page.locator('.graphiql-response').first();

describe('GraphiQL', () => {
  it('renders from the server alone, with no request leaving the machine', async () => {
    await page.locator('.graphiql-container').first().waitFor();
    await expect.poll(() => page.locator('.graphiql-query-editor').textContent()).toContain('FirstLook');
    expect(offMachine).toEqual([]);
  });

  it('runs a query', async () => {
    await run('query Probe { transports { id } errorCodes { code } }');
    await expect.poll(() => response().textContent()).toContain('playwright-electron');
    expect(await response().textContent()).toContain('SESSION_NOT_FOUND');
  });

  it('runs a subscription over SSE and shows its error for an unknown session', async () => {
    const stream = page.waitForRequest((request) =>
      (request.headers().accept ?? '').includes('text/event-stream'),
    );
    await run('subscription Watch { sessionEvents(session: "s404") { type } }');
    await expect
      .poll(() => response().textContent())
      .toMatch(/SESSION_NOT_FOUND[\s\S]*s404|s404[\s\S]*SESSION_NOT_FOUND/);
    expect(new URL((await stream).url()).pathname).toBe('/graphql');
    expect(offMachine).toEqual([]);
  });

  it('serves its bundle compressed to a browser that accepts it', async () => {
    const script = await bundleUrl(gateway.url);
    const answer = await fetch(script, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(answer.headers.get('content-encoding')).toBe('br');
    const gzip = await fetch(script, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toContain('YogaGraphiQL');
  });

  it('compresses on the first requests, which arrive together, and serves the page whole to each', async () => {
    const fresh = await startGateway();
    try {
      const script = await bundleUrl(fresh.url);
      const page = () =>
        fetch(script, { headers: { 'accept-encoding': 'br' } }).then(async (answer) => ({
          encoding: answer.headers.get('content-encoding'),
          text: await answer.text(),
        }));
      const [first, second] = await Promise.all([page(), page()]);
      expect(first.encoding).toBe('br');
      expect(first.text).toContain('YogaGraphiQL');
      expect(second).toEqual(first);
      const plain = await fetch(script, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(first.text);
    } finally {
      await fresh.stop();
    }
  });
});

describe('GraphiQL with --token', () => {
  const TOKEN = 'graphiql-e2e-token';
  let guarded: RunningGateway;
  let tokenPage: Page;
  beforeAll(async () => {
    guarded = await startGateway({ token: TOKEN });
    tokenPage = await newTestPage(browser);
    await tokenPage.goto(guarded.url, { waitUntil: 'load' });
    await tokenPage.locator('.graphiql-container').first().waitFor();
  });
  afterAll(() => guarded?.stop());

  it('streams a subscription once the token is in the Headers tab', async () => {
    await tokenPage.getByText('Headers', { exact: true }).click();
    const headers = tokenPage.locator('.graphiql-editor-tool .monaco-editor').last();
    await headers.click();
    await tokenPage.keyboard.press('ControlOrMeta+A');
    await tokenPage.keyboard.press('Delete');
    await tokenPage.keyboard.insertText(`{"authorization": "Bearer ${TOKEN}"}`);
    const editor = tokenPage.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.click();
    await tokenPage.keyboard.press('ControlOrMeta+A');
    await tokenPage.keyboard.press('Delete');
    await tokenPage.keyboard.insertText('subscription Trail { audit { record { operation outcome } } }');
    await expect.poll(() => tokenPage.locator('.graphiql-query-editor').textContent()).toContain('Trail');
    await tokenPage.waitForTimeout(500);
    const stream = tokenPage.waitForResponse((r) =>
      (r.request().headers().accept ?? '').includes('text/event-stream'),
    );
    await tokenPage.locator('.graphiql-execute-button').click();
    expect((await stream).status()).toBe(200);
    const out = tokenPage.locator('.graphiql-response').first();
    // Each audited mutation the test sends (with the token, from Node) arrives in the page's stream.
    await expect
      .poll(
        async () => {
          await http(guarded.url, 'mutation { stop(id: "s404") { status } }', undefined, {
            authorization: `Bearer ${TOKEN}`,
          });
          return out.textContent();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toMatch(/"operation":\s*"stop"/);
  });
});
