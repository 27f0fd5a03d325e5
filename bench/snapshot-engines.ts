// Snapshot engines compared on the same page in one headless Chromium: our in-page walker (full and
// interactive-only), Playwright's aria snapshot, and Chromium's own accessibility tree over CDP. Each is
// timed end to end as a caller sees it (evaluate + transfer + parse), on a table page of 100, 1,000 and
// 5,000 rows (bench/table-page.ts). This is the evidence for choosing the snapshot engine by measurement.
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { snapshotDocument } from '../transports/page-engine/snapshot/page-snapshot.js';
import { type Summary, time } from './stats.js';
import { tablePageHtml } from './table-page.js';

const SIZES = [100, 1_000, 5_000] as const;
/** Timed runs per engine and size; the largest page takes seconds per run in the slower engines. */
const RUNS: Record<(typeof SIZES)[number], number> = {
  100: Number(process.env.BENCH_SNAPSHOT_RUNS ?? 30),
  1000: Number(process.env.BENCH_SNAPSHOT_RUNS ?? 15),
  5000: Number(process.env.BENCH_SNAPSHOT_RUNS ?? 9),
};
/** Untimed runs first: the first snapshot of a document also installs the walker and hands out keys. */
const WARMUP = 2;

interface Measured {
  readonly summary: Summary;
  readonly nodes: number;
  readonly chars: number;
}

async function measure(
  runs: number,
  take: () => Promise<{ nodes: number; chars: number }>,
): Promise<Measured> {
  let last = { nodes: 0, chars: 0 };
  const summary = await time(
    runs,
    async () => {
      last = await take();
    },
    WARMUP,
  );
  return { summary, ...last };
}

type Take = (page: Page) => Promise<{ nodes: number; chars: number }>;

const browser = await launchChromium();
try {
  const lines: string[] = [];
  for (const rows of SIZES) {
    const runs = RUNS[rows];
    const engines: [string, Take][] = [
      [
        'snapshotDocument (full)',
        async (page) => {
          const snapshot = await snapshotDocument(page, {});
          return { nodes: snapshot.nodes.length, chars: JSON.stringify(snapshot).length };
        },
      ],
      [
        'snapshotDocument (interactiveOnly)',
        async (page) => {
          const snapshot = await snapshotDocument(page, { interactiveOnly: true });
          return { nodes: snapshot.nodes.length, chars: JSON.stringify(snapshot).length };
        },
      ],
      [
        "Playwright locator('body').ariaSnapshot()",
        async (page) => {
          const yaml = await page.locator('body').ariaSnapshot({ timeout: 120_000 });
          return { nodes: yaml.split('\n').length, chars: yaml.length };
        },
      ],
      [
        'CDP Accessibility.getFullAXTree',
        async (page) => {
          const cdp = await page.context().newCDPSession(page);
          const tree = await cdp.send('Accessibility.getFullAXTree');
          await cdp.detach();
          return { nodes: tree.nodes.length, chars: JSON.stringify(tree).length };
        },
      ],
    ];
    for (const [name, take] of engines) {
      // A page of its own per engine: once Chromium's accessibility tree is on, every DOM read in the page
      // pays for keeping it current, which would tax whichever engine ran after the CDP one.
      const page = await browser.newPage();
      await page.setContent(tablePageHtml(rows));
      const { summary, nodes, chars } = await measure(runs, () => take(page));
      await page.close();
      const line = `| ${rows} | ${name} | ${summary.n} | ${summary.median.toFixed(1)} | ${summary.p95.toFixed(1)} | ${nodes} | ${chars} |`;
      lines.push(line);
      console.error(line);
    }
  }
  console.log('## Snapshot engines (table page)\n');
  console.log('| rows | engine | n | median ms | p95 ms | nodes (aria: lines) | output chars |');
  console.log('|---|---|---|---|---|---|---|');
  for (const line of lines) console.log(line);
} finally {
  await browser.close();
}
