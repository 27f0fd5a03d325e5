import type { Page, ConsoleMessage as PlaywrightConsoleMessage } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useSharedPage } from '../../../test/helpers/browser.js';
import type { ConsoleMessage } from '../../contract/transport-events.js';
import { pageCdpSession } from '../page/page-cdp.js';
import { CONSOLE_RELEASE_INTERVAL_MS, feedConsole } from './console-feed.js';

const ORIGIN = 'http://stagegraph.test';
const WAIT = { timeout: 10_000, interval: 20 };

/** One console call per line, so every line has its own location; `run()` makes them all in order. */
const CALLS = [
  `console.log('plain text')`,
  `console.log('two', 'strings', '')`,
  `console.log(1, 2.5, -0, NaN, Infinity, -Infinity, 10n)`,
  `console.log(undefined, null, true, false)`,
  `console.log('%s and %d', 'format', 3)`,
  `console.log({ a: 1, b: 'x', c: [1, 2], d: { e: 1 }, f: null, g: undefined, h: () => 1 })`,
  `console.log({}, [], Object.create(null))`,
  `console.log(Object.fromEntries(Array.from({ length: 12 }, (_, i) => ['k' + i, i])))`,
  `console.log({ long: 'a'.repeat(300) })`,
  `console.log([1, 'two', { three: 3 }, [4]])`,
  `console.log([1, , , 4], [, 1], Object.assign([1, 2], { extra: 1 }), new Array(5))`,
  `console.log(Array.from({ length: 150 }, (_, i) => i))`,
  `console.log(function named(a) { return a; }, () => 1, class K {}, async function* gen() {})`,
  `console.log(document.body, document.createElement('div'), document.createTextNode('t'), document)`,
  `console.log(new Error('boom'), new TypeError('bad'))`,
  `console.log(Symbol('sym'), Symbol.iterator)`,
  `console.log(new Map([[1, 2]]), new Set([1]), new WeakMap(), new Date(0), /re+/g)`,
  `console.log(Promise.resolve(1), new Uint8Array([1, 2]), new ArrayBuffer(4), new Proxy({}, {}))`,
  `console.log(new (class Point { constructor() { this.x = 1; } })(), window, location)`,
  `console.info('info')`,
  `console.warn('warn', { w: 1 })`,
  `console.error('error', new RangeError('range'))`,
  `console.debug('debug')`,
  `console.trace('trace')`,
  `console.assert(false, 'assertion', 1)`,
  `console.assert(false)`,
  `console.count('counted')`,
  `console.dir({ dir: 1 })`,
  `console.dirxml(document.body)`,
  `console.table([{ a: 1 }])`,
  `console.group('group')`,
  `console.groupEnd()`,
  `console.log()`,
  `console.log('end')`,
];

const CONSOLE_PAGE = `<!doctype html><title>console shapes</title><body><script>
window.run = () => {
${CALLS.join(';\n')};
};
</script></body>`;

let page: Page;
useSharedPage((shared) => {
  page = shared;
});

async function serve(target: Page, body: string): Promise<void> {
  await target.route(`${ORIGIN}/**`, (route) =>
    route.request().url().endsWith('/missing.png')
      ? route.fulfill({ status: 404, body: '' })
      : route.fulfill({ contentType: 'text/html', body }),
  );
}

function collect(target: Page): { ours: ConsoleMessage[]; theirs: PlaywrightConsoleMessage[] } {
  const ours: ConsoleMessage[] = [];
  const theirs: PlaywrightConsoleMessage[] = [];
  target.on('console', (message) => theirs.push(message));
  void feedConsole(target, 'w1', (message) => ours.push(message));
  return { ours, theirs };
}

