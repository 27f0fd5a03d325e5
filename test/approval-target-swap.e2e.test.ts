import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/**
 * Issue 32, item 3: what is approved is what is done. A served gateway (agent and approver tokens), a
 * browser the agent attached to, and a page whose "Delete draft" button becomes "Delete account" while the
 * approver reads the request: the test swaps the label when the request it caused arrives, the approver
 * approves what it saw, and the click must be refused, the page's handler must not run, and the audit
 * must say what was approved and what was found. An unchanged button still acts after the approval.
 */

const AGENT = 'agent-swap-3b91c7';
const APPROVER = 'approver-swap-e04d58';
const PAGE = fileURLToPath(new URL('../fixtures/pages/approval-swap.html', import.meta.url));
const CLICK = 'mutation { click(target: { testId: "delete" }) { target { name } } }';
const APPROVALS = parse(`subscription { approvalRequests { state
  request { id operation target { role name path bbox { x y width height } } } } }`);
const LAST_CLICK = `{ audit(filter: { operations: ["click"] }, first: 500) { edges { node {
  seq outcome errorCode decision approval { status decidedBy }
  target { role name path } approvedTarget { role name path } } } } }`;
/** Polling for the approver's stream to be live: a pause between probes, not a guess at a delay. */
const PROBE_PAUSE_MS = 100;
const PROBE_DEADLINE_MS = 60_000;

let folder: string;
let gateway: GatewayProcess;
let browser: OutsideProcess;
let person: Browser;
let page: Page;
let agent: GatewayClient;
let approver: GatewayClient;
let approverWs: ReturnType<typeof wsClient>;
let approvals: Subscription<Loose>;
const answered = new Set<string>();

/**
 * Sends the click and resolves with the approval request it caused, and the click's answer to come. Until
 * the approver's subscription is live an ASK fails with APPROVAL_UNAVAILABLE (nothing is done); then it is
 * sent again.
 */
async function clickAsked(): Promise<{ request: Loose; click: Promise<Loose> }> {
  const deadline = Date.now() + PROBE_DEADLINE_MS;
  for (;;) {
    const click = agent.send(CLICK);
    const pending = approvals.waitFor(
      (event) =>
        event.approvalRequests.state === 'PENDING' && !answered.has(event.approvalRequests.request.id),
      PROBE_DEADLINE_MS,
    );
    const first = await Promise.race([
      click.then((answer) => ({ answer })),
      pending.then((event) => ({ event })),
    ]);
    if ('event' in first) {
      const request = first.event.approvalRequests.request;
      answered.add(request.id);
      return { request, click };
    }
    expect(first.answer.errors?.[0]?.extensions?.code, JSON.stringify(first.answer)).toBe(
      'APPROVAL_UNAVAILABLE',
    );
    pending.catch(() => {});
    if (Date.now() > deadline) throw new Error('the approver stream never went live');
    await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
  }
}

async function lastClickRecord(): Promise<Loose> {
  const { audit } = await approver.data(LAST_CLICK);
  return audit.edges.at(-1).node;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'stagegraph-approval-swap-'));
  gateway = await serveInChild([
    '--token',
    AGENT,
    '--approver-token',
    APPROVER,
    '--artifacts',
    join(folder, 'artifacts'),
  ]);
  agent = gatewayClient(gateway.url, { authorization: `Bearer ${AGENT}` });
  approver = gatewayClient(gateway.url, { authorization: `Bearer ${APPROVER}` });
  approverWs = wsClient(gateway.wsUrl, { authorization: `Bearer ${APPROVER}` });
  approvals = subscribe<Loose, Record<string, unknown>>(approverWs, APPROVALS);
  browser = await startDebuggableChromium(`file://${PAGE}`);
  person = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  page = person.contexts()[0]!.pages()[0]!;
  await page.waitForFunction(() => 'swapLabel' in window);
  await agent.data(
    `mutation { attach(input: { port: ${browser.port}, titleContains: "Drafts app", timeoutMs: 60000 }) { id } }`,
  );
}, 300_000);

