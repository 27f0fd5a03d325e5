import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newTestPage } from './helpers/browser.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { inPageCall } from './helpers/in-page.js';
import { useLoopbackServer } from './helpers/loopback-server.js';

// A page from another origin (a second loopback server: another port is another origin) tries every way
// a browser allows to launch through, or read from, a loopback gateway. The launch would run
// `touch <marker>`, so a request that got through leaves a file behind.
const hostile = useLoopbackServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<!doctype html><title>evil</title><body><iframe name="sink"></iframe></body>');
});

let browser: Browser;
let folder: string;

beforeAll(async () => {
  browser = await launchChromium();
  folder = await mkdtemp(join(tmpdir(), 'stagegraph-hostile-'));
});
afterAll(async () => {
  await browser?.close();
  await rm(folder, { recursive: true, force: true });
});

/** Everything the page tries; resolves with what the page could see of each attempt. */
async function attack(page: Page, graphql: string, marker: string): Promise<Record<string, string>> {
  const launch = `mutation { launchCommand(input: { command: "/usr/bin/touch", args: [${JSON.stringify(marker)}] }) { id } }`;
  return page.evaluate(
    inPageCall(
      async ({ graphql, launch }: { graphql: string; launch: string }) => {
        const seen: Record<string, string> = {};
        const tryFetch = async (name: string, init: RequestInit) => {
          try {
            const response = await fetch(graphql, init);
            seen[name] =
              init.mode === 'no-cors'
                ? `opaque ${response.type}`
                : `read ${response.status} ${await response.text()}`;
          } catch (error) {
            seen[name] = `failed ${String(error)}`;
          }
        };
        const form = new FormData();
        form.set('query', launch);
        await tryFetch('form-urlencoded', {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=${encodeURIComponent(launch)}`,
        });
        await tryFetch('text-plain', {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ query: launch }),
        });
        await tryFetch('multipart', { method: 'POST', mode: 'no-cors', body: form });
        await tryFetch('cors-json', {
          method: 'POST',
          mode: 'cors',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: launch }),
        });
        await tryFetch('cors-read', { method: 'GET', mode: 'cors', credentials: 'include' });
        await tryFetch('get-mutation', { method: 'GET', mode: 'no-cors' });
        await fetch(`${graphql}?query=${encodeURIComponent(launch)}`, { mode: 'no-cors' }).catch(() => null);
        const read = `${graphql}?query=${encodeURIComponent('{ sessions { id } }')}`;
        try {
          const response = await fetch(read, { mode: 'cors' });
          seen['cors-get-read'] = `read ${response.status} ${await response.text()}`;
        } catch (error) {
          seen['cors-get-read'] = `failed ${String(error)}`;
        }
        const load = (element: HTMLImageElement | HTMLScriptElement, name: string) =>
          new Promise<void>((resolve) => {
            element.onload = () => {
              seen[name] = 'loaded';
              resolve();
            };
            element.onerror = () => {
              seen[name] = 'error';
              resolve();
            };
            document.body.append(element);
          });
        const image = document.createElement('img');
        image.src = read;
        await load(image, 'img');
        const script = document.createElement('script');
        script.src = `${graphql}?query=${encodeURIComponent(launch)}`;
        await load(script, 'script');
        // A real form post, the oldest cross-site request, into a frame so this page stays.
        const post = document.createElement('form');
        post.method = 'POST';
        post.action = graphql;
        post.target = 'sink';
        post.enctype = 'text/plain';
        const field = document.createElement('input');
        field.name = `{"query":${JSON.stringify(launch)},"x":"`;
        field.value = '"}';
        post.append(field);
        document.body.append(post);
        const frame = document.querySelector('iframe') as HTMLIFrameElement;
        const posted = new Promise<void>((resolve) => {
          frame.onload = () => resolve();
        });
        post.submit();
        await posted;
        seen['form-post'] = 'submitted';
        seen.websocket = await new Promise<string>((resolve) => {
          const socket = new WebSocket(graphql.replace(/^http/, 'ws'), 'graphql-transport-ws');
          const heard: string[] = [];
          socket.onopen = () => {
            socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
            socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: launch } }));
          };
          socket.onmessage = (event) => heard.push(String(event.data));
          socket.onclose = (event) => resolve(`closed ${event.code} after ${JSON.stringify(heard)}`);
        });
        return seen;
      },
      { graphql, launch },
    ),
  ) as Promise<Record<string, string>>;
}

describe.each([
  ['no token', {}],
  ['a token required', { token: 'hostile-page-test-token' }],
])('a hostile page against a loopback gateway with %s', (_, overrides) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(overrides);
  });
  afterAll(() => gateway?.stop());

  it('launches nothing, reads nothing, and every request it sent was refused', async () => {
    const marker = join(folder, `pwned-${Object.keys(overrides).length}`);
    const page = await newTestPage(browser);
    const statuses: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(new URL(gateway.url).origin)) statuses.push(`${response.status()}`);
    });
    await page.goto(hostile.origin());
    const seen = await attack(page, gateway.url, marker);
    await page.close();

    expect(existsSync(marker)).toBe(false);
    const sessions = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...('token' in overrides ? { authorization: `Bearer ${overrides.token}` } : {}),
      },
      body: JSON.stringify({ query: '{ sessions { id } }' }),
    });
    expect(await sessions.json()).toEqual({ data: { sessions: [] } });
    // Nothing the page read carried data: CORS refused every read, and no socket was acknowledged.
    for (const [name, outcome] of Object.entries(seen)) {
      expect(outcome, name).not.toMatch(/^read|connection_ack|"data"/);
    }
    expect(seen.websocket).toMatch(/^closed 1006 after \[\]$/);
    expect(seen.img).toBe('error');
    expect(seen.script).toBe('error');
    // Every answer the browser got from the gateway was a refusal before any GraphQL ran.
    expect(statuses.length).toBeGreaterThan(5);
    expect(new Set(statuses)).toEqual(new Set(['403']));
  });
});
