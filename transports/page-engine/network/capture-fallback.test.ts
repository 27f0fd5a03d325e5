import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import { useLoopbackServer } from '../../../test/helpers/loopback-server.js';
import type { NetworkRecord } from '../../contract/renderer-control.js';
import type { pageCdpSession } from '../page/page-cdp.js';
import { PlaywrightNetwork } from './capture.js';

// A connection that cannot open a second session for a page (some relays offer only one), or, when a test
// sets one, a session that never answers.
const raw = vi.hoisted(() => ({ session: null as unknown }));
vi.mock(import('../page/page-cdp.js'), async (importOriginal) => ({
  ...(await importOriginal()),
  pageCdpSession: async () => raw.session as Awaited<ReturnType<typeof pageCdpSession>>,
}));

const server = useLoopbackServer((request, response) => {
  if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>p</p>');
  response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'seen=1' }).end('pong');
});

let page: Page;
useSharedPage((opened) => {
  page = opened;
});

describe('PlaywrightNetwork without a raw CDP session', () => {
  it('captures through Playwright’s request events, cookies included, and stops when disarmed', async () => {
    await page.goto(`${server.origin()}/`);
    const records: NetworkRecord[] = [];
    const network = new PlaywrightNetwork(
      page.context(),
      () => 'w',
      (record) => records.push(record),
    );
    const ping = (path: string) =>
      page.evaluate((url) => fetch(url).then((r) => r.text()), `${server.origin()}${path}`);
    await network.arm('c', {
      filter: { urlPatterns: ['*/ping*'] },
      bodies: true,
      binaryBodies: false,
      maxBodyBytes: 2,
    });
    await ping('/ping?1');
    await ping('/ping?2');
    await expect.poll(() => records.length).toBe(2);
    expect(records[1]).toMatchObject({ windowId: 'w', status: 200, resourceType: 'fetch', failure: null });
    expect(records[1]?.requestHeaders.cookie).toBe('seen=1');
    expect(records[1]?.responseBody).toMatchObject({ data: 'po', size: 4, truncated: true });
    await network.disarm('c');
    await ping('/ping?3');
    await network.arm('c', {
      filter: { urlPatterns: ['*/ping*'] },
      bodies: false,
      binaryBodies: false,
      maxBodyBytes: 0,
    });
    await ping('/ping?4');
    await expect.poll(() => records.map((record) => record.url.slice(-1))).toEqual(['1', '2', '4']);
    await network.disarm('c');
  });

  it('falls back too when the session never answers Network.enable, after a bounded wait', async () => {
    raw.session = { on: () => undefined, off: () => undefined, send: () => new Promise(() => {}) };
    const records: NetworkRecord[] = [];
    const network = new PlaywrightNetwork(
      page.context(),
      () => 'w',
      (record) => records.push(record),
    );
    await network.arm('c', {
      filter: { urlPatterns: ['*/ping*'] },
      bodies: false,
      binaryBodies: false,
      maxBodyBytes: 0,
    });
    await page.evaluate((url) => fetch(url).then((r) => r.text()), `${server.origin()}/ping?5`);
    await expect.poll(() => records.map((record) => record.url)).toEqual([`${server.origin()}/ping?5`]);
    await network.disarm('c');
    raw.session = null;
  }, 15_000);
});
