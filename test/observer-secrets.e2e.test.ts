import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { useLoopbackServer } from './helpers/loopback-server.js';

/**
 * A served gateway with agent, approver and observer tokens; an app page that posts a login with a
 * password and a card number in a JSON body, an x-api-key header and a session token in its URL, and gets a
 * token back; its title shows an e-mail address, and the agent stubs a URL with a token in its query.
 * Approvers and observers asking for `reveal` are refused; what the observer's subscriptions
 * (the observer page's network and console tails, and a full one) deliver, and every file under the
 * artifacts folder (run.jsonl, the audit log), hold none of the secrets. The agent still reveals them.
 */

const AGENT = 'agent-secrets-4c1f77';
const APPROVER = 'approver-secrets-9a02be';
const OBSERVER = 'observer-secrets-e61d35';
const SECRETS = [
  'BODYPASSWORD',
  '4111111111111111',
  'HEADERSECRET',
  'URLSECRET',
  'RESPONSESECRET',
  'SETCOOKIESECRET',
  'COOKIESECRET',
  'STORAGESECRET',
  'NAVSECRET',
];

/** Held by what an agent set or the app shows, outside the network and console: windows and stubs. */
const SHOWN_SECRETS = ['ada.lovelace@example.com', 'STUBURLSECRET', 'STUBBODYSECRET'];

const PAGE = `<!doctype html><title>Checkout app for ada.lovelace@example.com</title>
<button data-testid="login" onclick="login()">Log in</button><p id="out"></p>
<script>
document.cookie = 'sid=COOKIESECRET; path=/';
localStorage.setItem('apiToken', 'STORAGESECRET');
async function login() {
  const response = await fetch('/api/pay?session_token=URLSECRET&step=1', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'HEADERSECRET' },
    body: JSON.stringify({ password: 'BODYPASSWORD', card: '4111111111111111' }),
  });
  document.getElementById('out').textContent = 'answered ' + response.status;
  console.log('retrying with session_token=CONSOLESECRET');
}
</script>`;

