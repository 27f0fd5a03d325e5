import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../transports/page-engine/page/image-size.js';
import { ClickDocument, FillDocument, SessionWindowsDocument } from './generated/graphql.js';
import { ELECTRON_TARGETS, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { type FixtureSession, startFixtureSession } from './helpers/fixture-session.js';
import { ARTIFACTS_DIR } from './helpers/gateway.js';

for (const target of ELECTRON_TARGETS) {
  describe(target.name, () => {
    let app: FixtureSession;
    beforeAll(async () => {
      app = await startFixtureSession(target.executablePath);
    });
    afterAll(() => app?.stop());

    const expectThat = (args: string) => app.data(`mutation { expect(${args}) { kind actual elapsedMs } }`);
    const expectFails = (args: string) => app.failure(`mutation { expect(${args}) { actual } }`);

    describe(`expectations on ${target.name}`, () => {
      it('pass for text, value, visibility, enabled state, checked, count, url and title', async () => {
        await app.data(FillDocument, { target: { testId: 'name' }, value: 'Grace' });
        await expectThat('kind: VALUE, target: { testId: "name" }, equals: "Grace"');
        await expectThat('kind: TEXT, target: { role: "heading", name: "Tasks" }, regex: "^Ta"');
        await expectThat('kind: VISIBLE, target: { testId: "submit" }');
        await expectThat('kind: HIDDEN, target: { selector: "#nothing-here" }');
        await expectThat('kind: DISABLED, target: { testId: "archive" }');
        await expectThat('kind: ENABLED, target: { testId: "submit" }');
        await expectThat('kind: CHECKED, target: { testId: "subscribe" }, not: true');
        await expectThat('kind: COUNT, target: { role: "listitem" }, min: 3, max: 10');
        await expectThat('kind: URL, contains: "index.html"');
        await expectThat('kind: TITLE, equals: "Stagegraph Fixture"');
      });

      it('wait for a change that happens later, driven by the page itself', async () => {
        const waiting = expectThat(
          'kind: TEXT, target: { testId: "status" }, contains: "Submitted", timeoutMs: 5000',
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        await app.data(ClickDocument, { target: { testId: 'submit' } });
        const result = (await waiting).expect;
        expect(result.actual).toBe('Submitted: Grace');
        expect(result.elapsedMs).toBeGreaterThanOrEqual(150);
      });

      it('fail with EXPECTATION_FAILED and the last actual value after the timeout', async () => {
        const failed = await expectFails(
          'kind: VALUE, target: { testId: "name" }, equals: "Linus", timeoutMs: 300',
        );
        expect(failed).toMatchObject({ code: 'EXPECTATION_FAILED', details: { actual: 'Grace' } });
        const count = await expectFails(
          'kind: COUNT, target: { role: "listitem" }, equals: "1", timeoutMs: 200',
        );
        expect(count.details.actual).toBe(3);
      });

      it('refuse malformed conditions as BAD_INPUT', async () => {
        expect((await expectFails('kind: TEXT, equals: "x"')).code).toBe('BAD_INPUT');
        expect((await expectFails('kind: URL, target: { testId: "name" }, equals: "x"')).code).toBe(
          'BAD_INPUT',
        );
        expect((await expectFails('kind: TEXT, target: { testId: "name" }, regex: "("')).code).toBe(
          'BAD_INPUT',
        );
        expect((await expectFails('kind: COUNT, target: { role: "button" }, equals: "many"')).code).toBe(
          'BAD_INPUT',
        );
      });
    });

    describe(`screenshots on ${target.name}`, () => {
      const shot = async (args: string) =>
        (
          await app.data(
            `{ session { window { screenshot(${args}) { format width height byteLength base64 path } } } }`,
          )
        ).session.window.screenshot;

      it('of the viewport decode as PNG of the reported size', async () => {
        const viewport = await shot('format: PNG');
        const bytes = Buffer.from(viewport.base64, 'base64');
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        expect(imageSize(bytes)).toEqual({ width: viewport.width, height: viewport.height });
        expect(viewport.width).toBeGreaterThan(100);
        expect(viewport.path).toBeNull();
      });

      it('of one element, as JPEG, and saved under the session artifact folder', async () => {
        const element = await shot('target: { testId: "submit" }, format: JPEG, quality: 70, save: true');
        const bytes = Buffer.from(element.base64, 'base64');
        expect(bytes[0]).toBe(0xff);
        expect(element.width).toBeLessThan(400);
        expect(element.path.startsWith(`${ARTIFACTS_DIR}/${app.sessionId}/screenshots/`)).toBe(true);
        expect(existsSync(element.path)).toBe(true);
        expect(readFileSync(element.path).equals(bytes)).toBe(true);
      });

      it('of the full page are taller than the viewport', async () => {
        const viewport = await shot('format: PNG');
        const full = await shot('fullPage: true');
        expect(full.height).toBeGreaterThan(viewport.height);
      });
    });

    describe(`two windows on ${target.name}`, () => {
      it('snapshot and act in the second window by id while the first stays active', async () => {
        await app.data(ClickDocument, { target: { testId: 'open-second' } });
        let windows: { id: string; title: string }[] = [];
        await expect
          .poll(
            async () => {
              windows = (await app.data(SessionWindowsDocument, {})).session?.windows ?? [];
              return windows.length;
            },
            { timeout: 30_000 },
          )
          .toBeGreaterThanOrEqual(2);
        const second = windows[1]!;
        // The window is listed once it exists; its page may still be loading, so the read waits for it.
        const snapshot = await app.data(
          `{ session { window(id: "${second.id}") { snapshot(waitFor: LOAD) { windowId nodes { ref role name } } } } }`,
        );
        expect(snapshot.session.window.snapshot.windowId).toBe(second.id);
        expect(snapshot.session.window.snapshot.nodes).toContainEqual(
          expect.objectContaining({ role: 'heading', name: 'Second Window' }),
        );
        await app.data(
          `mutation { expect(window: "${second.id}", kind: TEXT, target: { testId: "second-body" }, contains: "Opened") { actual } }`,
        );
        const active = await app.data('{ session { activeWindow { id } } }');
        expect(active.session.activeWindow.id).toBe(windows[0]!.id);
        const wrong = await app.failure(`{ session { window(id: "w99") { snapshot { id } } } }`);
        expect(wrong.code).toBe('WINDOW_NOT_FOUND');
      });
    });
  });
}

reportRealElectronSkipped('expectations, screenshots and windows');
