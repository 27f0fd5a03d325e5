import type { ServerResponse } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { useLoopbackServer } from '../../../test/helpers/loopback-server.js';
import { CdpRequestTracker } from './cdp-requests.js';
import type { FinishedRequest } from './record.js';

/** Responses held open by /hang, ended after each test so the browser lets go of them. */
const hanging = new Set<ServerResponse>();
const server = useLoopbackServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  // An icon of its own, so Chromium asks no /favicon.ico in the middle of a test's requests.
  if (path === '/')
    return response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>t</title><link rel="icon" href="data:,">');
  if (path === '/hop') return response.writeHead(302, { location: '/final', 'set-cookie': 'hop=1' }).end();
  if (path === '/final') return response.writeHead(200, { 'content-type': 'text/plain' }).end('landed');
  if (path === '/echo') {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`echo ${Buffer.concat(chunks)}`),
    );
    return;
  }
  if (path === '/hang') {
    hanging.add(response);
    response.on('close', () => hanging.delete(response));
    return;
  }
  response.writeHead(404).end();
});

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

let session: CDPSession;
let finished: FinishedRequest[];
let tracker: CdpRequestTracker;
/** Small, so that the hanging requests past it stay within Chromium's 6 connections per host. */
const IN_FLIGHT_CAP = 2;
beforeEach(async () => {
  await page.goto(`${server.origin()}/`);
  session = await page.context().newCDPSession(page);
  finished = [];
  tracker = new CdpRequestTracker(page, session, (request) => finished.push(request), IN_FLIGHT_CAP);
  await tracker.start(true);
});
afterEach(async () => {
  await tracker.stop();
  await session.detach();
  for (const response of hanging) response.destroy();
});

const settled = (count: number) => expect.poll(() => finished.length).toBeGreaterThanOrEqual(count);

describe('CdpRequestTracker', () => {
  it('reports each hop of a redirect as a request, with the raw headers the ExtraInfo events carry', async () => {
    await page.evaluate(() => fetch('/hop').then((response) => response.text()));
    await settled(2);
    const [hop, final] = finished;
    expect(hop).toMatchObject({
      method: 'GET',
      url: `${server.origin()}/hop`,
      status: 302,
      resourceType: 'fetch',
    });
    expect(hop?.responseHeaders['set-cookie']).toBe('hop=1');
    expect(final).toMatchObject({ url: `${server.origin()}/final`, status: 200, failure: null });
    // The cookie the redirect set rides on the next hop: only the ExtraInfo headers show it.
    expect(final?.requestHeaders.cookie).toBe('hop=1');
    expect(final?.durationMs).toBeGreaterThanOrEqual(0);
    expect((await final?.readResponseBody())?.toString()).toBe('landed');
    expect(await hop?.readResponseBody()).toBeNull();
  });

  it('reads post data and reports failures with the browser’s text', async () => {
    await page.evaluate(() => fetch('/echo', { method: 'POST', body: 'a=1' }).then((r) => r.text()));
    await page.evaluate(() => fetch('http://127.0.0.1:1/refused').catch(() => undefined));
    await settled(2);
    const posted = finished.find((request) => request.url.endsWith('/echo'));
    expect((await posted?.readRequestBody())?.toString()).toBe('a=1');
    expect((await posted?.readResponseBody())?.toString()).toBe('echo a=1');
    const refused = finished.find((request) => request.url.endsWith('/refused'));
    expect(refused?.status).toBeNull();
    expect(refused?.failure).toMatch(/^net::ERR_/);
  });

  it('keeps at most its cap of requests in flight, counting the ones it forgot, and still follows new ones', async () => {
    const HANGING = IN_FLIGHT_CAP + 3;
    await page.evaluate((count) => {
      for (let i = 0; i < count; i += 1) void fetch(`/hang?i=${i}`).catch(() => undefined);
    }, HANGING);
    await expect.poll(() => tracker.droppedInFlight).toBe(HANGING - IN_FLIGHT_CAP);
    expect(tracker.inFlight).toBe(IN_FLIGHT_CAP);
    await page.evaluate(() => fetch('/final').then((response) => response.text()));
    await expect.poll(() => finished.map((request) => request.url)).toContain(`${server.origin()}/final`);
  });

  it('stops following when stopped', async () => {
    await tracker.stop();
    await page.evaluate(() => fetch('/final').then((response) => response.text()));
    await tracker.start(false);
    await page.evaluate(() => fetch('/final?again').then((response) => response.text()));
    await settled(1);
    expect(finished.map((request) => request.url)).toEqual([`${server.origin()}/final?again`]);
  });
});
