import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FillDocument } from './generated/graphql.js';
import { CAPTURE_TARGETS, type CaptureApp, DATA_JSON } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';

for (const target of CAPTURE_TARGETS) {
  describe(target.name, () => {
    let app: CaptureApp;
    let client: ReturnType<typeof wsClient>;
    beforeAll(async () => {
      app = await target.start();
      client = wsClient(app.gateway.wsUrl);
    });
    afterAll(async () => {
      await client?.dispose();
      await app?.stop();
    });

    const live = (query: string): Subscription<Loose> => subscribe(client, parse(query));
    const network = async (args = '') =>
      (
        await app.data(
          `{ session { network${args ? `(${args})` : ''} { total overflowed entries { seq windowId method url status resourceType failure stubId durationMs responseHeaders { name value } requestBody { encoding data size truncated } responseBody { encoding data size truncated } } } } }`,
        )
      ).session.network;

    describe('network capture and stubs', () => {
      it('captures requests without bodies, and the subscription sees the same entries', async () => {
        const feed = live('subscription { network { droppedBefore entry { seq url status } } }');
        const { startNetworkCapture: capture } = await app.data(
          'mutation { startNetworkCapture(filter: { urlPatterns: ["*/api/data.json"] }) { id filter { urlPatterns } bodies } }',
        );
        expect(capture).toMatchObject({ filter: { urlPatterns: ['*/api/data.json'] }, bodies: false });
        await app.click('fetch-json');
        await app.textIs('json-result', `Items: ${DATA_JSON.items.join(', ')}`);
        await expect.poll(async () => (await network()).entries.length).toBe(1);
        const [entry] = (await network()).entries;
        expect(entry).toMatchObject({
          windowId: app.windowId,
          method: 'GET',
          url: `${app.origin}/api/data.json`,
          status: 200,
          resourceType: 'fetch',
          failure: null,
          responseBody: null,
        });
        expect(entry.responseHeaders).toContainEqual({ name: 'set-cookie', value: '[redacted]' });
        expect(entry.responseHeaders).toContainEqual({ name: 'content-type', value: 'application/json' });
        const delivered = await feed.waitFor((value) => value.network.entry.seq === entry.seq);
        expect(delivered.network).toEqual({
          droppedBefore: 0,
          entry: { seq: entry.seq, url: entry.url, status: 200 },
        });
        feed.dispose();
        await app.data(`mutation { stopNetworkCapture(capture: "${capture.id}") { id } }`);
      });

      it('keeps text bodies when asked, binary ones as base64 only when asked too, and stops when told', async () => {
        const { startNetworkCapture: text } = await app.data(
          'mutation { startNetworkCapture(filter: { methods: ["POST"] }, bodies: true) { id } }',
        );
        await app.data(FillDocument, {
          window: app.windowId,
          target: { testId: 'comment' },
          value: 'hi there',
        });
        await app.click('post');
        await app.textIs('post-result', 'Posted: got comment=hi+there');
        await expect.poll(async () => (await network('urlContains: "/api/form"')).entries.length).toBe(1);
        const [posted] = (await network('urlContains: "/api/form"')).entries;
        expect(posted.method).toBe('POST');
        expect(posted.requestBody).toEqual({
          encoding: 'TEXT',
          data: 'comment=hi+there',
          size: 16,
          truncated: false,
        });
        expect(posted.responseBody).toMatchObject({ encoding: 'TEXT', data: 'got comment=hi+there' });

        const { startNetworkCapture: images } = await app.data(
          'mutation { startNetworkCapture(filter: { resourceTypes: ["image"] }, bodies: true, binaryBodies: true, maxBodyBytes: 16) { id } }',
        );
        await app.click('load-image');
        await app.textIs('image-result', 'Image: 16x16');
        await expect.poll(async () => (await network('resourceTypes: ["image"]')).entries.length).toBe(1);
        const [image] = (await network('resourceTypes: ["image"]')).entries;
        expect(image.responseBody).toMatchObject({ encoding: 'BASE64', truncated: true });
        expect(Buffer.from(image.responseBody.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

        for (const id of [text.id, images.id])
          await app.data(`mutation { stopNetworkCapture(capture: "${id}") { id } }`);
        const before = (await network()).total;
        await app.click('post');
        await app.textIs('post-result', 'Posted: got comment=hi+there');
        expect((await network()).total).toBe(before);
        expect((await app.data('{ session { networkCaptures { id } } }')).session.networkCaptures).toEqual(
          [],
        );
        const missing = await app.failure(`mutation { stopNetworkCapture(capture: "${text.id}") { id } }`);
        expect(missing.code).toBe('NETWORK_CAPTURE_NOT_FOUND');
        expect(missing.nextActions[0]).toContain('networkCaptures');
      });

      it('a stub changes what the page shows, retires after `times`, and records that it answered', async () => {
        const { startNetworkCapture: capture } = await app.data('mutation { startNetworkCapture { id } }');
        const { stubNetwork: stub } = await app.data(
          `mutation { stubNetwork(input: { pattern: "*/api/data.json", headers: [{ name: "content-type", value: "application/json" }], body: ${JSON.stringify(JSON.stringify({ items: ['stubbed'] }))}, times: 1 }) { id hits active neverMatched } }`,
        );
        expect(stub).toMatchObject({ hits: 0, active: true, neverMatched: true });
        await app.click('fetch-json');
        await app.textIs('json-result', 'Items: stubbed');
        const { networkStubs } = (
          await app.data('{ session { networkStubs { id hits active neverMatched } } }')
        ).session;
        expect(networkStubs).toContainEqual({ id: stub.id, hits: 1, active: false, neverMatched: false });
        await app.click('fetch-json');
        await app.textIs('json-result', 'Items: apple, pear');
        await expect
          .poll(async () => (await network('urlContains: "data.json", last: 2')).entries.length)
          .toBe(2);
        const [stubbed, real] = (await network('urlContains: "data.json", last: 2')).entries;
        expect(stubbed.stubId).toBe(stub.id);
        expect(real.stubId).toBeNull();
        await app.data(
          `mutation { unstubNetwork(stub: "${stub.id}") { id } stopNetworkCapture(capture: "${capture.id}") { id } }`,
        );
      });

      it('an aborting stub fails the request; a delaying stub holds the real response back', async () => {
        const { startNetworkCapture: capture } = await app.data('mutation { startNetworkCapture { id } }');
        const { stubNetwork: abort } = await app.data(
          'mutation { stubNetwork(input: { pattern: "*/api/data.json", abort: true }) { id } }',
        );
        await app.click('fetch-json');
        await app.textIs('json-result', 'Fetch failed: Failed to fetch');
        await expect.poll(async () => (await network('failedOnly: true')).entries.length).toBeGreaterThan(0);
        const [failed] = (await network('failedOnly: true, last: 1')).entries;
        expect(failed).toMatchObject({ status: null, stubId: abort.id });
        expect(failed.failure).toBeTruthy();
        await app.data(`mutation { unstubNetwork(stub: "${abort.id}") { id } }`);

        const DELAY_MS = 1_500;
        const { stubNetwork: delay } = await app.data(
          `mutation { stubNetwork(input: { pattern: "*/api/data.json", delayMs: ${DELAY_MS} }) { id } }`,
        );
        await app
          .data(
            `mutation { clear(window: "${app.windowId}", target: { testId: "json-result" }) { elapsedMs } }`,
          )
          .catch(() => undefined);
        const started = Date.now();
        await app.click('fetch-json');
        await app.data(
          `mutation { expect(window: "${app.windowId}", kind: TEXT, target: { testId: "json-result" }, equals: "Items: apple, pear", timeoutMs: 10000) { actual } }`,
        );
        await expect
          .poll(async () => (await network(`urlContains: "data.json", last: 1`)).entries[0].stubId)
          .toBe(delay.id);
        const [delayed] = (await network('urlContains: "data.json", last: 1')).entries;
        expect(delayed.status).toBe(200);
        expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
        const removed = await app.data(
          `mutation { unstubNetwork(stub: "${delay.id}") { hits } stopNetworkCapture(capture: "${capture.id}") { id } }`,
        );
        expect(removed.unstubNetwork.hits).toBe(1);
      });

      it('reports a stub that never matched, and an unknown stub with what to do next', async () => {
        const { stubNetwork: stub } = await app.data(
          'mutation { stubNetwork(input: { pattern: "*/never/*", status: 500 }) { id } }',
        );
        const removed = await app.data(
          `mutation { unstubNetwork(stub: "${stub.id}") { hits neverMatched active } }`,
        );
        expect(removed.unstubNetwork).toEqual({ hits: 0, neverMatched: true, active: false });
        const missing = await app.failure(`mutation { unstubNetwork(stub: "${stub.id}") { id } }`);
        expect(missing).toMatchObject({ code: 'STUB_NOT_FOUND', retryable: false });
        expect(missing.nextActions[0]).toContain('networkStubs');
      });
    });

    describe('dialogs', () => {
      const lastDialog = async () =>
        (
          await app.data(
            '{ session { dialogs(last: 1) { total entries { seq type message defaultValue action promptText windowId } } } }',
          )
        ).session.dialogs.entries[0];
      const policy = (args: string) => app.data(`mutation { setDialogPolicy(${args}) { default oneShot } }`);

      it('dismisses every dialog before any policy is set, so the app never hangs', async () => {
        await app.click('confirm');
        await app.textIs('dialog-result', 'Confirm: false');
        expect(await lastDialog()).toMatchObject({
          type: 'CONFIRM',
          message: 'Delete it?',
          action: 'DISMISS',
          windowId: app.windowId,
        });
        await app.click('prompt');
        await app.textIs('dialog-result', 'Prompt: null');
        expect(await lastDialog()).toMatchObject({
          type: 'PROMPT',
          defaultValue: 'Grace',
          action: 'DISMISS',
          promptText: null,
        });
      });

      it('accepts alert, confirm and prompt under an accepting policy, with prompt text or the default', async () => {
        const feed = live('subscription { dialogs { droppedBefore entry { seq type action } } }');
        await policy('default: ACCEPT, promptText: "Ada"');
        await app.click('alert');
        await app.textIs('dialog-result', 'Alert closed');
        expect(await lastDialog()).toMatchObject({ type: 'ALERT', message: 'Heads up', action: 'ACCEPT' });
        await app.click('confirm');
        await app.textIs('dialog-result', 'Confirm: true');
        await app.click('prompt');
        await app.textIs('dialog-result', 'Prompt: Ada');
        const prompt = await lastDialog();
        expect(prompt).toMatchObject({ type: 'PROMPT', action: 'ACCEPT', promptText: 'Ada' });
        await policy('default: ACCEPT');
        await app.click('prompt');
        await app.textIs('dialog-result', 'Prompt: Grace');
        const delivered = await feed.waitFor((value) => value.dialogs.entry.seq === prompt.seq);
        expect(delivered.dialogs).toEqual({
          droppedBefore: 0,
          entry: { seq: prompt.seq, type: 'PROMPT', action: 'ACCEPT' },
        });
        feed.dispose();
      });

      it('applies per-type rules over the default', async () => {
        await policy('default: ACCEPT, confirm: DISMISS');
        await app.click('confirm');
        await app.textIs('dialog-result', 'Confirm: false');
        await policy('default: DISMISS, prompt: ACCEPT, promptText: "Lin"');
        await app.click('prompt');
        await app.textIs('dialog-result', 'Prompt: Lin');
        await app.click('alert');
        await app.textIs('dialog-result', 'Alert closed');
        expect(await lastDialog()).toMatchObject({ type: 'ALERT', action: 'DISMISS' });
      });

      it('a one-shot policy answers one dialog, then reverts to dismissing', async () => {
        await policy('default: ACCEPT, oneShot: true');
        await app.click('confirm');
        await app.textIs('dialog-result', 'Confirm: true');
        await app.click('prompt');
        await app.textIs('dialog-result', 'Prompt: null');
        const { session } = await app.data('{ session { dialogPolicy { default oneShot } } }');
        expect(session.dialogPolicy).toEqual({ default: 'DISMISS', oneShot: false });
      });

      it('beforeunload: dismissing keeps the page, accepting lets it leave', async () => {
        await app.click('arm-leave-guard');
        await app.textIs('guard', 'Guard: armed');
        await policy('default: ACCEPT, beforeunload: DISMISS');
        const before = (await lastDialog()).seq;
        await app.click('leave');
        await expect.poll(async () => (await lastDialog()).seq).toBeGreaterThan(before);
        expect(await lastDialog()).toMatchObject({ type: 'BEFOREUNLOAD', action: 'DISMISS' });
        await app.textIs('guard', 'Guard: armed');
        await policy('default: DISMISS, beforeunload: ACCEPT');
        await app.click('leave');
        await app.textIs('guard', 'Guard: off');
        expect(await lastDialog()).toMatchObject({ type: 'BEFOREUNLOAD', action: 'ACCEPT' });
      });
    });

    describe('cookies and web storage', () => {
      it('round-trips cookies, redacted unless revealed', async () => {
        await app.click('set-storage');
        await app.textIs('storage-result', 'Cookies: served=yes; theme=dark');
        const cookies = async (args: string) =>
          (await app.data(`{ session { cookies(${args}) { name value domain path } } }`)).session.cookies;
        expect(await cookies(`urls: ["${app.origin}"], name: "theme"`)).toEqual([
          { name: 'theme', value: '[redacted]', domain: '127.0.0.1', path: '/' },
        ]);
        expect(await cookies('name: "theme", domain: "127.0.0.1", reveal: true')).toMatchObject([
          { value: 'dark' },
        ]);
        await app.data(
          `mutation { setCookie(cookie: { name: "token", value: "s3cret", url: "${app.origin}" }) }`,
        );
        expect(await cookies('name: "token", reveal: true')).toMatchObject([{ value: 's3cret' }]);
        await app.data('mutation { clearCookies(name: "token") }');
        expect(await cookies('name: "token"')).toEqual([]);
        expect(await cookies('name: "theme"')).toHaveLength(1);
      });

      it('snapshots an origin and round-trips localStorage and sessionStorage through fixed operations', async () => {
        const snapshot = async (reveal: boolean) =>
          (
            await app.data(
              `{ session { storage(origin: "${app.origin}", reveal: ${reveal}) { origin cookies { name value } localStorage { key value } sessionStorage { key value } } } }`,
            )
          ).session.storage;
        expect(await snapshot(false)).toMatchObject({
          origin: app.origin,
          localStorage: [{ key: 'draft', value: '[redacted]' }],
          sessionStorage: [{ key: 'tab', value: '[redacted]' }],
        });
        expect((await snapshot(true)).localStorage).toEqual([{ key: 'draft', value: 'hello' }]);
        const where = `origin: "${app.origin}", area: LOCAL`;
        const set = await app.data(
          `mutation { setStorageItem(${where}, key: "k", value: "v") { key value } }`,
        );
        expect(set.setStorageItem).toEqual([
          { key: 'draft', value: '[redacted]' },
          { key: 'k', value: '[redacted]' },
        ]);
        const read = await app.data(
          `{ session { webStorage(${where}, keys: ["k"], reveal: true) { key value } } }`,
        );
        expect(read.session.webStorage).toEqual([{ key: 'k', value: 'v' }]);
        expect(
          (await app.data(`mutation { removeStorageItem(${where}, key: "k") { key } }`)).removeStorageItem,
        ).toEqual([{ key: 'draft' }]);
        expect(
          (await app.data(`mutation { clearStorage(origin: "${app.origin}", area: SESSION) { key } }`))
            .clearStorage,
        ).toEqual([]);
        const elsewhere = await app.failure(
          '{ session { storage(origin: "http://nowhere.test") { origin } } }',
        );
        expect(elsewhere.code).toBe('STORAGE_ORIGIN_NOT_OPEN');
        expect(elsewhere.details.openOrigins).toContain(app.origin);
        expect(elsewhere.nextActions.join('\n')).toContain(app.origin);
        if (target.name === 'stand-in') {
          // The fixture's main window is a file:// page, whose origin is opaque: storage, and no cookies.
          const opaque = await app.data(
            '{ session { storage(origin: "null") { origin cookies { name } } } }',
          );
          expect(opaque.session.storage).toEqual({ origin: 'null', cookies: [] });
        }
        const unreadable = await app.failure('{ session { storage(origin: "not a url") { origin } } }');
        expect(unreadable.code).toBe('STORAGE_ORIGIN_NOT_OPEN');
        const badUrl = await app.failure('{ session { cookies(urls: ["null"]) { name } } }');
        expect(badUrl.code).toBe('BAD_INPUT');
        expect(badUrl.hint).toMatch(/absolute URLs/);
      });
    });

    describe('console, completed', () => {
      it('filters by types, text, window and time, and reports uncaught page errors as pageerror', async () => {
        const errors = live(
          `subscription { console(types: ["pageerror"], windowId: "${app.windowId}") { entry { type text windowId } } }`,
        );
        const since = new Date().toISOString();
        await app.click('log-levels');
        await app.click('throw');
        const pageerror = await errors.waitFor(() => true);
        expect(pageerror.console.entry).toMatchObject({ type: 'pageerror', windowId: app.windowId });
        expect(pageerror.console.entry.text).toContain('capture: uncaught boom');
        errors.dispose();
        const read = async (args: string) =>
          (await app.data(`{ session { console(${args}) { entries { type text } } } }`)).session.console
            .entries;
        expect(
          await read(`types: ["warning", "error"], windowId: "${app.windowId}", since: "${since}"`),
        ).toEqual([
          { type: 'warning', text: 'capture: warning line' },
          { type: 'error', text: 'capture: error line' },
        ]);
        expect(await read(`textContains: "info line", since: "${since}"`)).toEqual([
          { type: 'info', text: 'capture: info line' },
        ]);
        expect(await read(`since: "${new Date(Date.now() + 60_000).toISOString()}"`)).toEqual([]);
        expect((await read('types: ["pageerror"]')).length).toBe(1);
      });
    });

    describe('the fake clock', () => {
      const clock = async () =>
        (await app.data('{ session { clock { installed paused now } } }')).session.clock;

      it('moves a countdown deterministically', async () => {
        expect(await clock()).toEqual({ installed: false, paused: false, now: null });
        const refused = await app.failure('mutation { runClockFor(ms: 1000) { installed } }');
        expect(refused.code).toBe('CLOCK_NOT_INSTALLED');
        expect(refused.nextActions[0]).toContain('installClock');

        await app.data('mutation { installClock(time: "2030-01-01T00:00:00Z") { installed } }');
        const paused = await app.data(
          'mutation { pauseClockAt(time: "2030-01-01T00:00:10Z") { installed paused now } }',
        );
        expect(paused.pauseClockAt).toEqual({
          installed: true,
          paused: true,
          now: '2030-01-01T00:00:10.000Z',
        });
        await app.click('start-countdown');
        await app.textIs('countdown', '10 s left');
        await app.data('mutation { runClockFor(ms: 3000) { now } }');
        await app.textIs('countdown', '7 s left');
        await app.textIs('now', '2030-01-01T00:00:13.000Z');
        await app.data('mutation { advanceClock(ms: 1000) { now } }');
        await app.textIs('countdown', '6 s left');
        await app.data('mutation { runClockFor(ms: 10000) { now } }');
        await app.textIs('countdown', 'Lift-off');
        expect((await clock()).now).toBe('2030-01-01T00:00:24.000Z');
        await app.data('mutation { setSystemTime(time: "2031-06-01T00:00:00Z") { now } }');
        expect((await clock()).now).toBe('2031-06-01T00:00:00.000Z');
        expect((await app.data('mutation { resumeClock { paused } }')).resumeClock.paused).toBe(false);
      });
    });
  });
}

reportRealElectronSkipped('capture');