const app = useLoopbackServer((request, response) => {
  if (request.url?.startsWith('/api/pay')) {
    request.resume();
    // 402 also puts the request's URL in a console error's location.
    response.writeHead(402, { 'content-type': 'application/json', 'set-cookie': 'sid=SETCOOKIESECRET' });
    response.end(JSON.stringify({ ok: false, token: 'RESPONSESECRET' }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end(PAGE);
});

let gateway: GatewayProcess;
let artifacts: string;
let browser: OutsideProcess;
let agent: GatewayClient;
let approver: GatewayClient;
let observer: GatewayClient;
let observerWs: Client;
let sessionId: string;
const feeds: Subscription<Loose>[] = [];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const TAIL_NETWORK = `subscription ($s: ID!) { network(session: $s, replay: true) {
  droppedBefore entry { seq time method url status failure resourceType } } }`;
const FULL_NETWORK = `subscription ($s: ID!) { network(session: $s, replay: true) { entry {
  url requestHeaders { name value } responseHeaders { name value } requestBody { data } responseBody { data } } } }`;
const TAIL_CONSOLE = `subscription ($s: ID!) { console(session: $s, replay: true) {
  droppedBefore entry { seq time type text location } } }`;

beforeAll(async () => {
  artifacts = mkdtempSync(join(tmpdir(), 'stagegraph-secrets-'));
  gateway = await serveInChild([
    '--token',
    AGENT,
    '--approver-token',
    APPROVER,
    '--observer-token',
    OBSERVER,
    '--artifacts',
    artifacts,
  ]);
  agent = gatewayClient(gateway.url, bearer(AGENT));
  approver = gatewayClient(gateway.url, bearer(APPROVER));
  observer = gatewayClient(gateway.url, bearer(OBSERVER));
  browser = await startDebuggableChromium(`${app.origin()}/`);
  const { attach } = await agent.data(
    `mutation { attach(input: { port: ${browser.port}, titleContains: "Checkout app", timeoutMs: 60000 }) { id } }`,
  );
  sessionId = attach.id;
  observerWs = wsClient(gateway.wsUrl, bearer(OBSERVER));
  for (const document of [TAIL_NETWORK, FULL_NETWORK, TAIL_CONSOLE])
    feeds.push(subscribe<Loose, Record<string, unknown>>(observerWs, parse(document), { s: sessionId }));
  // The agent's own navigation carries a session token too: the audit record and the run log scrub it.
  await agent.data(
    `mutation { navigate(session: "${sessionId}", to: { url: "${app.origin()}/?session_token=NAVSECRET" }) { reached } }`,
  );
  await agent.data(`mutation { startNetworkCapture(session: "${sessionId}", bodies: true) { id } }`);
  await agent.data(
    `mutation { stubNetwork(session: "${sessionId}", input: { pattern: "*/api/stubbed?session_token=STUBURLSECRET*", body: "session_token=STUBBODYSECRET" }) { id } }`,
  );
  await agent.data(
    `mutation { click(session: "${sessionId}", target: { testId: "login" }) { target { name } } }`,
  );
  await agent.data(
    `mutation { expect(session: "${sessionId}", kind: TEXT, target: { selector: "#out" }, equals: "answered 402", timeoutMs: 60000) { actual } }`,
  );
}, 300_000);

afterAll(async () => {
  for (const feed of feeds) feed.dispose();
  await observerWs?.dispose();
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  await browser?.kill();
  if (artifacts) rmSync(artifacts, { recursive: true, force: true });
});

const origin = () => app.origin();

describe('reveal is an agent’s only', () => {
  it('refuses approvers and observers with REVEAL_FORBIDDEN on every read that takes reveal', async () => {
    const reads = [
      `{ session(id: "${sessionId}") { storage(origin: "${origin()}", reveal: true) { localStorage { key value } } } }`,
      `{ session(id: "${sessionId}") { cookies(reveal: true) { name value } } }`,
      `{ session(id: "${sessionId}") { webStorage(origin: "${origin()}", area: LOCAL, reveal: true) { key value } } }`,
      `{ session(id: "${sessionId}") { network { entries { requestBody(reveal: true) { data } } } } }`,
      `{ session(id: "${sessionId}") { network { entries { url(reveal: true) } } } }`,
      `{ session(id: "${sessionId}") { network { entries { requestHeaders(reveal: true) { name value } } } } }`,
    ];
    for (const client of [approver, observer]) {
      for (const read of reads) {
        const response = await client.send(read);
        expect(JSON.stringify(response)).not.toMatch(new RegExp(SECRETS.join('|')));
        expect(response.errors?.[0]?.extensions, read).toMatchObject({
          code: 'REVEAL_FORBIDDEN',
          retryable: false,
          hint: expect.stringContaining('without `reveal`'),
        });
      }
    }
  });

  it('lets the agent reveal what every other read shows redacted', async () => {
    const entry = async (reveal: boolean) =>
      (
        await agent.data(
          `{ session(id: "${sessionId}") { network(urlContains: "/api/pay") { entries {
            url(reveal: ${reveal}) requestHeaders(reveal: ${reveal}) { name value } requestBody(reveal: ${reveal}) { data } } } } }`,
        )
      ).session.network.entries[0];
    const clear = JSON.stringify(await entry(true));
    for (const secret of ['BODYPASSWORD', '4111111111111111', 'HEADERSECRET', 'URLSECRET'])
      expect(clear).toContain(secret);
    const redacted = await entry(false);
    expect(redacted.url).toBe(`${origin()}/api/pay?session_token=[redacted]&step=1`);
    expect(redacted.requestHeaders).toContainEqual({ name: 'x-api-key', value: '[redacted]' });
    expect(JSON.parse(redacted.requestBody.data)).toEqual({
      password: '[redacted]',
      card: '[REDACTED:card]',
    });
  });
});

describe('an observer sees no clear secret anywhere', () => {
  it('gets the request, redacted, on the tails and the full network subscription', async () => {
    const [tail, full, console] = feeds as [Subscription<Loose>, Subscription<Loose>, Subscription<Loose>];
    await tail!.waitFor((value) => value.network.entry.url.includes('/api/pay'), 60_000);
    const delivered = await full!.waitFor((value) => value.network.entry.url.includes('/api/pay'), 60_000);
    expect(delivered.network.entry.requestBody.data).toContain('"password":"[redacted]"');
    await console!.waitFor((value) => (value.console.entry.location ?? '').includes('/api/pay'), 60_000);
    // An app's console line is the app's text: an observer gets it scrubbed by the policy's patterns.
    const logged = await console!.waitFor(
      (value) => value.console.entry.text.startsWith('retrying with'),
      60_000,
    );
    expect(logged.console.entry.text).toBe('retrying with [REDACTED:credential]');
    for (const feed of feeds) {
      expect(feed.errors).toEqual([]);
      const all = JSON.stringify(feed.received);
      for (const secret of [...SECRETS, 'CONSOLESECRET']) expect(all).not.toContain(secret);
    }
    const read = JSON.stringify(
      await observer.data(
        `{ session(id: "${sessionId}") { storage(origin: "${origin()}") { localStorage { key value } cookies { name value } }
          network { entries { url requestHeaders { name value } responseHeaders { name value } requestBody { data } responseBody { data } } }
          networkSummary { failed { url } errorResponses { url } } } }`,
      ),
    );
    expect(read).toContain('/api/pay');
    for (const secret of SECRETS) expect(read).not.toContain(secret);
  });

  it('cannot find a console secret by filtering for it: textContains matches the text as the reader is shown it', async () => {
    const read = (client: GatewayClient, contains: string) =>
      client.data(
        `{ session(id: "${sessionId}") { console(textContains: ${JSON.stringify(contains)}) { entries { text } } } }`,
      );
    await expect
      .poll(async () => (await read(agent, 'CONSOLESECRET')).session.console.entries, {
        timeout: 60_000,
      })
      .toHaveLength(1);
    expect((await read(observer, 'CONSOLESECRET')).session.console.entries).toEqual([]);
    expect((await read(observer, 'session_token=C')).session.console.entries).toEqual([]);
    expect((await read(observer, '[REDACTED:credential]')).session.console.entries).toHaveLength(1);
  });

  it('cannot find a URL secret by filtering for it: urlContains matches the URL as the reader is shown it', async () => {
    const read = (client: GatewayClient, contains: string) =>
      client.data(
        `{ session(id: "${sessionId}") { network(urlContains: ${JSON.stringify(contains)}) { entries { seq } } } }`,
      );
    expect((await read(agent, 'URLSECRET')).session.network.entries).toHaveLength(1);
    expect((await read(observer, 'URLSECRET')).session.network.entries).toEqual([]);
    expect((await read(observer, 'session_token=[redacted]')).session.network.entries).toHaveLength(1);
  });

  it('reads windows and network stubs with their secrets redacted, where the agent reads them in clear', async () => {
    const read = (client: GatewayClient) =>
      client.data(`{ session(id: "${sessionId}") { windows { title url } networkStubs { pattern body } } }`);
    const clear = JSON.stringify(await read(agent));
    for (const secret of [...SHOWN_SECRETS, 'NAVSECRET']) expect(clear).toContain(secret);
    for (const client of [approver, observer]) {
      const shown = (await read(client)).session;
      expect(shown.windows).toContainEqual({
        title: 'Checkout app for [REDACTED:email]',
        url: `${origin()}/?session_token=[redacted]`,
      });
      expect(shown.networkStubs).toEqual([
        { pattern: '*/api/stubbed?session_token=[redacted]', body: '[REDACTED:credential]' },
      ]);
    }
  });

  it('finds none in any file the gateway wrote: run.jsonl, the audit log, everything under the artifacts folder', async () => {
    await agent.data(`mutation { detach(id: "${sessionId}") { id } }`);
    const files = readdirSync(artifacts, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files.some((file) => file.endsWith('run.jsonl'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of SECRETS) expect(text, `${file} holds ${secret}`).not.toContain(secret);
    }
  });
});
