import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild, whenPrinted } from './helpers/gateway-process.js';
import { frameData, sseFrames } from './helpers/sse-frames.js';

/** A safety net only: the demo normally prints its instructions within seconds of serving. */
const DEMO_READY_TIMEOUT_MS = 90_000;

let dir: string;
let demo: GatewayProcess;

/** Resolves once the server's output matches `pattern` (the line it prints when that step is done). */
const printed = (pattern: RegExp) => whenPrinted(demo, pattern, DEMO_READY_TIMEOUT_MS);

/** An SSE subscription as GraphiQL sends one: a POST with the Headers pane's headers. */
function sse(url: string, query: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const events: Loose[] = [];
  const waiters = new Set<() => void>();
  void fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  })
    .then(async (response) => {
      for await (const frame of sseFrames(response.body!)) {
        const data = frameData(frame);
        if (data) events.push(data as Loose);
        for (const wake of waiters) wake();
      }
    })
    .catch(() => {});
  return {
    async next(predicate: (event: Loose) => boolean): Promise<Loose> {
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.add(resolve));
      }
    },
    close: () => controller.abort(),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-demo-e2e-'));
  demo = await serveInChild(['--demo', '--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
}, DEMO_READY_TIMEOUT_MS);
afterAll(async () => {
  demo?.child.kill('SIGTERM');
  expect((await demo?.exited)?.code).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

describe('npm start: the demo', () => {
  it('runs the fixture app instrumented, its pages on a loopback HTTP origin, Fetch working bare', async () => {
    const [, origin] = await printed(/its pages: (http:\/\/127\.0\.0\.1:\d+)/);
    const agent = gatewayClient(demo.url);
    const session = (await agent.data('{ session { windows { url } storageOrigins trays { id } } }')).session;
    expect(session.windows[0].url).toBe(`${origin}/index.html`);
    expect(session.storageOrigins).toEqual([origin]);
    expect(session.trays.length).toBeGreaterThan(0);
    await agent.data('mutation { click(target: { testId: "fetch" }) { target { name } } }');
    await agent.data(
      'mutation { expect(kind: TEXT, target: { testId: "status" }, contains: "hello from the demo server") { actual } }',
    );
  });

  it('prints where the observer page is, and it is served there', async () => {
    const [, page] = await printed(/Observer page: +open (http:\/\/\S+\/) in a browser/);
    const response = await fetch(page!, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('Stagegraph');
  });

  it('prints an approver token and a subscription with which a second client answers the Delete ASK', async () => {
    const [, token] = await printed(/"Authorization": "Bearer (demo-approver-[0-9a-f]+)"/);
    const [, subscription] = await printed(/^\s+(subscription Approvals \{.*\})$/m);
    const [, deleteClick] = await printed(/^\s+(mutation Delete \{.*\})$/m);
    const approverHeaders = { authorization: `Bearer ${token}` };
    const approvals = sse(demo.url, subscription!, approverHeaders);
    try {
      const agent = gatewayClient(demo.url);
      // The approver's stream is live once an ASK no longer fails for want of one.
      let click: Promise<Loose>;
      for (;;) {
        click = agent.send(deleteClick!);
        const pending = await Promise.race([
          click,
          approvals.next((event) => event.data?.approvalRequests?.state === 'PENDING'),
        ]);
        if (pending.data?.approvalRequests) break;
        expect(pending.errors?.[0]?.extensions?.code).toBe('APPROVAL_UNAVAILABLE');
      }
      const request = (await approvals.next((event) => event.data?.approvalRequests?.state === 'PENDING'))
        .data.approvalRequests.request;
      expect(request).toMatchObject({
        operation: 'click',
        target: { role: 'button', name: 'Delete account' },
      });
      // The agent (no token on loopback) may not answer; the printed approver may.
      expect((await agent.failure(`mutation { approve(id: "${request.id}") { status } }`)).code).toBe(
        'APPROVAL_FORBIDDEN',
      );
      const answer = await gatewayClient(demo.url, approverHeaders).data(
        `mutation Approve { approve(id: "${request.id}") { status } }`,
      );
      expect(answer.approve.status).toBe('APPROVED');
      expect((await click).data.click.target.name).toBe('Delete account');
      await agent.data(
        'mutation { expect(kind: TEXT, target: { testId: "status" }, equals: "Account deleted") { actual } }',
      );
    } finally {
      approvals.close();
    }
  });
});
