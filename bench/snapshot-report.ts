// The report of bench/snapshot.ts: targets, per-size results and the Markdown tables for bench/RESULTS.md.
import { DIFF_SELECTION, NODE_ALL_FIELDS } from './snapshot-client.js';
import type { Summary } from './stats.js';
import { DELAYED_UPDATE_MS } from './table-app.js';

export const TARGETS = {
  fullSnapshotMs: 400,
  interactiveRatio: 0.3,
  diffRatio: 0.01,
  expectLatencyMs: 20,
  clickRatio: 1.15,
};

export interface Sized {
  readonly summary: Summary;
  readonly chars: number;
}

export interface SizeResult {
  readonly rows: number;
  readonly nodes: number;
  readonly interactiveNodes: number;
  readonly lean: Sized;
  readonly all: Sized;
  readonly interactive: Sized;
  readonly interactiveAliasedChars: number;
  /** The same listing as `outline` text. */
  readonly interactiveOutlineChars: number;
  readonly aria: Sized;
  readonly diff: {
    readonly fullChars: number;
    readonly sinceLast: Sized;
    readonly counts: string;
    readonly clickDiff: Sized;
    readonly clickCounts: string;
  };
  readonly expect: {
    readonly gateway: Summary;
    readonly brief: Summary;
    readonly reference: Summary;
    readonly excluded: number;
  };
  readonly click: { readonly gateway: Summary; readonly server: Summary; readonly direct: Summary };
  readonly profile: string;
}

const ms = (value: number) => value.toFixed(1);
const chars = (value: number) => value.toLocaleString('en');
const verdict = (pass: boolean) => (pass ? '**PASS**' : '**MISS**');

export function report(results: readonly SizeResult[]): string {
  const out: string[] = [];
  out.push(
    '### 1. Full snapshot: time and response size (gateway over graphql-ws vs Playwright aria snapshot)',
    '',
    '| rows | what | n | median ms | p95 ms | vs aria (median) | response chars | target | |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const line = (what: string, x: Sized, target = '', pass?: boolean) =>
      `| ${chars(r.rows)} | ${what} | ${x.summary.n} | ${ms(x.summary.median)} | ${ms(x.summary.p95)} | ${
        x === r.aria ? 'reference' : `${(x.summary.median / r.aria.summary.median).toFixed(2)}x`
      } | ${chars(x.chars)} | ${target} | ${pass === undefined ? '' : verdict(pass)} |`;
    const bounded = r.rows === 5_000;
    out.push(
      line(
        `snapshot { nodes { ref role name } } (${chars(r.nodes)} nodes)`,
        r.lean,
        bounded ? `<= ${TARGETS.fullSnapshotMs} ms` : '',
        bounded ? r.lean.summary.median <= TARGETS.fullSnapshotMs : undefined,
      ),
      line('snapshot, every node field', r.all),
      line("locator('body').ariaSnapshot()", r.aria),
    );
  }
  out.push(
    '',
    `Every node field = \`${NODE_ALL_FIELDS}\`.`,
    '',
    '### 2. Interactive-only listing size (`snapshot(interactiveOnly: true) { nodes { ref role name } }`)',
    '',
    '| rows | nodes | listing ms (median) | listing chars | aria snapshot chars | ratio | target | | with aliases `{ r: ref o: role n: name }` | as `outline` text |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const ratio = r.interactive.chars / r.aria.chars;
    out.push(
      `| ${chars(r.rows)} | ${chars(r.interactiveNodes)} | ${ms(r.interactive.summary.median)} | ${chars(r.interactive.chars)} | ${chars(r.aria.chars)} | ${ratio.toFixed(3)}x | <= ${TARGETS.interactiveRatio}x | ${verdict(ratio <= TARGETS.interactiveRatio)} | ${chars(r.interactiveAliasedChars)} (${(r.interactiveAliasedChars / r.aria.chars).toFixed(3)}x) | ${chars(r.interactiveOutlineChars)} (${(r.interactiveOutlineChars / r.aria.chars).toFixed(3)}x) |`,
    );
  }
  out.push(
    '',
    "### 3. Diff after one click (a row's Edit button; its handler rewrites that row's customer cell)",
    '',
    '| rows | full snapshot chars | `since: "LAST"` diff chars (+added −removed ~changed) | ratio | target | | diff query ms (median, n) | click `{ target diff }` chars | click+diff ms (median) |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const d = r.diff;
    const ratio = d.sinceLast.chars / d.fullChars;
    out.push(
      `| ${chars(r.rows)} | ${chars(d.fullChars)} | ${chars(d.sinceLast.chars)} (${d.counts}) | ${(100 * ratio).toFixed(3)}% | <= ${100 * TARGETS.diffRatio}% | ${verdict(ratio <= TARGETS.diffRatio)} | ${ms(d.sinceLast.summary.median)} (${d.sinceLast.summary.n}) | ${chars(d.clickDiff.chars)} (${d.clickCounts}) | ${ms(d.clickDiff.summary.median)} |`,
    );
  }
  out.push(
    '',
    `Diff selection: \`${DIFF_SELECTION}\`; full snapshot = the \`{ ref role name }\` response.`,
    '',
    '### 4. `expect(kind: TEXT, equals)` latency from the DOM change to the result at the client',
    '',
    '| rows | what | n | median ms | p95 ms | target | |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const e = r.expect;
    out.push(
      `| ${chars(r.rows)} | gateway expect over ws: result received − page stamp${e.excluded ? ` (${e.excluded} runs excluded: armed late)` : ''} | ${e.gateway.n} | ${ms(e.gateway.median)} | ${ms(e.gateway.p95)} | <= ${TARGETS.expectLatencyMs} ms | ${verdict(e.gateway.median <= TARGETS.expectLatencyMs)} |`,
      `| ${chars(r.rows)} | same runs, coarse: result received − click sent − ${DELAYED_UPDATE_MS} ms | ${e.brief.n} | ${ms(e.brief.median)} | ${ms(e.brief.p95)} | | |`,
      `| ${chars(r.rows)} | reference: page MutationObserver resolving a Playwright evaluate | ${e.reference.n} | ${ms(e.reference.median)} | ${ms(e.reference.p95)} | | |`,
    );
  }
  out.push(
    '',
    '### 5. Click on the same row button: gateway over graphql-ws vs direct Playwright `locator.click()`',
    '',
    '| rows | n | gateway median ms | gateway p95 ms | server elapsedMs median | direct median ms | direct p95 ms | ratio | target | |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const c = r.click;
    const ratio = c.gateway.median / c.direct.median;
    out.push(
      `| ${chars(r.rows)} | ${c.gateway.n} | ${ms(c.gateway.median)} | ${ms(c.gateway.p95)} | ${ms(c.server.median)} | ${ms(c.direct.median)} | ${ms(c.direct.p95)} | ${ratio.toFixed(2)}x | <= ${TARGETS.clickRatio}x | ${verdict(ratio <= TARGETS.clickRatio)} |`,
    );
  }
  out.push('', '### Profile of the full `{ ref role name }` snapshot');
  for (const r of results) out.push('', `${chars(r.rows)} rows:`, '', r.profile);
  return out.join('\n');
}
