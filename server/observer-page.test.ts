import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OBSERVER_CSP,
  OBSERVER_SCRIPT_PATH,
  OBSERVER_STYLE_PATH,
  observerBundle,
  observerPage,
} from './observer-page.js';

/**
 * XML namespace names the UI library compares element namespaces with: identifiers, never fetched. Any
 * other absolute URL in the bundle would be a request to another host.
 */
const NAMESPACE_NAMES = new Set([
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1998/Math/MathML',
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/1999/xlink',
  'http://www.w3.org/XML/1998/namespace',
]);

async function serve(handler: ReturnType<typeof observerPage>): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    if (!handler(request, response)) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not ours');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('observer page', () => {
  let running: { server: Server; base: string };
  beforeAll(async () => {
    running = await serve(observerPage());
  });
  afterAll(() => new Promise<void>((resolve) => running.server.close(() => resolve())));

  it('builds the bundle with no absolute URL to another host in it', async () => {
    const bundle = await observerBundle();
    const script = bundle.script.identity.toString('utf8');
    const style = bundle.style.identity.toString('utf8');
    expect(script.length).toBeGreaterThan(1000);
    const urls = [...`${script}\n${style}`.matchAll(/\b(?:https?|wss?):\/\/[^\s"'`)\\]+/g)].map(
      ([url]) => url,
    );
    expect(urls.filter((url) => !NAMESPACE_NAMES.has(url))).toEqual([]);
    // No protocol-relative loads, web fonts or CSS imports either.
    expect(style).not.toMatch(/@import|@font-face|url\(\s*['"]?\/\//);
    expect(script).not.toMatch(/["'`]\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
  });

  it('is one build per process, shared by every caller', async () => {
    expect(observerBundle()).toBe(observerBundle());
    expect(await observerBundle()).toBe(await observerBundle());
  });

  it('serves the shell with same-origin assets only, and the security headers', async () => {
    const response = await fetch(`${running.base}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(OBSERVER_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    const references = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map(([, url]) => url as string);
    expect(references.sort()).toEqual(['data:,', OBSERVER_STYLE_PATH, OBSERVER_SCRIPT_PATH].sort());
    for (const url of references) expect(url).toMatch(/^(\/[^/]|data:)/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/<style|\bstyle=/);
  });

  it('serves the script and the styles, compressed when asked, and 304 when unchanged', async () => {
    const script = await fetch(`${running.base}${OBSERVER_SCRIPT_PATH}`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(OBSERVER_CSP);
    const etag = script.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await script.text();
    expect(body).toBe((await observerBundle()).script.identity.toString('utf8'));

    const style = await fetch(`${running.base}${OBSERVER_STYLE_PATH}`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await style.text()).toContain('.session-grid');

    // fetch() decodes bodies itself; node:http shows the encoding as sent.
    const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${running.base}${OBSERVER_SCRIPT_PATH}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(gunzipSync(raw.bytes).toString('utf8')).toBe(body);

    const again = await fetch(`${running.base}${OBSERVER_SCRIPT_PATH}`, {
      headers: { 'if-none-match': etag as string },
    });
    expect(again.status).toBe(304);
  });

  it('leaves every other path and method to the next handler', async () => {
    expect((await fetch(`${running.base}/graphql`)).status).toBe(404);
    expect((await fetch(`${running.base}/observer/other.js`)).status).toBe(404);
    expect((await fetch(`${running.base}/`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('answers 500 with the reason when the page cannot be built, and leaves other paths served', async () => {
    const broken = await serve(observerPage({ entry: '/nonexistent/observer/main.tsx' }));
    try {
      const response = await fetch(`${broken.base}/`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).toContain('The observer page could not be built');
      expect(text).toContain('/nonexistent/observer/main.tsx');
      expect(text).toContain('GraphQL is still served at /graphql');
      expect((await fetch(`${broken.base}/graphql`)).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => broken.server.close(() => resolve()));
    }
  });
});
