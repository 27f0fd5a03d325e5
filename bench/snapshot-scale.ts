// Speed at scale (issue 18), full snapshot: the gateway's `snapshot { nodes { ref role name } }` of the table
// page (bench/table-app.ts on the Electron-API stand-in) over graphql-ws, against Playwright's
// `page.ariaSnapshot({ mode: 'ai' })` of the same page in a second app launched directly with `_electron.launch`
// (the reference), alternating the two so both share the machine's noise. Per size it also splits one read
// into its parts on the gateway's own objects (it runs in this process): the in-page walk, the driver's read
// (walk + CDP transfer + decode), RefStore.record and in-process GraphQL execution.
// Run: `npx tsx bench/snapshot-scale.ts`; BENCH_SIZES=100,1000 limits sizes; BENCH_SCALE_RUNS and
// BENCH_SCALE_ARIA_RUNS override the timed runs per size (gateway, reference).
import { parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Client } from 'graphql-ws';
import type { Page } from 'playwright-core';
import type { GatewayContext } from '../schema/context.js';
import { buildSchema } from '../schema/index.js';
import type { RunningGateway } from '../test/helpers/gateway.js';
import { ENGINE_GLOBAL } from '../transports/page-engine/snapshot/install.js';
import { gql, SNAPSHOT_LEAN, type SnapshotData } from './snapshot-client.js';
import { type Summary, summarise } from './stats.js';
import { measureTableSizes } from './table-app-session.js';
import { runsPerSize, SIZES, type TableSize } from './table-sizes.js';

// Every read here is a full walk: the in-page model (snapshot-cache.ts) would answer a repeated read of an
// unchanged page from what it kept, and that is the incremental bench's measure, not this one's.
process.env.STAGEGRAPH_INCREMENTAL_SNAPSHOT = '0';

const GATEWAY_RUNS = runsPerSize('BENCH_SCALE_RUNS', { 100: 21, 1000: 11, 5000: 9 });
/** The 5,000-row aria snapshot takes seconds a run: fewer of those. */
const ARIA_RUNS = runsPerSize('BENCH_SCALE_ARIA_RUNS', { 100: 9, 1000: 5, 5000: 3 });
/** The first read of a document installs the walker and hands out every ref: not timed. */
const WARMUP = 2;
/** Issue 18's targets for the 5,000-row page. */
const TARGET_MS = 400;
const TARGET_RATIO = 0.1;

interface SizeResult {
  readonly rows: TableSize;
  readonly nodes: number;
  readonly chars: number;
  readonly gateway: Summary;
  readonly aria: Summary;
  readonly ariaChars: number;
  readonly ariaFailed: string | undefined;
  readonly parts: string;
}

/** One read split into its parts, on the gateway's objects (medians over `n` runs). */
async function parts(gateway: RunningGateway, s: string, n: number): Promise<string> {
  const session = gateway.gateway.sessions.get(s);
  const { window: sessionWindow, driver } = await session.window();
  const page = (driver as unknown as { page?: Page }).page;
  if (!page) return 'parts unavailable: the window driver has no Playwright page';
  const schema = buildSchema();
  // Compiled as the gateway compiles queries (server/compiled-queries.ts).
  const compiled = compileQuery(schema, parse(SNAPSHOT_LEAN));
  if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled.errors));
  const contextValue: GatewayContext = { sessions: gateway.gateway.sessions, hub: gateway.gateway.hub };
  const samples = {
    walk: [] as number[],
    read: [] as number[],
    record: [] as number[],
    execute: [] as number[],
  };
  let chars = 0;
  for (let i = -1; i < n; i += 1) {
    const inPage = await page.evaluate(
      ({ global }) => {
        const engine = (window as unknown as Record<string, { walker: { snapshot(r: object): string } }>)[
          global
        ];
        const begun = performance.now();
        const out = engine?.walker.snapshot({ bounds: false }) ?? '';
        return { ms: performance.now() - begun, chars: out.length };
      },
      { global: ENGINE_GLOBAL },
    );
    let started = performance.now();
    const raw = await driver.snapshot({ bounds: false });
    const readMs = performance.now() - started;
    started = performance.now();
    session.snapshots.recordNow(sessionWindow.id, raw, { bounds: false });
    const recordMs = performance.now() - started;
    started = performance.now();
    const result = await compiled.query(undefined, contextValue, { s });
    const executeMs = performance.now() - started;
    if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
    if (i < 0) continue;
    chars = inPage.chars;
    samples.walk.push(inPage.ms);
    samples.read.push(readMs);
    samples.record.push(recordMs);
    samples.execute.push(executeMs);
  }
  const m = (xs: number[]) => summarise(xs).median;
  const walk = m(samples.walk);
  const read = m(samples.read);
  const record = m(samples.record);
  const executed = m(samples.execute);
  return (
    `walk ${walk.toFixed(0)} ms (page clock, ${chars.toLocaleString('en')} chars out); ` +
    `transfer + decode ${(read - walk).toFixed(0)} ms; RefStore.record ${record.toFixed(0)} ms; ` +
    `GraphQL execute (read + record + resolvers) ${executed.toFixed(0)} ms (n=${n})`
  );
}

