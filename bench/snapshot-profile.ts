// Where the time of one full snapshot goes, measured on the gateway's own objects (it runs in-process).
import { execute, parse } from 'graphql';
import type { Client } from 'graphql-ws';
import type { Page } from 'playwright-core';
import type { GatewayContext } from '../schema/context.js';
import { buildSchema } from '../schema/index.js';
import type { RunningGateway } from '../test/helpers/gateway.js';
import { ENGINE_GLOBAL } from '../transports/page-engine/snapshot/install.js';
import { gql, median, SNAPSHOT_LEAN } from './snapshot-client.js';
import { summarise } from './stats.js';

/** The first walk of a document installs the walker and hands out every ref: not timed. */
const WARMUP = 1;

/**
 * Where the time of a full `{ ref role name }` snapshot goes, measured on the gateway's own objects (it runs
 * in this process), each step interleaved with the others in every run: the in-page walk alone (timed in the
 * page), the driver's read (walk + CDP transfer + JSON.parse + decode), reconciliation into the ref store,
 * in-process GraphQL execution (read + reconcile + resolvers + completion), the result's JSON.stringify, and
 * the same query over graphql-ws. Also: what one CDP evaluate round trip costs on that page right now (the
 * unit of the click and expect overheads), and a CPU profile of one walk by function.
 */
export async function profileSnapshot(
  gateway: RunningGateway,
  client: Client,
  s: string,
  n: number,
): Promise<string> {
  const session = gateway.gateway.sessions.get(s);
  const { window: sessionWindow, driver } = await session.window();
  const page = (driver as unknown as { page?: Page }).page;
  if (!page) throw new Error('the window driver has no Playwright page');
  const schema = buildSchema();
  const document = parse(SNAPSHOT_LEAN);
  const contextValue: GatewayContext = { sessions: gateway.gateway.sessions, hub: gateway.gateway.hub };
  const walkInPage = () =>
    page.evaluate(
      ({ global }) => {
        const engine = (window as unknown as Record<string, { walker: { snapshot(r: object): string } }>)[
          global
        ];
        if (!engine) return null;
        const begun = performance.now();
        const json = engine.walker.snapshot({ bounds: false });
        return { ms: performance.now() - begun, chars: json.length };
      },
      { global: ENGINE_GLOBAL },
    );
  const samples = {
    walk: [] as number[],
    read: [] as number[],
    reconcile: [] as number[],
    execute: [] as number[],
    stringify: [] as number[],
    ws: [] as number[],
  };
  let walkChars = 0;
  for (let i = -WARMUP; i < n; i += 1) {
    const inPage = await walkInPage();
    if (!inPage) throw new Error('the snapshot engine is not installed in the page');
    let started = performance.now();
    const raw = await driver.snapshot({ bounds: false });
    const readMs = performance.now() - started;
    started = performance.now();
    session.snapshots.recordNow(sessionWindow.id, raw, {});
    const reconcileMs = performance.now() - started;
    started = performance.now();
    const result = await execute({ schema, document, variableValues: { s }, contextValue });
    const executeMs = performance.now() - started;
    if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
    started = performance.now();
    JSON.stringify(result);
    const stringifyMs = performance.now() - started;
    const ws = await gql(client, SNAPSHOT_LEAN, { s });
    if (i < 0) continue;
    walkChars = inPage.chars;
    samples.walk.push(inPage.ms);
    samples.read.push(readMs);
    samples.reconcile.push(reconcileMs);
    samples.execute.push(executeMs);
    samples.stringify.push(stringifyMs);
    samples.ws.push(ws.ms);
  }
  const m = {
    walk: median(samples.walk),
    read: median(samples.read),
    reconcile: median(samples.reconcile),
    execute: median(samples.execute),
    stringify: median(samples.stringify),
    ws: median(samples.ws),
  };
  const roundTrips: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    const started = performance.now();
    await page.evaluate(() => 0);
    roundTrips.push(performance.now() - started);
  }
  const parts: [string, number][] = [
    ['in-page walk (page clock)', m.walk],
    ['CDP transfer + JSON.parse + decode (driver read − walk)', m.read - m.walk],
    ['reconciliation (RefStore.record)', m.reconcile],
    ['GraphQL resolvers + completion (execute − read − reconcile)', m.execute - m.read - m.reconcile],
    ['JSON.stringify of the result', m.stringify],
    ['graphql-ws wire + client parse (ws − execute − stringify)', m.ws - m.execute - m.stringify],
  ];
  const hot = await walkHotspots(page, walkInPage).catch(
    (error: unknown) => `CPU profile unavailable: ${error}`,
  );
  return [
    '| part | median ms | share of ws total |',
    '|---|---|---|',
    ...parts.map(([name, ms]) => `| ${name} | ${ms.toFixed(1)} | ${((100 * ms) / m.ws).toFixed(0)}% |`),
    `| **ws total** (same runs) | ${m.ws.toFixed(1)} | 100% |`,
    '',
    `n=${n}; walker output ${walkChars.toLocaleString('en')} chars; one CDP evaluate round trip on this page: median ${median(roundTrips).toFixed(2)} ms, p95 ${summarise(roundTrips).p95.toFixed(2)} ms (n=30).`,
    '',
    hot,
  ].join('\n');
}

/** Self time by function over one in-page walk, from Chromium's sampling profiler. */
async function walkHotspots(page: Page, walk: () => Promise<unknown>): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await walk();
    const { profile } = await cdp.send('Profiler.stop');
    const interval = profile.samples?.length
      ? (profile.endTime - profile.startTime) / 1_000 / profile.samples.length
      : 0;
    const selfMs = new Map<string, number>();
    for (const node of profile.nodes) {
      const frame = node.callFrame;
      const name = frame.functionName || '(anonymous)';
      selfMs.set(name, (selfMs.get(name) ?? 0) + (node.hitCount ?? 0) * interval);
    }
    const total = [...selfMs.values()].reduce((sum, x) => sum + x, 0);
    const top = [...selfMs.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    return `CPU profile of one walk (self time, ${total.toFixed(0)} ms sampled): ${top
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms (${((100 * ms) / total).toFixed(0)}%)`)
      .join('; ')}.`;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
