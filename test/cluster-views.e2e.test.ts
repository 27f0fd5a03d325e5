import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '../web/observer/audit/page-starts.js';
import { launchChromium, newTestPage, PAGE_SAFETY_NET_MS } from './helpers/browser.js';
import { descendantsOf, endCluster, LOSS_DEADLINE_MS } from './helpers/cluster-replicas.js';
import { mergedAuditOnceStreamed } from './helpers/cluster-streams.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { describeWithRedis } from './helpers/redis-suite.js';

/**
 * The observer page and the MCP bridge of replica a watch and drive the whole cluster: a's page lists both
 * replicas and b's session under b (LOST once b is killed), opens b's session with its live view and says
 * how many records the cluster's audit stream trimmed (a appends with a tiny bound), pages the merged audit
 * trail by the stream's cursors (the replicas' seqs overlap), and the bridge at a's
 * /mcp lists both replicas and reads and acts on b's session, which runs once, on b.
 */

/** Two replicas, their apps and a Chromium starting at once on a loaded machine: a safety net only. */
const SAFETY_NET_MS = 300_000;
const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }';
/** One replica's own trail: `audit` without `replica` merges every replica's. */
const clicksOf = (replica: string) =>
  `{ audit(first: 500, replica: "${replica}") { edges { node { operation session { id } } } } }`;
const SECRET = 'cluster-views-secret';
/** Mutations per second b takes from one client: above a page of the audit view sent at once. */
const MUTATION_RATE = 1_000;
/** Entries a keeps in the streams it appends to: fewer than the records the tests audit. */
const TINY_BOUND = 2;

