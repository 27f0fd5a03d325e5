import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import type { Loose } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { useLoopbackServer } from './helpers/loopback-server.js';

/**
 * Issue 37, item 3, over CDP attach: a browser started by hand on the canvas-drawn page (served over
 * loopback), and a policy that refuses targets found by OCR and reading a region of the screen. Both
 * refusals name their rule, act on nothing, and are audited; an unrefused text index still reads.
 */
const PAGE = readFileSync(new URL('../fixtures/pages/canvas-toolbar.html', import.meta.url));
const served = useLoopbackServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});
const POLICY = `version: 1
nonInteractive: ALLOW
rules:
  - id: no-ocr-targets
    description: nothing read from the screen is acted on in this app
    target: { confidence: [OCR] }
    decision: DENY
  - id: no-region-reads
    description: parts of the screen are not read by OCR
    operation: [textIndex]
    args: { region: true }
    decision: DENY
`;

let folder: string;
let browser: OutsideProcess;
let gateway: RunningGateway;
let client: GatewayClient;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'stagegraph-vision-policy-'));
  writeFileSync(join(folder, 'policy.yaml'), POLICY);
  browser = await startDebuggableChromium(`${served.origin()}/canvas-toolbar.html`);
  gateway = await startGateway({
    policyFile: join(folder, 'policy.yaml'),
    auditDir: join(folder, 'audit'),
    mutationsPerSecond: 1_000,
  });
  client = gatewayClient(gateway.url);
  await client.data(
    `mutation { attach(input: { port: ${browser.port}, titleContains: "Canvas toolbar" }) { id } }`,
  );
});
afterAll(async () => {
  await gateway?.stop();
  await browser?.kill();
  rmSync(folder, { recursive: true, force: true });
});

const status = async () =>
  (await client.data('mutation { expect(kind: TEXT, target: { testId: "status" }, regex: ".*") { actual } }'))
    .expect.actual;
const lastRecord = async (operation: string) => {
  const { audit } =
    await client.data(`{ audit(filter: { operations: ["${operation}"] }, first: 500) { edges { node {
    kind outcome errorCode rule { id } target { role name confidence } } } } }`);
  return audit.edges.at(-1).node;
};

describe('the policy on the vision tier, over CDP attach', () => {
  it('reads the painted labels of an attached browser', async () => {
    const { textIndex } = (
      await client.data('{ session { window { textIndex(minConfidence: 80) { words { text } } } } }')
    ).session.window;
    expect(textIndex.words.map((w: Loose) => w.text)).toEqual(expect.arrayContaining(['Export', 'Revenue']));
    expect(await lastRecord('textIndex')).toMatchObject({ kind: 'query', outcome: 'OK' });
  });

  it('refuses a text index the policy denies, with POLICY_DENIED naming the rule, and audits it', async () => {
    const denied = await client.failure(
      '{ session { window { textIndex(region: { x: 0, y: 0, width: 640, height: 64 }) { words { text } } } } }',
    );
    expect(denied.code).toBe('POLICY_DENIED');
    expect(denied.message).toContain('no-region-reads');
    expect(await lastRecord('textIndex')).toMatchObject({
      outcome: 'DENIED',
      errorCode: 'POLICY_DENIED',
      rule: { id: 'no-region-reads' },
    });
  });

  it('refuses a click on a target found by OCR: the canvas is not clicked, the audit names the words', async () => {
    const before = await status();
    const refused = await client.failure(
      `mutation { click(target: { query: "role=button name=Export ?? ocr:'Export'" }) { resolvedBy { strategy } } }`,
    );
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain('no-ocr-targets');
    expect(await status()).toBe(before);
    expect(await lastRecord('click')).toMatchObject({
      outcome: 'DENIED',
      rule: { id: 'no-ocr-targets' },
      target: { role: 'ocr text', name: 'Export', confidence: 'OCR' },
    });
  });
});
