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
import { readScreenshot } from '/work/main/domain/vision/banded-read.js';
import { runTesseract } from '/work/main/domain/vision/tesseract.js';
import { startDebuggableChromium } from '/work/main/test/helpers/debuggable.js';
import { startGateway } from '/work/main/test/helpers/gateway.js';
import { gatewayClient } from '/work/main/test/helpers/gateway-client.js';
import { listenOnLoopback } from '/work/main/test/helpers/loopback-server.js';
import { HEADER, row, summarise } from '/work/main/bench/stats.js';

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
  await client.data(`mutation { attach(input: { port: ${browser.port}, titleContains: "OCR bench" }) { id } }`);
  await client.data(INDEX);
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  await client.data(INDEX); await client.data(INDEX);
  if (process.env.NOMAPS) process.setSourceMapsEnabled(false);
  const t: number[] = [];
  for (let i = 0; i < 300; i++) { const s0 = performance.now(); await client.data(INDEX); t.push(performance.now() - s0); }
  t.sort((a, b) => a - b); console.log('median', t[150].toFixed(2), 'total', t.reduce((a, b) => a + b, 0).toFixed(0));
} finally {
  await gateway.stop(); await browser.kill(); server.close();
}
