import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type Loose, UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { useLoopbackServer } from './helpers/loopback-server.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/**
 * Issue 37's cached read: a page that has not repainted since its text was read is answered from that read
 * with no screenshot, and a page that repainted its canvas on its own (no DOM change, no action of the
 * gateway's) is read again. fixtures/pages/canvas-note.html paints one word; the server sends it new ones.
 */
const PAGE = readFileSync(new URL('../fixtures/pages/canvas-note.html', import.meta.url));
const listeners = new Set<ServerResponse>();
let heard: () => void;
const listening = new Promise<void>((resolve) => {
  heard = resolve;
});
const served = useLoopbackServer((request, response) => {
  if (request.url !== '/note') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.write(': listening\n\n');
  listeners.add(response);
  heard();
  response.on('close', () => listeners.delete(response));
});
const paintNote = (word: string) => {
  for (const listener of listeners) listener.write(`data: ${word}\n\n`);
};

const INDEX =
  '{ session { window { textIndex(minConfidence: 60) { cached screenshotSha256 words { text } } } } }';
const FIGURES = '{ session { visionFigures { ocrReads cachedOcrReads cachedOcrReadsWithoutScreenshot } } }';

let gateway: RunningGateway;
let client: GatewayClient;
beforeAll(async () => {
  gateway = await startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 }, [
    plainChromiumTransport(`${served.origin()}/canvas-note.html`),
  ]);
  client = gatewayClient(gateway.url);
  await client.data(LaunchDocument, { input: fixtureLaunch() });
  // The page listens for notes from its load on; a note sent before it does would be lost.
  await listening;
});
afterAll(() => gateway?.stop());

const read = async () => (await client.data(INDEX)).session.window.textIndex;
const figures = async () => (await client.data(FIGURES)).session.visionFigures;
const words = (index: Loose) => index.words.map((word: Loose) => word.text);

describe('textIndex answered without a screenshot', () => {
  it('answers from the last read with no screenshot, read after read', async () => {
    const first = await read();
    expect(words(first)).toContain('Draft');
    const start = await figures();
    // The watch for repaints starts with the first read; its opening frames may make the next read take
    // one more screenshot, after which the still page paints nothing.
    await expect
      .poll(
        async () => {
          await read();
          return (await figures()).cachedOcrReadsWithoutScreenshot;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(start.cachedOcrReadsWithoutScreenshot);
    const hit = await figures();
    const again = await read();
    expect(again).toMatchObject({ cached: true, screenshotSha256: first.screenshotSha256 });
    expect(words(again)).toEqual(words(first));
    const after = await figures();
    expect(after.cachedOcrReadsWithoutScreenshot).toBe(hit.cachedOcrReadsWithoutScreenshot + 1);
    expect(after.ocrReads).toBe(start.ocrReads);
  });

  it('reads the canvas again once the page repainted it on its own', async () => {
    await read();
    const before = await figures();
    paintNote('Approved');
    // The new word is painted when the event reaches the page: read until the index shows it.
    await expect.poll(async () => words(await read()), { timeout: 30_000 }).toContain('Approved');
    expect((await figures()).ocrReads).toBeGreaterThan(before.ocrReads);
  });
});
