import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/helpers/browser.js';
import { useLoopbackServer } from '../../../test/helpers/loopback-server.js';
import type { NetworkCaptureSpec, NetworkRecord, StubSpec } from '../../contract/renderer-control.js';
import { PlaywrightNetwork } from './capture.js';

const server = useLoopbackServer((request, response) => {
  if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>p</p>');
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () =>
    response
      .writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'seen=1' })
      .end(`got ${Buffer.concat(chunks)}`),
  );
});
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const ANY: NetworkCaptureSpec = { filter: {}, bodies: false, binaryBodies: false, maxBodyBytes: 1024 };
const STUB: StubSpec = {
  pattern: '*/stubbed*',
  methods: [],
  status: 203,
  headers: {},
  body: 'canned',
  abort: false,
  delayMs: 0,
  times: null,
};

let context: BrowserContext;
let page: Page;
let records: NetworkRecord[];
let network: PlaywrightNetwork;
const windows = new WeakMap<Page, string>();
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  windows.set(page, 'first');
  await page.goto(`${server.origin()}/`);
  records = [];
  network = new PlaywrightNetwork(
    context,
    (opened) => windows.get(opened),
    (record) => records.push(record),
  );
});
afterEach(() => context.close());

const fetchIn = (where: Page, path: string, init: RequestInit = {}) =>
  where.evaluate(([url, options]) => fetch(url, options).then((response) => response.text()), [
    `${server.origin()}${path}`,
    init,
  ] as const);
const urls = () => records.map((record) => record.url.replace(server.origin(), ''));

describe('PlaywrightNetwork', () => {
  it('captures only while armed, on the pages open then and those that open later', async () => {
    await fetchIn(page, '/before');
    await network.arm('c', ANY);
    await fetchIn(page, '/armed');
    const later = await context.newPage();
    windows.set(later, 'second');
    await later.goto(`${server.origin()}/`);
    await expect
      .poll(async () => {
        await fetchIn(later, '/later');
        return records.some((record) => record.url.endsWith('/later'));
      })
      .toBe(true);
    await network.disarm('c');
    await fetchIn(page, '/after');
    await fetchIn(later, '/after');
    // Armed again: once this request shows, one of the requests before it would have shown had it been seen.
    await network.arm('c', ANY);
    await fetchIn(page, '/rearmed');
    await expect.poll(urls).toContain('/rearmed');
    expect(urls()).not.toContain('/before');
    expect(urls()).not.toContain('/after');
    expect(records.find((record) => record.url.endsWith('/armed'))).toMatchObject({
      windowId: 'first',
      method: 'GET',
      status: 200,
      resourceType: 'fetch',
    });
    expect(records.find((record) => record.url.endsWith('/later'))?.windowId).toBe('second');
  });

  it('keeps bodies once a capture asks for them, and only for the captures that match', async () => {
    // Named URLs only: the browser asks for a favicon whenever it likes.
    await network.arm('all', { ...ANY, filter: { urlPatterns: ['*/form', '*/plain'] } });
    await network.arm('posts', { ...ANY, filter: { methods: ['POST'] }, bodies: true });
    await fetchIn(page, '/form', { method: 'POST', body: 'a=1', headers: { 'content-type': 'text/plain' } });
    await fetchIn(page, '/plain');
    await expect.poll(() => records.length).toBe(2);
    const posted = records.find((record) => record.url.endsWith('/form'));
    expect(posted?.requestBody).toEqual({ encoding: 'TEXT', data: 'a=1', size: 3, truncated: false });
    expect(posted?.responseBody).toMatchObject({ encoding: 'TEXT', data: 'got a=1' });
    expect(records.find((record) => record.url.endsWith('/plain'))?.responseBody).toBeNull();
  });

  it('names the stub that answered a request, and no stub for the next one', async () => {
    await network.arm('c', { ...ANY, filter: { urlPatterns: ['*/stubbed'] } });
    const stub = await network.stub('s', { ...STUB, times: 1 });
    expect(await fetchIn(page, '/stubbed')).toBe('canned');
    expect(await fetchIn(page, '/stubbed')).toBe('got ');
    await expect.poll(() => records.length).toBe(2);
    expect(records.map((record) => [record.status, record.stubId])).toEqual([
      [203, stub.id],
      [200, null],
    ]);
    expect(network.stubs()).toEqual([{ ...stub, hits: 1, active: false }]);
  });
});
