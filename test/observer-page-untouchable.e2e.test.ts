import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/**
 * The user's own browser, where an approver is signed in to the observer page of a served gateway, with
 * an app open in another tab; the agent attaches to that browser (a feature: it drives the user's app) and
 * tries every read it has on the observer page. Each one is refused with POLICY_DENIED naming
 * built-in:not-on-own-pages, nothing it reads anywhere holds the approver's token, and the page keeps the
 * token nowhere a read of the browser's storage could find it.
 */

const AGENT = 'agent-untouchable-51c9e0';
const APPROVER = 'approver-untouchable-8d27f4';
const OWN_PAGE_RULE = { rule: { id: 'built-in:not-on-own-pages' } };

let gateway: GatewayProcess;
let origin: string;
let folder: string;
let browser: OutsideProcess;
let person: Browser;
let observerPage: Page;
let agent: GatewayClient;
let sessionId: string;
let observerWindow: string;
/** Every answer the agent got, as sent: none may hold the token. */
const answers: string[] = [];

async function read(query: string): Promise<Loose> {
  const response = await agent.send(query);
  answers.push(JSON.stringify(response));
  return response;
}

async function refused(query: string): Promise<void> {
  const response = await read(query);
  expect(response.errors?.[0]?.extensions, JSON.stringify(response)).toMatchObject({
    code: 'POLICY_DENIED',
    details: OWN_PAGE_RULE,
  });
}

beforeAll(async () => {
  gateway = await serveInChild(['--token', AGENT, '--approver-token', APPROVER]);
  origin = new URL(gateway.url).origin;
  agent = gatewayClient(gateway.url, { authorization: `Bearer ${AGENT}` });
  folder = mkdtempSync(join(tmpdir(), 'stagegraph-untouchable-'));
  const app = join(folder, 'app.html');
  writeFileSync(app, '<!doctype html><title>Orders app</title><button>Delete account</button>');
  browser = await startDebuggableChromium(`${origin}/`);
  person = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
  const context = person.contexts()[0]!;
  observerPage = context.pages()[0]!;
  await observerPage.getByLabel('Token').fill(APPROVER);
  await observerPage.getByRole('button', { name: 'Sign in with token' }).click();
  await observerPage
    .getByRole('banner')
    .filter({ hasText: 'Signed in as Approver' })
    .waitFor({ timeout: 60_000 });
  const appPage = await context.newPage();
  await appPage.goto(`file://${app}`);

  const { data } = await read(
    `mutation { attach(input: { port: ${browser.port}, titleContains: "Orders app", timeoutMs: 60000 }) { id windows { id url } } }`,
  );
  sessionId = data.attach.id;
  observerWindow = data.attach.windows.find((window: { url: string }) => window.url.startsWith(origin)).id;
  // The app tab is the active window, so arming a capture is an action on the app, which the policy allows.
  await agent.data(`mutation { startNetworkCapture(session: "${sessionId}", bodies: true) { id } }`);
  // The approver opens the session's run log: the page fetches it with the token in a header.
  await observerPage.evaluate((id) => {
    location.hash = `#/sessions/${encodeURIComponent(id)}`;
  }, sessionId);
  const files = observerPage.getByRole('table', { name: `Files of session ${sessionId}` });
  await files.getByRole('button', { name: 'run.jsonl', exact: true }).click({ timeout: 60_000 });
  await observerPage.getByRole('table', { name: /^run\.jsonl, \d+ lines/ }).waitFor({ timeout: 60_000 });
}, 300_000);

afterAll(async () => {
  await person?.close();
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  await browser?.kill();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("an attached browser showing the gateway's observer page", () => {
  it("refuses every read of the observer page's storage and cookies", async () => {
    const page = `session(id: "${sessionId}")`;
    await refused(
      `{ ${page} { storage(origin: "${origin}", reveal: true) { sessionStorage { key value } localStorage { key value } cookies { name value } } } }`,
    );
    await refused(`{ ${page} { webStorage(origin: "${origin}", area: SESSION) { key value } } }`);
    await refused(`{ ${page} { cookies(urls: ["${origin}/"], reveal: true) { name value } } }`);
    const { data } = await read(`{ ${page} { storageOrigins } }`);
    expect(data.session.storageOrigins).not.toContain(origin);
  });

  it("refuses a stub that would answer the observer page's script with the agent's", async () => {
    await refused(
      `mutation { stubNetwork(session: "${sessionId}", input: { pattern: "**/observer/app.js", body: "alert(1)" }) { id } }`,
    );
  });

  it("refuses a fake clock, which would stop the observer page's timers and Date with the app's", async () => {
    await refused(`mutation { installClock(session: "${sessionId}") { installed } }`);
    await refused(
      `mutation { setFixedTime(session: "${sessionId}", time: "2030-01-01T00:00:00Z") { installed } }`,
    );
    expect(await observerPage.evaluate(() => new Date().getUTCFullYear())).toBeLessThan(2030);
  });

  it('refuses every read of its document: snapshot, find, node, screenshot, source', async () => {
    const window = `session(id: "${sessionId}") { window(id: "${observerWindow}")`;
    await refused(`{ ${window} { snapshot { outline } } } }`);
    await refused(`{ ${window} { find(role: "button", nameContains: "Approve") { ref name } } } }`);
    await refused(`{ ${window} { screenshot { base64 } } } }`);
    await refused(`{ ${window} { html { html } } } }`);
  });

  it("keeps nothing of the observer page's console and requests, and no request to the gateway", async () => {
    const { data } = await read(
      `{ session(id: "${sessionId}") {
        console { entries { text location } }
        network { entries { url requestHeaders(reveal: true) { name value } } } } }`,
    );
    const entries = [...data.session.console.entries, ...data.session.network.entries];
    expect(entries.filter((entry) => (entry.url ?? entry.location ?? '').startsWith(origin))).toEqual([]);
  });

  it('yields the token to no read, and the page keeps it in none of its storage', async () => {
    expect(answers.length).toBeGreaterThan(8);
    for (const answer of answers) expect(answer).not.toContain(APPROVER);
    const kept = await observerPage.evaluate(() =>
      JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie }),
    );
    expect(kept).not.toContain(APPROVER);
    const cookies = await person.contexts()[0]!.cookies();
    expect(JSON.stringify(cookies)).not.toContain(APPROVER);
  });
});
