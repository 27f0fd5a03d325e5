import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newTestPage, PAGE_SAFETY_NET_MS } from './helpers/browser.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/**
 * GraphiQL as `stagegraph serve` serves it to a browser: a small page naming yoga's bundle as separate,
 * cached files, all from the gateway itself (issue 33: it was one 9 MB page).
 */

let dir: string;
let gateway: GatewayProcess;
let browser: Browser;
let page: Page;
/** Every request the page tried to send off this machine; offline means this stays empty. */
const offMachine: string[] = [];
/** The bundle's files as the browser received them: URL, status and cache-control. */
const assets: { url: string; status: number; cacheControl: string }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-graphiql-'));
  gateway = await serveInChild(['--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
  browser = await launchChromium();
  page = await newTestPage(browser);
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
      return route.continue();
    offMachine.push(url.href);
    return route.abort();
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/graphql/assets/'))
      assets.push({
        url: response.url(),
        status: response.status(),
        cacheControl: response.headers()['cache-control'] ?? '',
      });
  });
  await page.goto(gateway.url, { waitUntil: 'load' });
}, PAGE_SAFETY_NET_MS);

afterAll(async () => {
  await browser?.close();
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  await rm(dir, { recursive: true, force: true });
});

describe('GraphiQL through a served gateway', () => {
  it(
    'loads its script, styles and editor workers as cached files of the gateway and runs { __typename } offline',
    async () => {
      await page.locator('.graphiql-container').first().waitFor();
      const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('{ __typename }');
      await expect.poll(() => page.locator('.graphiql-query-editor').textContent()).toContain('__typename');
      // GraphiQL names the operation to run on a debounce after an edit: an execute before it names the demo's
      // FirstLook ("Cannot infer operation"), so execute again until the edit's operation answers.
      await expect
        .poll(
          async () => {
            await page.locator('.graphiql-execute-button').click();
            return page.locator('.graphiql-response').first().textContent();
          },
          { interval: 2_000 },
        )
        .toMatch(/"__typename":\s*"Query"/);
      const names = assets.map(({ url }) => new URL(url).pathname.split('/').at(-1)).sort();
      expect(names).toEqual(expect.arrayContaining(['graphiql.css', 'graphiql.js']));
      // Monaco starts its workers when a language needs one, each from the URL the page names for it.
      const workers = await page.evaluate(() => {
        const environment = (
          self as unknown as { MonacoEnvironment: { getWorkerUrl(id: string, label: string): string } }
        ).MonacoEnvironment;
        return Promise.all(
          ['editorWorkerService', 'json', 'graphql'].map(async (label) => {
            const answer = await fetch(environment.getWorkerUrl('', label));
            return `${label} ${answer.status} ${answer.headers.get('content-type')}`;
          }),
        );
      });
      expect(workers).toEqual([
        'editorWorkerService 200 text/javascript; charset=utf-8',
        'json 200 text/javascript; charset=utf-8',
        'graphql 200 text/javascript; charset=utf-8',
      ]);
      for (const asset of assets) {
        expect(asset.status, asset.url).toBe(200);
        expect(asset.cacheControl, asset.url).toContain('immutable');
      }
      expect(offMachine).toEqual([]);
    },
    PAGE_SAFETY_NET_MS,
  );

  it('answers the page itself in a few kilobytes, and an unknown asset with 404', async () => {
    const answer = await fetch(gateway.url, {
      headers: { accept: 'text/html', 'accept-encoding': 'identity' },
    });
    const html = await answer.text();
    expect(html.length).toBeLessThan(4_096);
    const script = /src="([^"]+graphiql\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const missing = await fetch(new URL(script!.replace('graphiql.js', 'nothing.js'), gateway.url));
    expect(missing.status).toBe(404);
  });
});
