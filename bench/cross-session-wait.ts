// How long one session's operation can wait for the gateway's thread while another session reads a 5,000-row
// page (issue 18: "operations on one session never wait on another's work"). One in-process gateway; session A
// (bench/table-app.ts, 5,000 rows) is read over and over by its own graphql-ws client, selecting only
// `totalNodes` so every read does the gateway's whole share (walk, transfer, decode, reconcile, ref store)
// while its answer stays small; a second client meanwhile asks a query that never reaches a renderer, every
// PROBE_GAP_MS. The probe's latency alone, beside full walks (the in-page model off, as on a page's first
// read) and beside repeated reads the model answers is reported with the event loop's delay in each phase.
// Run: `npx tsx bench/cross-session-wait.ts`; BENCH_PHASE_MS (default 8000) sets each phase's length.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import { INCREMENTAL_SWITCH } from '../transports/page-engine/snapshot/snapshot-cache.js';
import { gql, STOP } from './snapshot-client.js';
import { percentile } from './stats.js';
import { writeTableApp } from './table-app.js';
import { launchTableAppThroughGateway } from './table-app-session.js';

const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 8_000);
const PROBE_GAP_MS = 5;
const ROWS = 5_000;
const READ = 'query ($s: ID) { session(id: $s) { window { snapshot { totalNodes } } } }';

interface PhaseFigures {
  readonly what: string;
  readonly probes: readonly number[];
  readonly reads: number;
  /** The event loop's delay over the phase, p99 and max, ms. */
  readonly loopDelay: readonly [number, number];
}

const app = await writeTableApp(ROWS);
const gateway = await startGateway({
  auditDir: mkdtempSync(join(tmpdir(), 'stagegraph-bench-cross-session-')),
  mutationsPerSecond: 10_000,
});
const reader = wsClient(gateway.wsUrl);
const prober = wsClient(gateway.wsUrl);
const phases: PhaseFigures[] = [];
let session: string | undefined;
try {
  session = await launchTableAppThroughGateway(reader, app.main);
  const s = session;
  const probe = `{ session(id: "${s}") { id status } }`;
  await gql(reader, READ, { s });

  /** Probes for PHASE_MS while `background` runs (if any), with the event loop's delay over that time. */
  const phase = async (what: string, background?: () => Promise<unknown>): Promise<void> => {
    let running = background !== undefined;
    let reads = 0;
    const loop = (async () => {
      while (running && background) {
        await background();
        reads += 1;
      }
    })();
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const probes: number[] = [];
    const end = performance.now() + PHASE_MS;
    while (performance.now() < end) {
      const started = performance.now();
      await gql(prober, probe);
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
    }
    delay.disable();
    running = false;
    await loop;
    const ms = (ns: number) => ns / 1e6;
    phases.push({ what, probes, reads, loopDelay: [ms(delay.percentile(99)), ms(delay.max)] });
  };

  await phase('alone');
  process.env[INCREMENTAL_SWITCH] = '0';
  await phase(`beside full walks of session A (${ROWS} rows, the model off)`, () => gql(reader, READ, { s }));
  delete process.env[INCREMENTAL_SWITCH];
  await gql(reader, READ, { s });
  await phase('beside repeated reads of session A that its model answers', () => gql(reader, READ, { s }));
} finally {
  if (session) await gql(reader, STOP, { id: session }).catch(() => undefined);
  await reader.dispose();
  await prober.dispose();
  await gateway.stop();
  await app.remove();
}

console.log(
  `## A gateway-only query beside another session's ${ROWS}-row reads (node ${process.version}, ${PHASE_MS} ms a phase)\n`,
);
console.log('| probe query | n | p50 ms | p99 ms | max ms | reads of A | event-loop delay p99 / max ms |');
console.log('|---|---|---|---|---|---|---|');
for (const { what, probes, reads, loopDelay } of phases) {
  const at = (q: number) => percentile(probes, q).toFixed(2);
  console.log(
    `| ${what} | ${probes.length} | ${at(0.5)} | ${at(0.99)} | ${Math.max(...probes).toFixed(1)} | ${reads} | ${loopDelay[0].toFixed(1)} / ${loopDelay[1].toFixed(1)} |`,
  );
}