afterAll(async () => {
  approvals?.dispose();
  await approverWs?.dispose();
  await person?.close();
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  await browser?.kill();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('an approval holds only for the target it showed', () => {
  it('refuses a click whose button was relabelled after the request was shown, and audits both', async () => {
    await page.evaluate(() => (window as unknown as { reset(): void }).reset());
    const { request, click } = await clickAsked();
    expect(request.target).toMatchObject({
      role: 'button',
      name: 'Delete draft',
      path: ['main', 'region "Drafts"'],
    });
    // The page swaps the label while the approver reads the request, as a hostile page would.
    await page.evaluate(() => (window as unknown as { swapLabel(): void }).swapLabel());
    const approved = await approver.data(`mutation { approve(id: "${request.id}") { status } }`);
    expect(approved.approve.status).toBe('APPROVED');

    const error = (await click).errors?.[0];
    expect(error?.extensions).toMatchObject({
      code: 'TARGET_CHANGED_AFTER_APPROVAL',
      retryable: false,
      details: {
        approved: { name: 'Delete draft' },
        found: { name: 'Delete account' },
        // The longer label widens the button too.
        changes: expect.arrayContaining(['name']),
      },
    });
    expect(error?.extensions?.nextActions?.[0]).toContain('snapshot(interactiveOnly: true)');
    // The destructive handler never ran: nothing was clicked at all.
    expect(await page.evaluate(() => (window as unknown as { deleted: string[] }).deleted)).toEqual([]);
    expect(await lastClickRecord()).toMatchObject({
      outcome: 'DENIED',
      errorCode: 'TARGET_CHANGED_AFTER_APPROVAL',
      decision: 'ASK',
      approval: { status: 'APPROVED' },
      target: { role: 'button', name: 'Delete account', path: ['main', 'region "Drafts"'] },
      approvedTarget: { role: 'button', name: 'Delete draft' },
    });
  });

  it('stops the input at the button when the page relabels it as the pointer is pressed, after the last look', async () => {
    await page.evaluate(() => (window as unknown as { reset(): void }).reset());
    const { request, click } = await clickAsked();
    expect(request.target).toMatchObject({ name: 'Delete draft' });
    // Unchanged when the gateway looks again after the answer; the page swaps it on the press itself.
    await page.evaluate(() => (window as unknown as { swapOnPress(): void }).swapOnPress());
    await approver.data(`mutation { approve(id: "${request.id}") { status } }`);

    const error = (await click).errors?.[0];
    expect(error?.extensions).toMatchObject({
      code: 'TARGET_CHANGED_AFTER_APPROVAL',
      details: { approved: { name: 'Delete draft' }, found: { name: 'Delete account' }, changes: ['name'] },
    });
    // The press the page relabelled the button on reached it; the click that deletes did not.
    expect(error?.message).toMatch(/stopped at the element after 1 of its events had reached it/);
    expect(await page.evaluate(() => (window as unknown as { deleted: string[] }).deleted)).toEqual([]);
    expect(await lastClickRecord()).toMatchObject({
      outcome: 'DENIED',
      errorCode: 'TARGET_CHANGED_AFTER_APPROVAL',
      approval: { status: 'APPROVED' },
      target: { role: 'button', name: 'Delete account' },
      approvedTarget: { role: 'button', name: 'Delete draft' },
    });
  });

  it('acts on an unchanged button once approved, and audits the target found again', async () => {
    await page.evaluate(() => (window as unknown as { reset(): void }).reset());
    const { request, click } = await clickAsked();
    expect(request.target).toMatchObject({ name: 'Delete draft' });
    await approver.data(`mutation { approve(id: "${request.id}") { status } }`);
    const answer = await click;
    expect(answer.errors).toBeUndefined();
    expect(answer.data.click.target.name).toBe('Delete draft');
    expect(await page.evaluate(() => (window as unknown as { deleted: string[] }).deleted)).toEqual([
      'Delete draft',
    ]);
    expect(await lastClickRecord()).toMatchObject({
      outcome: 'OK',
      errorCode: null,
      approval: { status: 'APPROVED' },
      target: { role: 'button', name: 'Delete draft', path: ['main', 'region "Drafts"'] },
      approvedTarget: null,
    });
  });
});
