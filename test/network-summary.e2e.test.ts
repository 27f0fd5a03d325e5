import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_TARGETS, type CaptureApp } from './helpers/capture-app.js';
import type { Loose } from './helpers/gateway-client.js';
import { whileMoving } from './helpers/progress.js';

/** Session.networkSummary: what failed on the network, recorded without any capture armed. */
for (const target of CAPTURE_TARGETS) {
  describe(`network summary on ${target.name}`, () => {
    let app: CaptureApp;
    beforeAll(async () => {
      app = await target.start();
    });
    afterAll(() => app?.stop());

    const summary = async (since?: string) =>
      (
        await app.data(
          `{ session(id: "${app.sessionId}") { networkSummary${since ? `(since: "${since}")` : ''} { since overflowed failed { time windowId method url resourceType status failure } errorResponses { time windowId method url resourceType status failure } } } }`,
        )
      ).session.networkSummary;

    it('lists error responses and failed requests though no capture was ever armed', async () => {
      const before = new Date().toISOString();
      await app.data(
        `mutation { stubNetwork(session: "${app.sessionId}", input: { pattern: "*/api/data.json", status: 503, body: "{\\"items\\":[\\"broken\\"]}", times: 1 }) { id } }`,
      );
      await app.click('fetch-json');
      await app.textIs('json-result', 'Items: broken', 30_000);
      await app.data(
        `mutation { stubNetwork(session: "${app.sessionId}", input: { pattern: "*/api/image.png*", abort: true, times: 1 }) { id } }`,
      );
      await app.click('load-image');
      await app.textIs('image-result', 'Image failed', 30_000);
      // The browser reports both before the page reacts to them; reading until both are in is only for safety.
      const seen = await whileMoving(
        () => summary(before),
        (read: Loose) =>
          read.errorResponses.some((entry: Loose) => entry.status === 503) && read.failed.length > 0,
        'both problems in the summary',
      );
      expect(seen.since).toBe(before);
      expect(seen.overflowed).toBe(0);
      // Whatever else the page fails on is listed too (a browser asks for /favicon.ico, which 404s here).
      expect(seen.errorResponses.every((entry: Loose) => entry.status >= 400)).toBe(true);
      expect(seen.errorResponses).toContainEqual(
        expect.objectContaining({
          windowId: app.windowId,
          method: 'GET',
          url: `${app.origin}/api/data.json`,
          resourceType: 'fetch',
          status: 503,
          failure: null,
        }),
      );
      expect(seen.failed).toContainEqual(
        expect.objectContaining({
          windowId: app.windowId,
          method: 'GET',
          url: expect.stringMatching(new RegExp(`^${app.origin}/api/image\\.png\\?t=\\d+$`)),
          resourceType: 'image',
          status: null,
          failure: expect.stringMatching(/^net::ERR_/),
        }),
      );
      const { session } = await app.data(
        `{ session(id: "${app.sessionId}") { networkCaptures { id } network { entries { url } } } }`,
      );
      expect(session).toEqual({ networkCaptures: [], network: { entries: [] } });
    });

    it('keeps only what happened since the time asked for, and leaves successes out', async () => {
      const all = await summary();
      expect(all.since).toBeNull();
      expect(all.errorResponses.length + all.failed.length).toBeGreaterThanOrEqual(2);
      const later = new Date(Date.now() + 1).toISOString();
      await app.click('fetch-json');
      await app.textIs('json-result', 'Items: apple, pear', 30_000);
      const since = await summary(later);
      expect(since).toMatchObject({ errorResponses: [], failed: [] });
    });
  });
}