async function benchSize(rows: TableSize, gateway: RunningGateway, client: Client, s: string, page: Page) {
  const gatewayMs: number[] = [];
  const ariaMs: number[] = [];
  let nodes = 0;
  let chars = 0;
  let ariaChars = 0;
  let ariaFailed: string | undefined;
  for (let i = -WARMUP; i < GATEWAY_RUNS[rows]; i += 1) {
    const reply = await gql<SnapshotData>(client, SNAPSHOT_LEAN, { s });
    // The reference's runs are spread over the gateway's, so both see the same stretch of load.
    const ariaTurn = i < 0 || Math.floor(((i + 1) * ARIA_RUNS[rows]) / GATEWAY_RUNS[rows]) > ariaMs.length;
    let ariaTaken = -1;
    if (ariaTurn && ariaMs.length < ARIA_RUNS[rows] && !ariaFailed) {
      const started = performance.now();
      // A reference that times out on a swamped machine leaves the gateway's own figures standing.
      const aria = await page.ariaSnapshot({ mode: 'ai', timeout: 300_000 }).catch((error: unknown) => {
        ariaFailed = String(error).split('\n')[0] ?? 'failed';
        return null;
      });
      if (aria !== null) {
        ariaTaken = performance.now() - started;
        ariaChars = aria.length;
      }
    }
    if (i < 0) continue;
    gatewayMs.push(reply.ms);
    if (ariaTaken >= 0) ariaMs.push(ariaTaken);
    nodes = reply.data.session.window.snapshot.nodes.length;
    chars = reply.chars;
  }
  return {
    rows,
    nodes,
    chars,
    gateway: summarise(gatewayMs),
    aria: summarise(ariaMs),
    ariaChars,
    ariaFailed,
    parts: await parts(gateway, s, 3).catch((error: unknown) => `parts unavailable: ${String(error)}`),
  };
}

function report(results: readonly SizeResult[]): string {
  const lines = [
    '| rows | what | n | median ms | p95 ms | vs aria ai (median) | response chars | target | |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const ratio = r.gateway.median / r.aria.median;
    const big = r.rows === 5_000;
    const verdict = (ok: boolean) => (ok ? '**PASS**' : '**MISS**');
    lines.push(
      `| ${r.rows.toLocaleString('en')} | gateway \`snapshot { nodes { ref role name } }\` (${r.nodes.toLocaleString('en')} nodes) | ${r.gateway.n} | ${r.gateway.median.toFixed(1)} | ${r.gateway.p95.toFixed(1)} | ${ratio.toFixed(3)}x | ${r.chars.toLocaleString('en')} | ${big ? `<= ${TARGET_MS} ms; <= ${TARGET_RATIO}x` : ''} | ${big ? `${verdict(r.gateway.median <= TARGET_MS)}; ${verdict(ratio <= TARGET_RATIO)}` : ''} |`,
      `| ${r.rows.toLocaleString('en')} | Playwright \`page.ariaSnapshot({ mode: 'ai' })\`${r.ariaFailed ? ` (stopped: ${r.ariaFailed})` : ''} | ${r.aria.n} | ${r.aria.median.toFixed(1)} | ${r.aria.p95.toFixed(1)} | reference | ${r.ariaChars.toLocaleString('en')} | | |`,
    );
  }
  lines.push('', 'Parts of one gateway read (in-process, medians):', '');
  for (const r of results) lines.push(`- ${r.rows.toLocaleString('en')} rows: ${r.parts}`);
  return lines.join('\n');
}

const benchStarted = performance.now();
const { results, failures } = await measureTableSizes(SIZES, (sides) =>
  benchSize(sides.rows, sides.gateway, sides.client, sides.session, sides.reference),
);

console.log(
  `### Full snapshot — node ${process.version}, ${new Date().toISOString()}, whole run ${((performance.now() - benchStarted) / 1_000).toFixed(0)} s\n`,
);
if (failures.length > 0) console.log(`${failures.join('\n')}\n`);
console.log(report(results));
