import type { ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { useLoopbackServer } from '../../../test/helpers/loopback-server.js';
import { RequestActivity } from './request-activity.js';

/** Requests to /held/<name> wait until the test answers them; /stream is an event stream left open. */
const held = new Map<string, ServerResponse>();
const server = useLoopbackServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  if (path.startsWith('/held/')) held.set(path.slice('/held/'.length), response);
  else if (path === '/stream') response.writeHead(200, { 'content-type': 'text/event-stream' }).write('\n');
  // An icon of its own, so Chromium asks no /favicon.ico while a test counts requests.
  else
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>activity</title><link rel="icon" href="data:,">');
});
/** Resolves once the server holds the named request: the page has sent it. */
const arrived = async (name: string) => {
  while (!held.has(name)) await new Promise((resolve) => setTimeout(resolve, 20));
};
const answer = (name: string) => held.get(name)?.end('done');

let page: Page;
useSharedPage((opened) => {
  page = opened;
});
beforeEach(async () => {
  held.clear();
  await page.goto(`${server.origin()}/`);
});
const fetchInPage = (path: string) => page.evaluate((url) => void fetch(url).catch(() => {}), path);

/** A safety net only: every wait below ends on an event the test causes. */
const NEVER_REACHED_MS = 60_000;
/** The CDP event of a request the server already holds may come late on a loaded machine. */
const POLL = { timeout: NEVER_REACHED_MS };

describe('request activity', () => {
  it('counts only the requests begun after the watch started, until each has finished', async () => {
    const activity = new RequestActivity(page);
    await fetchInPage('/held/before');
    await arrived('before');
    const watch = await activity.watch();
    await fetchInPage('/held/after');
    await arrived('after');
    await expect
      .poll(() => watch.pending().map((request) => request.url), POLL)
      .toEqual([`${server.origin()}/held/after`]);
    const idle = watch.idle(NEVER_REACHED_MS);
    answer('after');
    await idle;
    expect(watch.pending()).toEqual([]);
    expect(watch.finished).toBe(1);
    answer('before');
    watch.end();
  });

  it('does not wait for an event stream the action opened', async () => {
    const activity = new RequestActivity(page);
    const watch = await activity.watch();
    await page.evaluate(() => {
      new EventSource('/stream');
    });
    await fetchInPage('/held/marker');
    await arrived('marker');
    // The fetch after it is seen, so the stream's start has been too, and left out.
    await expect.poll(() => watch.pending().map((request) => request.resourceType), POLL).toEqual(['fetch']);
    answer('marker');
    await watch.idle(NEVER_REACHED_MS);
    watch.end();
  });

  it('keeps listening between watches, and a later watch still counts only its own requests', async () => {
    const activity = new RequestActivity(page);
    (await activity.watch()).end();
    // Begun while no watch is open (listening lingers): no watch's.
    await fetchInPage('/held/between');
    await arrived('between');
    const watch = await activity.watch();
    await fetchInPage('/held/own');
    await arrived('own');
    await expect
      .poll(() => watch.pending().map((request) => request.url), POLL)
      .toEqual([`${server.origin()}/held/own`]);
    answer('between');
    const idle = watch.idle(NEVER_REACHED_MS);
    answer('own');
    await idle;
    expect(watch.finished).toBe(1);
    watch.end();
  });
});
