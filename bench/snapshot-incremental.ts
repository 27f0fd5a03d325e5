// Speed at scale (issue 18), incremental snapshot: on the table page (bench/table-app.ts on the Electron-API
// stand-in), through an in-process gateway over graphql-ws, the read `snapshot(since: "LAST") { diff { ... } }`
// repeated with no change, and right after one row changed (a row's Edit button, clicked through the gateway,
// rewrites that row's customer cell), at 100, 1,000 and 5,000 rows; and what a repeated full
// `snapshot { nodes { ref role name } }` costs. The same reads with the in-page model switched off (every read
// a full walk, STAGEGRAPH_INCREMENTAL_SNAPSHOT=0) are the in-run reference; the two run as separate blocks per
// size, since a full read between two modelled ones makes the next one reconcile the whole page.
// Run: `npx tsx bench/snapshot-incremental.ts`; BENCH_SIZES=100,1000 limits sizes; BENCH_INCREMENTAL_RUNS
// overrides the timed runs per measure with the model on (the reference takes a third as many).
import type { Client } from 'graphql-ws';
import { INCREMENTAL_SWITCH } from '../transports/page-engine/snapshot/snapshot-cache.js';
import {
  type DiffData,
  gql,
  type Node,
  SINCE_LAST,
  SNAPSHOT_LEAN,
  type SnapshotData,
} from './snapshot-client.js';
import { type Summary, summarise } from './stats.js';
import { measureTableSizesThroughGateway } from './table-app-session.js';
import { SIZES } from './table-sizes.js';

const RUNS = Number(process.env.BENCH_INCREMENTAL_RUNS ?? 30);
const REFERENCE_RUNS = Math.max(3, Math.round(RUNS / 3));
/** Full `{ ref role name }` reads per block: seconds each at 5,000 rows. */
const FULL_RUNS = 5;
/** Issue 18's targets at 5,000 rows. */
const TARGET_UNCHANGED_MS = 20;
const TARGET_ONE_ROW_MS = 30;
/** The click that changes one row: a 5,000-row page on a loaded machine outlasts the default 5 s wait. */
const CLICK =
  'mutation ($s: ID, $ref: ID!) { click(session: $s, target: { ref: $ref }, timeoutMs: 60000) { elapsedMs } }';

interface DiffReply {
  session: { window: { snapshot: { diff: DiffData } } };
}

interface Block {
  readonly unchanged: Summary;
  readonly oneRow: Summary;
  readonly full: Summary;
  /** The one-row diff's counts (+added −removed ~changed), the same in every run. */
  readonly counts: string;
}

async function block(client: Client, s: string, rows: number, runs: number, model: boolean): Promise<Block> {
  if (model) delete process.env[INCREMENTAL_SWITCH];
  else process.env[INCREMENTAL_SWITCH] = '0';
  const full: number[] = [];
  let nodes: Node[] = [];
  for (let i = 0; i < FULL_RUNS; i += 1) {
    const reply = await gql<SnapshotData>(client, SNAPSHOT_LEAN, { s });
    full.push(reply.ms);
    nodes = reply.data.session.window.snapshot.nodes;
  }
  const buttons = nodes.filter((node) => node.role === 'button' && node.name === 'Edit');
  // One untimed read: the next one's base is this block's own read.
  await gql(client, SINCE_LAST, { s });
  const unchanged: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const reply = await gql<DiffReply>(client, SINCE_LAST, { s });
    const { diff } = reply.data.session.window.snapshot;
    if (diff.added.length + diff.removed.length + diff.changed.length > 0)
      throw new Error(`[${rows} rows] a repeated read with no change answered a non-empty diff`);
    unchanged.push(reply.ms);
  }
  const oneRow: number[] = [];
  let counts = '';
  for (let i = 0; i < runs; i += 1) {
    const button = buttons[Math.floor(((i + 0.5) * buttons.length) / runs)] as Node;
    await gql(client, CLICK, { s, ref: button.ref });
    const reply = await gql<DiffReply>(client, SINCE_LAST, { s });
    const { diff } = reply.data.session.window.snapshot;
    counts = `+${diff.added.length} −${diff.removed.length} ~${diff.changed.length}`;
    if (diff.added.length + diff.removed.length > 0 || diff.changed.length === 0)
      throw new Error(`[${rows} rows] one row's edit read as ${counts}`);
    oneRow.push(reply.ms);
  }
  return {
    unchanged: summarise(unchanged),
    oneRow: summarise(oneRow),
    full: summarise(full.slice(1)),
    counts,
  };
}

const fmt = (ms: number) => ms.toFixed(1);
const verdict = (median: number, target: number) => (median <= target ? '**PASS**' : '**MISS**');

const started = performance.now();
const { results, failures } = await measureTableSizesThroughGateway(
  SIZES,
  async ({ rows, client, session }) => {
    console.error(`[${rows} rows] model on`);
    const on = await block(client, session, rows, RUNS, true);
    console.error(`[${rows} rows] model off`);
    const off = await block(client, session, rows, REFERENCE_RUNS, false);
    const big = rows === 5_000;
    const size = rows.toLocaleString('en');
    const ratio = (a: Summary, b: Summary) => `${(a.median / b.median).toFixed(3)}x`;
    return [
      `| ${size} | repeated \`since: LAST\`, no change | ${on.unchanged.n} | ${fmt(on.unchanged.median)} | ${fmt(on.unchanged.p95)} | ${fmt(off.unchanged.median)} (${off.unchanged.n}) | ${ratio(on.unchanged, off.unchanged)} | ${big ? `<= ${TARGET_UNCHANGED_MS} ms | ${verdict(on.unchanged.median, TARGET_UNCHANGED_MS)}` : ' | '} |`,
      `| ${size} | \`since: LAST\` after one row changed (${on.counts}) | ${on.oneRow.n} | ${fmt(on.oneRow.median)} | ${fmt(on.oneRow.p95)} | ${fmt(off.oneRow.median)} (${off.oneRow.n}) | ${ratio(on.oneRow, off.oneRow)} | ${big ? `<= ${TARGET_ONE_ROW_MS} ms | ${verdict(on.oneRow.median, TARGET_ONE_ROW_MS)}` : ' | '} |`,
      `| ${size} | repeated full \`nodes { ref role name }\` | ${on.full.n} | ${fmt(on.full.median)} | ${fmt(on.full.p95)} | ${fmt(off.full.median)} (${off.full.n}) | ${ratio(on.full, off.full)} |  |  |`,
    ];
  },
);
const lines = [...results.flat(), ...failures.map((failure) => `| ${failure} | | | | | | | |`)];

console.log(
  `### Incremental snapshot — node ${process.version}, ${new Date().toISOString()}, whole run ${((performance.now() - started) / 1_000).toFixed(0)} s\n`,
);
console.log(
  '| rows | read over graphql-ws | n | median ms | p95 ms | model off: median ms (n) | on / off | target | |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const line of lines) console.log(line);
