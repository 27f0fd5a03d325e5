import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument } from './generated/graphql.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import {
  type FixtureSession,
  type Loose,
  startFixtureSession,
  UNATTENDED_POLICY,
} from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { useLoopbackServer } from './helpers/loopback-server.js';
import { plainChromiumTransport } from './helpers/plain-chromium.js';

/**
 * Issue 37, the vision tier, end to end through GraphQL: a page served over loopback whose toolbar and
 * chart are painted on canvases (fixtures/pages/canvas-toolbar.html), so no tree names the painted labels.
 * The text index reads them from the window's pixels with the ref of the element each falls in.
 */
const PAGE = readFileSync(new URL('../fixtures/pages/canvas-toolbar.html', import.meta.url));
const served = useLoopbackServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});

const INDEX = `{ session { window { textIndex(minConfidence: 80) {
  cached screenshotSha256
  words { text confidence ref bbox { x y width height } }
  lines { text ref } } } } }`;

let gateway: RunningGateway;
let client: GatewayClient;
beforeAll(async () => {
  gateway = await startGateway({ policyFile: UNATTENDED_POLICY, mutationsPerSecond: 1_000 }, [
    plainChromiumTransport(`${served.origin()}/canvas-toolbar.html`),
  ]);
  client = gatewayClient(gateway.url);
  await client.data(LaunchDocument, { input: fixtureLaunch() });
});
afterAll(() => gateway?.stop());

const regions = async () =>
  (
    await client.data(
      '{ session { window { find(role: "region") { ref name bbox { x y width height } } } } }',
    )
  ).session.window.find as Loose[];

describe('textIndex on a canvas-drawn page', () => {
  it('lists the painted labels with boxes inside their canvas and the ref of the element they fall in', async () => {
    const [toolbar, chart] = await regions();
    const { textIndex } = (await client.data(INDEX)).session.window;
    const word = (text: string) => textIndex.words.find((w: Loose) => w.text === text);
    for (const label of ['Open', 'Export', 'Delete']) {
      expect(word(label), label).toMatchObject({ ref: toolbar.ref });
      const { x, y, width, height } = word(label).bbox;
      expect(x).toBeGreaterThanOrEqual(toolbar.bbox.x);
      expect(y).toBeGreaterThanOrEqual(toolbar.bbox.y);
      expect(x + width).toBeLessThanOrEqual(toolbar.bbox.x + toolbar.bbox.width);
      expect(y + height).toBeLessThanOrEqual(toolbar.bbox.y + toolbar.bbox.height);
    }
    for (const label of ['Revenue', 'Costs', 'Profit'])
      expect(word(label), label).toMatchObject({ ref: chart.ref });
    expect(word('Export').confidence).toBeGreaterThanOrEqual(80);
    expect(textIndex.lines.map((line: Loose) => line.text)).toContain('Export');
  });

  it('masks an e-mail address painted on the canvas, as typed secrets are masked', async () => {
    const { textIndex } = (await client.data(INDEX)).session.window;
    const all = JSON.stringify(textIndex);
    expect(all).not.toContain('alice@example.com');
    expect(textIndex.lines.map((line: Loose) => line.text)).toContain('Owner: [REDACTED:email]');
  });

  it('answers a second read of the same pixels from its cache', async () => {
    const first = (await client.data(INDEX)).session.window.textIndex;
    const second = (await client.data(INDEX)).session.window.textIndex;
    expect(second.screenshotSha256).toBe(first.screenshotSha256);
    expect(second.cached).toBe(true);
  });

  it('narrows to an element (within) or a rectangle (region)', async () => {
    const [toolbar] = await regions();
    const within = (
      await client.data(
        `{ session { window { textIndex(within: { ref: "${toolbar.ref}" }, minConfidence: 80) { words { text } } } } }`,
      )
    ).session.window.textIndex.words.map((w: Loose) => w.text);
    expect(within).toEqual(['Open', 'Export', 'Delete']);
    const { x, y, height } = toolbar.bbox;
    const region = (
      await client.data(
        `{ session { window { textIndex(region: { x: ${x}, y: ${y}, width: 160, height: ${height} }, minConfidence: 80) { words { text } } } } }`,
      )
    ).session.window.textIndex.words.map((w: Loose) => w.text);
    expect(region).toEqual(['Open']);
  });
});

