// A throwaway Electron app for the snapshot bench (bench/snapshot.ts): one 1280x800 BrowserWindow showing
// tablePageHtml(rows), plus a few bench-only additions injected before </body> (table-page.ts stays as is):
// - every row's button edits its own row (the customer cell gains " (edited N)"): the "one click" whose diff
//   is measured;
// - a button that, DELAYED_UPDATE_MS after it is clicked, writes "Updated N" into a status output and, in the
//   same task, the page's Date.now() into a second output: what the expect-latency measurement waits on and
//   measures from.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tablePageHtml } from './table-page.js';

/** How long after its click the delayed button changes the status text. */
export const DELAYED_UPDATE_MS = 50;
/** Accessible names of the bench-only controls. */
export const DELAYED_BUTTON_NAME = 'Update status later';
export const STATUS_NAME = 'Status message';
export const STAMP_NAME = 'Changed at';
/** The text the status shows after the delayed button's `n`-th click (counted from 1 per page). */
export const statusText = (n: number): string => `Updated ${n}`;
/** CSS for the delayed button and the stamp, for the direct Playwright reference. */
export const DELAYED_BUTTON_SELECTOR = '#bench-later';
export const STATUS_SELECTOR = '#bench-status';
export const STAMP_SELECTOR = '#bench-stamp';
/** CSS for the button of the 1-based row `row`, for the direct Playwright reference. */
export const rowButtonSelector = (row: number): string => `tbody > tr:nth-child(${row}) button`;

const BENCH_ADDITIONS = `
  <section aria-label="Bench controls">
    <button type="button" id="bench-later">${DELAYED_BUTTON_NAME}</button>
    <output id="bench-status" aria-label="${STATUS_NAME}">Idle</output>
    <output id="bench-stamp" aria-label="${STAMP_NAME}">0</output>
  </section>
  <script>
    (() => {
      let edits = 0;
      let updates = 0;
      document.addEventListener('click', (event) => {
        const button = event.target instanceof Element ? event.target.closest('tbody tr button') : null;
        if (!button) return;
        const row = button.closest('tr');
        const cells = [...row.cells];
        const cell = cells.find((c) => /Customer/.test(c.textContent)) ?? cells[1] ?? cells[0];
        edits += 1;
        cell.textContent = cell.textContent.replace(/ \\(edited \\d+\\)$/, '') + ' (edited ' + edits + ')';
      });
      document.getElementById('bench-later').addEventListener('click', () => {
        updates += 1;
        const n = updates;
        setTimeout(() => {
          const at = Date.now();
          document.getElementById('bench-status').textContent = 'Updated ' + n;
          document.getElementById('bench-stamp').textContent = String(at);
        }, ${DELAYED_UPDATE_MS});
      });
    })();
  </script>
`;

const MAIN_JS = `const path = require('node:path');
const { app, BrowserWindow } = require('electron');
app.whenReady().then(() => {
  const window = new BrowserWindow({ width: 1280, height: 800 });
  window.loadFile(path.join(__dirname, 'table.html'));
});
`;

/** The page the app shows: the bench table page with the bench-only additions. */
export function tableAppHtml(rows: number): string {
  const html = tablePageHtml(rows);
  if (!html.includes('</body>')) throw new Error('tablePageHtml() no longer ends its body with </body>');
  return html.replace('</body>', `${BENCH_ADDITIONS}</body>`);
}

export interface TableApp {
  /** The app's main script: pass it to the gateway's launch or to _electron.launch. */
  readonly main: string;
  remove(): Promise<void>;
}

/** Writes the app into a fresh temporary folder. */
export async function writeTableApp(rows: number): Promise<TableApp> {
  const dir = await mkdtemp(join(tmpdir(), `stagegraph-bench-${rows}-`));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: `bench-table-${rows}`, version: '0.0.0', main: 'main.js' }),
  );
  await writeFile(join(dir, 'main.js'), MAIN_JS);
  await writeFile(join(dir, 'table.html'), tableAppHtml(rows));
  return { main: join(dir, 'main.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}
