// OCR text index (issue 37): how long `Window.textIndex` takes on a 1280×800 window read for the first time,
// and how long a read of the same pixels takes from the cache, end to end through GraphQL over CDP attach to
// a headless Chromium showing a busy page (a painted toolbar and chart, and paragraphs of text). Each fresh
// read follows a click that changes a counter on the page, so its pixels (and hash) are new. Also counts how
// many of the toolbar's painted labels the index found inside their painted button (word accuracy). Then the
// engine alone on each run's screenshot, alternating: one engine on the whole image (the reference) and the
// index's banded read (one engine per core) — the ratio holds under load where absolute times do not — and
// a bare Window.screenshot against the cached read: what a cache hit would cost if it had to prove by a
// screenshot that the pixels are the ones read before. A page that has not repainted since its read is
// answered without one (domain/vision/unchanged-window.ts); the session's figures say how many were.
// Run: `npx tsx bench/ocr-index.ts`; BENCH_OCR_RUNS=n scales it. Figures depend on the machine's load.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readScreenshot } from '../domain/vision/banded-read.js';
import { runTesseract } from '../domain/vision/tesseract.js';
import { startDebuggableChromium } from '../test/helpers/debuggable.js';
import { startGateway } from '../test/helpers/gateway.js';
import { gatewayClient } from '../test/helpers/gateway-client.js';
import { listenOnLoopback } from '../test/helpers/loopback-server.js';
import { HEADER, row, summarise } from './stats.js';

const RUNS = Number(process.env.BENCH_OCR_RUNS ?? 10);
const LABELS = ['Open', 'Export', 'Import', 'Share', 'Print', 'Settings'];
const PARAGRAPH =
  'Quarterly figures for the northern region were reviewed by the planning committee on Tuesday morning.';
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>OCR bench</title>
<style>body{margin:0;font:16px sans-serif}p{margin:6px 16px}</style></head><body>
<canvas id="toolbar" width="1280" height="64"></canvas>
<button id="next" type="button">Next</button> <span id="count">0</span>
${Array.from({ length: 24 }, (_, i) => `<p>${i + 1}. ${PARAGRAPH}</p>`).join('')}
<script>
const labels = ${JSON.stringify(LABELS)};
const paint = document.getElementById('toolbar').getContext('2d');
paint.font = 'bold 22px sans-serif'; paint.textBaseline = 'middle';
labels.forEach((label, i) => { paint.fillStyle = '#e8e8e8'; paint.fillRect(16 + i * 200, 8, 180, 48);
  paint.fillStyle = '#000'; paint.fillText(label, 40 + i * 200, 32); });
document.getElementById('next').onclick = () => {
  const count = document.getElementById('count'); count.textContent = String(Number(count.textContent) + 1); };
</script></body></html>`;

const INDEX =
  '{ session { window { textIndex(timeoutMs: 60000) { cached elapsedMs words { text bbox { x y width height } } } } } }';

const server = createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
);
const origin = await listenOnLoopback(server);
const browser = await startDebuggableChromium(`${origin}/`, ['--window-size=1280,800']);
const gateway = await startGateway({
  auditDir: mkdtempSync(join(tmpdir(), 'stagegraph-ocr-bench-audit-')),
  mutationsPerSecond: 1_000,
});
try {
  const client = gatewayClient(gateway.url);
  await client.data(
    `mutation { attach(input: { port: ${browser.port}, titleContains: "OCR bench" }) { id } }`,
  );
  const fresh: number[] = [];
  const cached: number[] = [];
  const cachedBuild: number[] = [];
  const capture: number[] = [];
  const whole: number[] = [];
  const banded: number[] = [];
  let found = 0;
  for (let run = 0; run < RUNS; run += 1) {
    await client.data(
      'mutation { click(target: { role: "button", name: "Next" }) { resolvedBy { strategy } } }',
    );
    let started = performance.now();
    const first = (await client.data(INDEX)).session.window.textIndex;
    fresh.push(performance.now() - started);
    if (first.cached) throw new Error('a read after a change was answered from the cache');
    started = performance.now();
    const again = (await client.data(INDEX)).session.window.textIndex;
    cached.push(performance.now() - started);
    cachedBuild.push(again.elapsedMs);
    if (!again.cached) throw new Error('a second read of the same pixels was not cached');
    started = performance.now();
    await client.data('{ session { window { screenshot { byteLength } } } }');
    capture.push(performance.now() - started);
    const shot = Buffer.from(
      (await client.data('{ session { window { screenshot { base64 } } } }')).session.window.screenshot
        .base64,
      'base64',
    );
    started = performance.now();
    await runTesseract(shot, { timeoutMs: 60_000 });
    whole.push(performance.now() - started);
    started = performance.now();
    await readScreenshot(shot, { timeoutMs: 60_000 });
    banded.push(performance.now() - started);
    found += LABELS.filter((label, i) =>
      first.words.some(
        (w: { text: string; bbox: { x: number; y: number; width: number; height: number } }) =>
          w.text === label &&
          w.bbox.x >= 16 + i * 200 &&
          w.bbox.x + w.bbox.width <= 196 + i * 200 &&
          w.bbox.y >= 8,
      ),
    ).length;
  }
  console.log('## OCR text index, 1280×800 window over CDP attach (issue 37)\n');
  console.log(HEADER);
  console.log(row('textIndex, new pixels (screenshot + tesseract + snapshot)', summarise(fresh)));
  console.log(row('textIndex, same pixels (cached)', summarise(cached)));
  console.log(
    row('  of which building the index (its elapsedMs)', summarise(cachedBuild), summarise(cached)),
  );
  console.log(
    row(
      'Window.screenshot alone: what a hit proven by screenshot takes',
      summarise(capture),
      summarise(cached),
    ),
  );
  console.log(row('engine alone: one tesseract on the whole screenshot', summarise(whole)));
  console.log(row('engine alone: banded read, one tesseract per core', summarise(banded), summarise(whole)));
  console.log(`\nPainted labels found inside their button: ${found} of ${LABELS.length * RUNS}.`);
  const figures = (
    await client.data('{ session { visionFigures { cachedOcrReads cachedOcrReadsWithoutScreenshot } } }')
  ).session.visionFigures;
  console.log(
    `Cached reads answered with no screenshot: ${figures.cachedOcrReadsWithoutScreenshot} of ${figures.cachedOcrReads}.`,
  );
} finally {
  await gateway.stop();
  await browser.kill();
  server.close();
}