describeWithRedis('the observer page and the MCP bridge of one replica show the whole cluster', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let onB: GatewayClient;
  let browser: Browser;
  let page: Page;
  let mcp: Client;
  const orphans: number[] = [];

  const replica = (id: string, ...extra: string[]) =>
    serveInChild(['--cluster', redis.url, '--replica-id', id, '--cluster-secret', SECRET, ...extra]);

  async function call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; failed: boolean }> {
    const result = (await mcp.callTool({ name, arguments: args }, undefined, {
      timeout: SAFETY_NET_MS,
    })) as CallToolResult;
    const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return { text, failed: result.isError === true };
  }

  beforeAll(async () => {
    redis = await startRedis();
    [a, b, browser] = await Promise.all([
      replica('a', '--cluster-stream-bound', String(TINY_BOUND)),
      // Its audit view test sends a page's worth of mutations at once: more than the default burst.
      replica('b', '--mutation-rate', String(MUTATION_RATE)),
      launchChromium(),
    ]);
    onB = gatewayClient(b.url);
    const onA = gatewayClient(a.url);
    await Promise.all([
      onA.data(LAUNCH, { input: fixtureLaunch() }),
      onB.data(LAUNCH, { input: fixtureLaunch() }),
    ]);
    page = await newTestPage(browser);
    await page.goto(new URL('/', a.url).href, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Sign in without a token' }).click();
    mcp = new Client({ name: 'cluster-views-test', version: '0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', a.url)));
  }, SAFETY_NET_MS);

  afterAll(async () => {
    await mcp?.close();
    await browser?.close();
    await endCluster([a, b], orphans, redis);
  }, SAFETY_NET_MS);

  it(
    "a's page lists both replicas, UP, with a as this replica, and b's session under b with what b knows of it",
    async () => {
      const replicas = page.getByRole('region', { name: 'Replica table' });
      const rowOf = (id: string) =>
        replicas
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${id}\\b`) }) });
      await expect
        .poll(() => rowOf('a').textContent(), { timeout: PAGE_SAFETY_NET_MS })
        .toContain('(this replica)');
      expect(await rowOf('a').textContent()).toContain(a.url);
      await expect.poll(() => rowOf('b').textContent(), { timeout: PAGE_SAFETY_NET_MS }).toContain('UP');
      expect(await rowOf('b').textContent()).toContain(b.url);
      expect(await rowOf('b').textContent()).not.toContain('this replica');

      const onReplicaB = page.getByRole('region', { name: 'Sessions on Replica b' });
      const row = onReplicaB
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: 'Open session b-s1' }) });
      // The app's name and windows are read from b, its owner, through a.
      await expect
        .poll(() => row.textContent(), { timeout: PAGE_SAFETY_NET_MS })
        .toContain('Stagegraph Fixture');
      expect(await row.textContent()).toContain('RUNNING');
      const onReplicaA = page.getByRole('region', { name: 'Sessions on Replica a (this replica)' });
      expect(await onReplicaA.getByRole('link').allTextContents()).toEqual(['Open session a-s1']);
    },
    SAFETY_NET_MS,
  );

  it("the bridge at a's /mcp lists both replicas with their sessions", async () => {
    const { text, failed } = await call('sessions', {});
    expect(failed, text).toBe(false);
    expect(text).toMatch(
      new RegExp(`^replica a \\(this one\\) UP ${a.url} last seen .+\\n {2}a-s1 RUNNING`, 'm'),
    );
    expect(text).toMatch(new RegExp(`^replica b UP ${b.url} last seen .+\\n {2}b-s1 RUNNING`, 'm'));
  });

  it("the bridge at a reads and acts on b's session: the action runs once, on b", async () => {
    const read = await call('read', { session: 'b-s1' });
    expect(read.failed, read.text).toBe(false);
    expect(read.text).toMatch(/button "Log to console"/);
    const act = await call('act', { session: 'b-s1', steps: [{ do: 'click', target: { testId: 'log' } }] });
    expect(act.failed, act.text).toBe(false);
    const clicks = async (url: string, replica: string) =>
      (await gatewayClient(url).data(clicksOf(replica))).audit.edges
        .map(({ node }: { node: { operation: string; session: { id: string } | null } }) => node)
        .filter((node: { operation: string }) => node.operation === 'click');
    expect(await clicks(b.url, 'b')).toEqual([{ operation: 'click', session: { id: 'b-s1' } }]);
    expect(await clicks(a.url, 'a')).toEqual([]);
  });

  it(
    "a's page opens b's session: what b knows of it, read through a, and its live view, relayed from b",
    async () => {
      await page.getByRole('link', { name: 'Open session b-s1' }).click();
      const facts = page.locator('.session-facts');
      await expect
        .poll(() => facts.textContent(), { timeout: PAGE_SAFETY_NET_MS })
        .toContain('Stagegraph Fixture');
      const frame = page.getByRole('img', { name: /^Live view of / });
      await frame.waitFor({ timeout: PAGE_SAFETY_NET_MS });
      await expect
        .poll(() => frame.evaluate((image) => (image as HTMLImageElement).naturalWidth), {
          timeout: PAGE_SAFETY_NET_MS,
        })
        .toBeGreaterThan(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('link', { name: '← All sessions' }).click();
    },
    SAFETY_NET_MS,
  );

  it(
    "a's audit view says how many older records the cluster's audit stream trimmed, and where they still are",
    async () => {
      // Refused stops, audited on a, whose appends trim the audit stream to its bound.
      const onA = gatewayClient(a.url);
      for (let i = 0; i <= TINY_BOUND; i += 1)
        await onA.send('mutation { stop(id: "no-such-session") { id } }');
      const { pageInfo } = await mergedAuditOnceStreamed(onA, ['a', 'b']);
      expect(pageInfo.trimmedBefore).toBeGreaterThan(0);
      await page.evaluate(() => {
        location.hash = '#/audit';
      });
      const notice = page.getByText(/trimmed from the cluster's audit stream/);
      await notice.waitFor({ timeout: PAGE_SAFETY_NET_MS });
      expect(await notice.textContent()).toMatch(
        new RegExp(`^${pageInfo.trimmedBefore} older records were trimmed .+ audit\\(replica:\\)\\.$`),
      );
      await page.evaluate(() => {
        location.hash = '#/';
      });
    },
    SAFETY_NET_MS,
  );

  it(
    "a's audit view pages Older then Newer through the merged trail of both replicas, whose seqs overlap: no record skipped or repeated",
    async () => {
      const onA = gatewayClient(a.url);
      const mergedTrail = async (): Promise<string[]> =>
        (await onA.data('{ audit(first: 500) { edges { node { replica seq } } } }')).audit.edges.map(
          ({ node }: { node: { replica: string; seq: number } }) => `${node.replica} ${node.seq}`,
        );
      const table = page.getByRole('table', { name: /Audit records/ });
      // Each row as "replica seq": a row header alone (the seq) repeats across replicas.
      const shown = () =>
        table.locator('tbody tr').evaluateAll((rows) =>
          rows.map((row) =>
            [...(row as HTMLTableRowElement).cells]
              .slice(0, 2)
              .map((cell) => cell.textContent)
              .join(' '),
          ),
        );
      const paging = page.getByRole('navigation', { name: 'Audit pages' });
      const button = (name: string) => paging.getByRole('button', { name, exact: true });
      const pageLabel = paging.locator('.audit-page-number');
      const refusedStop = async () => {
        const { errors } = await onB.send('mutation { stop(id: "no-such-session") { id } }');
        expect(errors?.[0]?.extensions?.code).toBe('SESSION_NOT_FOUND');
      };

      await page.evaluate(() => {
        location.hash = '#/audit';
      });
      const loaded = await mergedTrail();
      await expect.poll(shown, { timeout: PAGE_SAFETY_NET_MS }).toEqual(loaded);
      // Records of b, caused until the page's subscription delivers one: then it surely reads the stream.
      await expect
        .poll(
          async () => {
            await refusedStop();
            return (await shown()).length;
          },
          { timeout: PAGE_SAFETY_NET_MS },
        )
        .toBeGreaterThan(loaded.length);
      await mergedAuditOnceStreamed(onA, ['a', 'b']);
      // Read again, so that the page holds exactly what the trail holds before records stream in.
      await button('Latest').click();
      const start = await mergedTrail();
      await expect.poll(shown, { timeout: PAGE_SAFETY_NET_MS }).toEqual(start);
      expect(start.length).toBeLessThan(AUDIT_PAGE_SIZE);
      const seqs = start.map((record) => record.split(' ')[1]);
      expect(new Set(seqs).size, `a's and b's seqs overlap in ${start.join(', ')}`).toBeLessThan(seqs.length);

      // Live records fill the last page; past it, they start page 2 where the page's last row ends.
      const past = 5;
      for (let i = start.length; i < AUDIT_PAGE_SIZE + past; i += 1) await refusedStop();
      await mergedAuditOnceStreamed(onA, ['a', 'b']);
      const trail = await mergedTrail();
      expect(trail).toHaveLength(AUDIT_PAGE_SIZE + past);
      await page
        .getByRole('status')
        .filter({ hasText: `${past} newer records arrived` })
        .waitFor({ timeout: PAGE_SAFETY_NET_MS });

      await button('Latest').click();
      await expect.poll(() => pageLabel.textContent(), { timeout: PAGE_SAFETY_NET_MS }).toBe('Page 2 of 2');
      await expect.poll(() => button('Older').isEnabled(), { timeout: PAGE_SAFETY_NET_MS }).toBe(true);
      const newest = await shown();
      await button('Older').click();
      await expect.poll(() => pageLabel.textContent(), { timeout: PAGE_SAFETY_NET_MS }).toBe('Page 1 of 2+');
      await expect.poll(() => button('Newer').isEnabled(), { timeout: PAGE_SAFETY_NET_MS }).toBe(true);
      const oldest = await shown();
      await button('Newer').click();
      await expect.poll(() => pageLabel.textContent(), { timeout: PAGE_SAFETY_NET_MS }).toBe('Page 2 of 2');
      await expect.poll(() => button('Older').isEnabled(), { timeout: PAGE_SAFETY_NET_MS }).toBe(true);
      expect(await shown()).toEqual(newest);
      expect([...oldest, ...newest]).toEqual(trail);
      await page.evaluate(() => {
        location.hash = '#/';
      });
    },
    SAFETY_NET_MS,
  );

  it(
    "once b is killed, a's page shows b DOWN and its session LOST",
    async () => {
      orphans.push(...descendantsOf(b.pid));
      b.child.kill('SIGKILL');
      await b.exited;
      const onReplicaB = page.getByRole('region', { name: 'Sessions on Replica b' });
      const row = onReplicaB
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: 'Open session b-s1' }) });
      await expect.poll(() => row.textContent(), { timeout: LOSS_DEADLINE_MS }).toContain('LOST');
      const replicas = page.getByRole('region', { name: 'Replica table' });
      expect(await replicas.getByRole('row').filter({ hasText: b.url }).textContent()).toContain('DOWN');
      const { text } = await call('sessions', {});
      expect(text).toMatch(/^replica b DOWN .+\n {2}b-s1 LOST/m);
    },
    SAFETY_NET_MS,
  );
});