describe('the console feed over raw CDP', () => {
  let ours: ConsoleMessage[];
  let theirs: PlaywrightConsoleMessage[];

  beforeAll(async () => {
    await serve(page, CONSOLE_PAGE);
    await page.goto(`${ORIGIN}/console.html`);
    ({ ours, theirs } = collect(page));
    await vi.waitFor(() => expect(pageCdpSession(page)).resolves.not.toBeNull(), WAIT);
  });

  it("gives each line the text, type, location and time Playwright's ConsoleMessage gives it", async () => {
    const from = ours.length;
    await page.evaluate(() => (window as unknown as { run(): void }).run());
    await vi.waitFor(() => {
      expect(theirs.at(-1)?.text()).toBe('end');
      expect(ours.at(-1)?.text).toBe('end');
    }, WAIT);
    const expected = theirs.map((message) => {
      const { url, lineNumber, columnNumber } = message.location();
      return {
        text: message.text(),
        type: message.type(),
        location: `${url}:${lineNumber}:${columnNumber}`,
        time: Math.trunc(message.timestamp()),
      };
    });
    const actual = ours.slice(from).map((message) => ({
      text: message.text,
      type: message.type,
      location: message.location,
      time: message.time.getTime(),
    }));
    expect(actual).toEqual(expected);
    // Chromium reports every call but the empty console.log().
    expect(actual).toHaveLength(CALLS.length - 1);
    expect(
      ours.slice(from).every((message) => message.source === 'RENDERER' && message.windowId === 'w1'),
    ).toBe(true);
    // The shapes must really differ: an oracle that agrees on empty strings proves nothing.
    expect(new Set(actual.map((message) => message.text)).size).toBeGreaterThan(CALLS.length - 5);
  });

  it("reports the browser's own log entries (a failed load) as Playwright does", async () => {
    const from = ours.length;
    const failed = page.waitForEvent('console', (message) => message.text().includes('404'));
    await page.evaluate((url) => fetch(url).catch(() => undefined), `${ORIGIN}/missing.png`);
    const expected = await failed;
    await vi.waitFor(
      () => expect(ours.slice(from).some((message) => message.text.includes('404'))).toBe(true),
      WAIT,
    );
    const entry = ours.slice(from).find((message) => message.text.includes('404'));
    const { url, lineNumber, columnNumber } = expected.location();
    expect(entry).toMatchObject({
      type: expected.type(),
      text: expected.text(),
      location: `${url}:${lineNumber}:${columnNumber}`,
    });
  });

  it("delivers a worker's lines once, as Playwright's page console did", async () => {
    const from = ours.length;
    const line = 'from a worker {n: 1}';
    await page.evaluate(() => {
      const source = "console.log('from a worker', { n: 1 }); postMessage('done');";
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      return new Promise((resolve) => worker.addEventListener('message', resolve));
    });
    await vi.waitFor(() => {
      expect(theirs.map((message) => message.text())).toContain(line);
      expect(ours.slice(from).map((message) => message.text)).toContain(line);
    }, WAIT);
    const fromWorker = ours.slice(from).filter((message) => message.text === line);
    expect(fromWorker.map(({ type, windowId }) => ({ type, windowId }))).toEqual([
      { type: 'log', windowId: 'w1' },
    ]);
  });

  it('releases the objects it was given, so the renderer does not keep everything ever logged', async () => {
    const session = await pageCdpSession(page);
    if (!session) throw new Error('no CDP session');
    const logged = new Promise<string>((resolve) => {
      const listener = (event: { args: { objectId?: string }[] }) => {
        const objectId = event.args[0]?.objectId;
        if (!objectId) return;
        session.off('Runtime.consoleAPICalled', listener);
        resolve(objectId);
      };
      session.on('Runtime.consoleAPICalled', listener);
    });
    await page.evaluate(() => console.log({ kept: 'until released' }));
    // The id is the browser's own, from the event. Whether it is still reachable right now cannot be asked
    // without a race: a release the feed scheduled for an earlier line may already be on its way. Unreleased,
    // it would stay reachable for as long as the session lasts, so the wait below fails.
    const objectId = await logged;
    // It is gone once the feed has released its group.
    await vi.waitFor(
      () =>
        expect(session.send('Runtime.getProperties', { objectId })).rejects.toThrow(/Could not find object/),
      { timeout: CONSOLE_RELEASE_INTERVAL_MS + 10_000, interval: 50 },
    );
  });

  it("delivers the lines a page logged before it was fed, once each, with their own time (Runtime.enable's replay)", async () => {
    const early = await page.context().browser()!.newPage();
    try {
      await serve(
        early,
        '<!doctype html><script>for (let i = 0; i < 3; i++) console.log("early", i)</script>',
      );
      const loggedAt = Date.now();
      await early.goto(`${ORIGIN}/early.html`);
      const delivered: ConsoleMessage[] = [];
      const deliver = (message: ConsoleMessage) => delivered.push(message);
      await feedConsole(early, 'w2', deliver);
      // Fed twice (a page tracked twice): still once each.
      await feedConsole(early, 'w2', deliver);
      await early.evaluate(() => console.log('late'));
      await vi.waitFor(() => expect(delivered.map((message) => message.text)).toContain('late'), WAIT);
      expect(delivered.map((message) => message.text)).toEqual(['early 0', 'early 1', 'early 2', 'late']);
      expect(delivered[0]?.time.getTime()).toBeLessThan(delivered[3]?.time.getTime() ?? 0);
      expect(delivered[0]?.time.getTime()).toBeGreaterThanOrEqual(loggedAt - 1);
      expect(delivered[0]?.location).toMatch(/^http:\/\/stagegraph\.test\/early\.html:0:\d+$/);
    } finally {
      await early.close();
    }
  });

  it("falls back to Playwright's console events where no CDP session opens, losing nothing meanwhile", async () => {
    const fallback = await page.context().browser()!.newPage();
    try {
      let noSession: (session: null) => void = () => undefined;
      const decided = new Promise<null>((resolve) => {
        noSession = resolve;
      });
      const delivered: ConsoleMessage[] = [];
      const fed = feedConsole(fallback, 'w3', (message) => delivered.push(message), decided);
      // Logged while the feed still waits to learn whether a CDP session opens.
      const seen = fallback.waitForEvent('console', (message) => message.text() === 'meanwhile {a: 1}');
      await fallback.evaluate(() => console.log('meanwhile', { a: 1 }));
      await seen;
      noSession(null);
      await fed;
      await fallback.evaluate(() => console.warn('after', 2));
      await vi.waitFor(() => expect(delivered).toHaveLength(2), WAIT);
      expect(delivered.map(({ type, text, windowId }) => ({ type, text, windowId }))).toEqual([
        { type: 'log', text: 'meanwhile {a: 1}', windowId: 'w3' },
        { type: 'warning', text: 'after 2', windowId: 'w3' },
      ]);
    } finally {
      await fallback.close();
    }
  });
});
