import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FillDocument } from './generated/graphql.js';
import { CAPTURE_TARGETS, type CaptureApp, DATA_JSON } from './helpers/capture-app.js';
import { reportRealElectronSkipped } from './helpers/fixture-app.js';

/** Network capture and stubs on each capture target: what is captured, kept, stubbed and reported. */
for (const target of CAPTURE_TARGETS) {
  describe(target.name, () => {
    let app: CaptureApp;
    beforeAll(async () => {
      app = await target.start();
    });
    afterAll(() => app?.stop());
    const network = async (args = '') =>
      (
        await app.data(
          `{ session { network${args ? `(${args})` : ''} { total overflowed entries { seq windowId method url status resourceType failure stubId durationMs responseHeaders { name value } requestBody { encoding data size truncated } responseBody { encoding data size truncated } } } } }`,
        )
      ).session.network;

    describe('network capture and stubs', () => {
      it('captures requests without bodies, and the subscription sees the same entries', async () => {
        const feed = app.live('subscription { network { droppedBefore entry { seq url status } } }');
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
        // A binary body is named, not shown, unless the agent reveals it.
        const [image] = (
          await app.data(
            '{ session { network(resourceTypes: ["image"]) { entries { named: responseBody { encoding data } responseBody(reveal: true) { encoding data truncated } } } } }',
          )
        ).session.network.entries;
        expect(image.named).toEqual({
          encoding: 'TEXT',
          data: expect.stringMatching(/^\[REDACTED:binary body/),
        });
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
  });
}

reportRealElectronSkipped('network capture');
