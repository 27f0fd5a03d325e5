import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_TARGETS, type CaptureApp, DATA_JSON } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';

/** Dialogs, cookies and storage, the console's filters and the fake clock on each capture target. */
for (const target of CAPTURE_TARGETS) {
  describe(target.name, () => {
    let app: CaptureApp;
    beforeAll(async () => {
      app = await target.start();
    });
    afterAll(() => app?.stop());

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
        const feed = app.live('subscription { dialogs { droppedBefore entry { seq type action } } }');
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
        // The page's server sets `served` on its data; the page sets `theme` itself.
        await app.click('fetch-json');
        await app.textIs('json-result', `Items: ${DATA_JSON.items.join(', ')}`);
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
        // A cookie the browser will not store (no name and no value) is the caller's input to correct: it answered
        // INTERNAL (the fuzz found it).
        const nameless = await app.failure(
          `mutation { setCookie(cookie: { name: "", value: "", url: "${app.origin}" }) }`,
        );
        expect(nameless).toMatchObject({ code: 'BAD_INPUT', retryable: false });
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
        const errors = app.live(
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
        // The clock moves forward only: a pause in its past is the caller's mistake (it answered INTERNAL).
        const past = await app.failure('mutation { pauseClockAt(time: "1970-01-01T00:00:00Z") { paused } }');
        expect(past).toMatchObject({ code: 'BAD_INPUT', retryable: false });
        await app.data('mutation { setSystemTime(time: "2031-06-01T00:00:00Z") { now } }');
        expect((await clock()).now).toBe('2031-06-01T00:00:00.000Z');
        expect((await app.data('mutation { resumeClock { paused } }')).resumeClock.paused).toBe(false);
      });
    });
  });
}

reportRealElectronSkipped('capture');
