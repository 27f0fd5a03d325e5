// Reconciling the 5,000-row bench page (50,002 nodes) in the ref store: the cost a snapshot adds on top of
// the walker. Three cases: a first snapshot (every ref fresh), an unchanged re-snapshot (every key known),
// and a whole re-render (every key new, every old one detached: every ref re-paired by fingerprint).

import { RECENT_SNAPSHOTS_PER_WINDOW, RefStore } from '../domain/snapshot/ref-store.js';
import { tablePage } from '../test/helpers/fabricated-snapshots.js';
import type { RawSnapshot } from '../transports/contract/window-driver.js';
import { collectGarbage } from './collect-garbage.js';
import { HEADER, row, summarise, time } from './stats.js';

const N = Number(process.env.BENCH_N ?? 30);
const ROWS = 5_000;
const WARMUP = 5;

const page = tablePage(ROWS);
const size = page.nodes.length;
const rerendered = tablePage(ROWS, { firstKey: size + 1, detached: page.nodes.map((node) => node.key) });

const first = await time(N, async () => new RefStore('s1').recordNow('w1', page), WARMUP);

const steady = new RefStore('s1');
steady.recordNow('w1', page);
const unchanged = await time(N, async () => steady.recordNow('w1', page), WARMUP);

// Each sample needs a store that has seen `page` and not yet the re-render, prepared outside the timing.
const rerenderSamples: number[] = [];
for (let i = 0; i < WARMUP + N; i += 1) {
  const store = new RefStore('s1');
  store.recordNow('w1', page);
  const started = performance.now();
  store.recordNow('w1', rerendered);
  if (i >= WARMUP) rerenderSamples.push(performance.now() - started);
}
const rerender = summarise(rerenderSamples);

console.log(`## Ref store: reconcile a ${size}-node snapshot (node ${process.version})\n\n${HEADER}`);
console.log(row('first snapshot (all refs fresh)', first));
console.log(row('unchanged re-snapshot (all keys known)', unchanged, first));
console.log(row('whole re-render (all refs re-paired)', rerender, first));

// What a window's kept snapshots hold, and what a full collection pays for them: RECENT_SNAPSHOTS_PER_WINDOW
// whole passes of the page, each from a fresh walk (new raw objects, as the transport decodes them), against
// one pass. Unchanged nodes are shared with the last snapshot, so an unchanged page is held about once.
function retainedAfter(passes: number, pageAt: (pass: number) => RawSnapshot): { mb: number; gcMs: number } {
  collectGarbage();
  const base = process.memoryUsage().heapUsed;
  const store = new RefStore('s1');
  for (let pass = 0; pass < passes; pass += 1) store.recordNow('w1', pageAt(pass));
  collectGarbage();
  const mb = (process.memoryUsage().heapUsed - base) / 2 ** 20;
  const started = performance.now();
  collectGarbage();
  const gcMs = performance.now() - started;
  // Held until here, so the collections above find it live.
  if (!store.last('w1')) throw new Error('no snapshot kept');
  return { mb, gcMs };
}
const fresh = () => tablePage(ROWS);
const oneRowChecked = (pass: number) => tablePage(ROWS, { checkedRows: [pass] });
const memory = [
  ['1 whole pass', retainedAfter(1, fresh)],
  [
    `${RECENT_SNAPSHOTS_PER_WINDOW} whole passes, page unchanged`,
    retainedAfter(RECENT_SNAPSHOTS_PER_WINDOW, fresh),
  ],
  [
    `${RECENT_SNAPSHOTS_PER_WINDOW} whole passes, one row changed each`,
    retainedAfter(RECENT_SNAPSHOTS_PER_WINDOW, oneRowChecked),
  ],
] as const;
console.log(`\n## Ref store: heap a window's kept snapshots hold (${size} nodes each)\n`);
console.log('| kept | heap retained MB | forced full collection ms |\n|---|---|---|');
for (const [what, { mb, gcMs }] of memory) console.log(`| ${what} | ${mb.toFixed(1)} | ${gcMs.toFixed(1)} |`);
