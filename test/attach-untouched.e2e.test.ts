import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProcess, startDebuggableChromium } from './helpers/debuggable.js';
import { startGateway } from './helpers/gateway.js';
import { gatewayClient } from './helpers/gateway-client.js';

const ROWS = 2_000;
const HISTORY = 300;

/**
 * A big page in a dark-mode browser that logs its start-up before anyone attaches. What the page sees of its
 * colour scheme, and every change to it, is kept where a read finds it.
 */
function pageHtml(): string {
  const rows = Array.from(
    { length: ROWS },
    (_, i) => `<tr><td>Order ${i + 1}</td><td><button type="button">Edit ${i + 1}</button></td></tr>`,
  ).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Big dark page</title></head><body>
<h1 id="scheme">scheme pending</h1>
<table><tbody>${rows}</tbody></table>
<script>
  const dark = matchMedia('(prefers-color-scheme: dark)');
  let changes = 0;
  const show = () => { document.getElementById('scheme').textContent = 'scheme ' + (dark.matches ? 'dark' : 'light') + ', changed ' + changes + ' times'; };
  dark.addEventListener('change', () => { changes += 1; show(); });
  show();
  for (let i = 1; i <= ${HISTORY}; i += 1) console.log('start-up line', i, { i });
</script></body></html>`;
}

describe('attach leaves a big page as it was and defers nothing it promised', () => {
  let folder: string;
  let chromium: OutsideProcess;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let api: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'stagegraph-attach-untouched-'));
    const file = join(folder, 'page.html');
    writeFileSync(file, pageHtml());
    // The user's browser is in dark mode: an attach must not switch the app to Playwright's light default.
    chromium = await startDebuggableChromium(`file://${file}`, ['--force-dark-mode']);
    gateway = await startGateway({ allowEval: 'none' });
    api = gatewayClient(gateway.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await chromium?.kill();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('answers with the complete window list, then reads the whole page and its start-up console', async () => {
    const { attach } = await api.data(
      `mutation ($port: Int!) { attach(input: { port: $port, timeoutMs: 60000 }) { id status windows { id title url } } }`,
      { port: chromium.port },
    );
    expect(attach.status).toBe('RUNNING');
    expect(attach.windows).toEqual([
      { id: 'w1', title: 'Big dark page', url: expect.stringMatching(/page\.html$/) },
    ]);

    // The first read after the answer sees the whole document: nothing was left half-done.
    const { session } = await api.data(
      '{ session { window { last: find(role: "button", name: "Edit 2000") { name } scheme: find(role: "heading", nameContains: "scheme") { name } } } }',
    );
    expect(session.window.last).toEqual([{ name: 'Edit 2000' }]);
    // Playwright's default media emulation would have turned the page light (a change the page counts).
    expect(session.window.scheme).toEqual([{ name: 'scheme dark, changed 0 times' }]);

    // Every line the page logged before the attach is delivered, with no attach-time wait for them.
    await expect
      .poll(
        async () =>
          (await api.data('{ session { console(textContains: "start-up line") { entries { text } } } }'))
            .session.console.entries.length,
        { timeout: 30_000 },
      )
      .toBe(HISTORY);
    const { session: read } = await api.data(
      '{ session { console(textContains: "start-up line", last: 1) { entries { text windowId source } } } }',
    );
    expect(read.console.entries).toEqual([
      {
        text: expect.stringMatching(new RegExp(`^start-up line ${HISTORY}\\b`)),
        windowId: 'w1',
        source: 'RENDERER',
      },
    ]);

    const { detach } = await api.data(`mutation { detach(id: "${attach.id}") { status } }`);
    expect(detach.status).toBe('DETACHED');
    expect(chromium.exit()).toBeNull();
  });
});