const CLICK_EXPORT = `mutation { click(target: { query: "role=button name=Export ?? ocr:'Export'" }) {
  target { ref role } resolvedBy { strategy confidence alternative } } }`;
const STATUS = (text: string) =>
  `mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "${text}") { actual } }`;

describe('ocr: targets on a canvas-drawn page', () => {
  it('clicks the painted "Export" through the ?? fallback, at its centre; the resolution says OCR', async () => {
    const [toolbar] = await regions();
    const figures = async () =>
      (await client.data('{ session { visionFigures { ocrReads ocrFallbacks } } }')).session.visionFigures;
    const before = await figures();
    const { click } = await client.data(CLICK_EXPORT);
    expect(click.resolvedBy).toEqual({ strategy: 'OCR', confidence: 'OCR', alternative: 1 });
    expect(click.target.ref).toBe(toolbar.ref);
    await client.data(STATUS('Clicked Export'));
    const after = await figures();
    expect(after.ocrFallbacks).toBe(before.ocrFallbacks + 1);
    expect(after.ocrReads).toBeGreaterThan(0);
  });

  it('records the OCR target in the audit, by the words read, one risk tier higher', async () => {
    const { audit } =
      await client.data(`{ audit(filter: { operations: ["click"] }, first: 500) { edges { node {
      risk target { role name confidence bbox { x y } } } } } }`);
    const last = audit.edges.at(-1).node;
    expect(last.target).toMatchObject({ role: 'ocr text', name: 'Export', confidence: 'OCR' });
    // A click on a harmless name is MEDIUM when the tree names it; read from the screen, HIGH.
    expect(last.risk).toBe('HIGH');
  });

  it('explainPolicy says the OCR target is weighed one tier higher, and a destructive one is refused', async () => {
    const explain = (word: string) =>
      client.data(`{ explainPolicy(operation: "click", target: { query: "role=region name=Toolbar >> ocr:'${word}'" }) {
        decision risk reasons target { name confidence } } }`);
    const exported = (await explain('Export')).explainPolicy;
    expect(exported).toMatchObject({ risk: 'HIGH', target: { name: 'Export', confidence: 'OCR' } });
    expect(exported.reasons.join('\n')).toContain('found by OCR');
    const deleted = (await explain('Delete')).explainPolicy;
    expect(deleted).toMatchObject({ decision: 'DENY', risk: 'CRITICAL' });
    const refused = await client.failure(
      `mutation { click(target: { query: "ocr:'Delete'" }) { resolvedBy { strategy } } }`,
    );
    expect(refused.code).toBe('POLICY_DENIED');
    await client.data(STATUS('Clicked Export'));
  });

  it('names several painted matches as AMBIGUOUS_TARGET by text and box; nth picks in reading order', async () => {
    const several = await client.failure(
      `mutation { click(target: { query: "ocr~=e" }) { resolvedBy { strategy } } }`,
    );
    expect(several.code).toBe('AMBIGUOUS_TARGET');
    const { click } =
      await client.data(`mutation { click(target: { query: "role=region name=Toolbar >> ocr~=o", nth: 0 }) {
      resolvedBy { strategy confidence } } }`);
    expect(click.resolvedBy).toEqual({ strategy: 'OCR', confidence: 'OCR' });
    await client.data(STATUS('Clicked Open'));
  });
});

describe('the vision tier on the Electron-API stand-in (launch transport)', () => {
  let app: FixtureSession;
  beforeAll(async () => {
    app = await startFixtureSession();
  });
  afterAll(() => app?.stop());

  it("reads a button's label from the window's pixels with the button's ref, and hovers it by ocr:", async () => {
    const [button] = (
      await app.data('{ session { window { find(role: "button", name: "Fetch data") { ref } } } }')
    ).session.window.find;
    const { textIndex } = (
      await app.data(
        `{ session { window { textIndex(within: { ref: "${button.ref}" }) { lines { text ref } } } } }`,
      )
    ).session.window;
    expect(textIndex.lines).toEqual([{ text: 'Fetch data', ref: button.ref }]);
    const { hover } = await app.data(
      `mutation { hover(target: { query: "testId=no-such-id ?? ocr:'Fetch data'" }) { target { ref } resolvedBy { strategy confidence alternative } } }`,
    );
    expect(hover).toEqual({
      target: { ref: button.ref },
      resolvedBy: { strategy: 'OCR', confidence: 'OCR', alternative: 1 },
    });
  });
});
