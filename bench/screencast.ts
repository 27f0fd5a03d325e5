// Live view (issue 16): frames per second the `screencast` subscription delivers at 800x600 to 1 viewer, and
// to 5 viewers of which one has stopped reading its socket, against the raw rate of CDP Page.startScreencast
// on the same page in the same run; and this process's memory (it holds the gateway alone) while the stalled
// viewer stays stalled. The page (fixtures/pages/screencast-animation.html) repaints on every animation
// frame, in a headless Chromium of 800x600 started by the gateway's launchCommand (the cdp transport; the
// launch transport runs the same page-engine screencast). The viewers are other clients: they run in a child
// process (this file, forked with `viewers`), so their JSON parsing is not the gateway's.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import CDP from 'chrome-remote-interface';
import WebSocket from 'ws';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/browser.js';
import { startGateway } from '../test/helpers/gateway.js';
import { gatewayClient } from '../test/helpers/gateway-client.js';
import { collectGarbage } from './collect-garbage.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QUALITY = 60;
const MAX_WIDTH = 800;
const PAGE = pathToFileURL(
  fileURLToPath(new URL('../fixtures/pages/screencast-animation.html', import.meta.url)),
).href;
const QUERY = `subscription ($session: ID!, $maxFps: Int) {
  screencast(session: $session, maxFps: $maxFps, quality: ${QUALITY}, maxWidth: ${MAX_WIDTH}) { seq width data droppedBefore }
}`;

interface ViewersRequest {
  readonly wsUrl: string;
  readonly session: string;
  readonly maxFps: number;
  readonly readers: number;
  readonly stalled: number;
  readonly seconds: number;
}

interface ViewersReport {
  /** Frames each reading viewer got per second over the run (after its first frame). */
  readonly fps: number[];
  readonly width: number;
  /** Mean size of a frame's base64 JPEG. */
  readonly kilobytes: number;
  /** What the stalled viewers were told they lost once they read again. */
  readonly stalledDropped: number;
}

/** A raw graphql-ws viewer counting frames; `pause` stops reading its TCP socket altogether. */
async function viewer(request: ViewersRequest) {
  const socket = new WebSocket(request.wsUrl, 'graphql-transport-ws');
  const tally = { frames: 0, firstAt: 0, lastAt: 0, bytes: 0, width: 0, dropped: 0 };
  let acked: () => void = () => {};
  const ack = new Promise<void>((resolve) => {
    acked = resolve;
  });
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.type === 'connection_ack') acked();
    const frame = message.payload?.data?.screencast;
    if (!frame) return;
    if (tally.frames === 0) tally.firstAt = performance.now();
    tally.frames += 1;
    tally.lastAt = performance.now();
    tally.bytes += frame.data.length;
    tally.width = frame.width;
    tally.dropped += frame.droppedBefore;
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await ack;
  const variables = { session: request.session, maxFps: request.maxFps };
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables } }));
  const tcp = (socket as unknown as { _socket: Socket })._socket;
  return { socket, tally, pause: () => tcp.pause(), resume: () => tcp.resume() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** The viewers' process: stalled viewers stop reading after their first frame, readers read throughout. */
async function runViewers(request: ViewersRequest): Promise<ViewersReport> {
  const stalled = await Promise.all(Array.from({ length: request.stalled }, () => viewer(request)));
  await until(() => stalled.every((one) => one.tally.frames > 0), 'a first frame to each stalled viewer');
  for (const one of stalled) one.pause();
  const readers = await Promise.all(Array.from({ length: request.readers }, () => viewer(request)));
  await until(() => readers.every((one) => one.tally.frames > 0), 'a first frame to each reader');
  process.send?.({ kind: 'reading' });
  await sleep(request.seconds * 1_000);
  const fps = readers.map(({ tally }) => (tally.frames - 1) / ((tally.lastAt - tally.firstAt) / 1_000));
  const frames = readers.reduce((sum, { tally }) => sum + tally.frames, 0);
  const bytes = readers.reduce((sum, { tally }) => sum + tally.bytes, 0);
  for (const one of stalled) one.resume();
  // Told only once it reads again and the gateway has a frame for it; small frames may all have fit the
  // kernel's socket buffers, and then nothing was dropped: wait a little, never fail on it.
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && stalled.some((one) => one.tally.dropped === 0)) await sleep(50);
  for (const one of [...stalled, ...readers]) one.socket.close();
  return {
    fps,
    width: readers[0]?.tally.width ?? 0,
    kilobytes: bytes / frames / 1024,
    stalledDropped: stalled.reduce((sum, { tally }) => sum + tally.dropped, 0),
  };
}

function memoryMb(collect: boolean) {
  if (collect) collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / 1024 / 1024, heap: heapUsed / 1024 / 1024 };
}

/** Runs a viewers' process and samples this process's memory from its readers' start to its report. */
async function viewers(request: ViewersRequest) {
  const child = fork(fileURLToPath(import.meta.url), ['viewers'], { execArgv: ['--import', 'tsx'] });
  const before = memoryMb(true);
  let peak = { rss: 0, heap: 0 };
  const sampler = setInterval(() => {
    const now = memoryMb(false);
    peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heap) };
  }, 250);
  let stalledAt: { rss: number; heap: number } | undefined;
  const report = await new Promise<ViewersReport>((resolve, reject) => {
    child.on('message', (message: { kind: string; report?: ViewersReport }) => {
      if (message.kind === 'reading') {
        // Late in the reading window the stalled viewer has long filled its socket: what it costs is held now.
        setTimeout(() => {
          stalledAt = memoryMb(true);
        }, request.seconds * 900);
      }
      if (message.kind === 'done' && message.report) resolve(message.report);
    });
    child.once('exit', (code) => reject(new Error(`the viewers' process exited with ${code}`)));
    child.send(request);
  });
  clearInterval(sampler);
  child.kill();
  return { report, before, peak, stalledAt, after: memoryMb(true) };
}

/** CDP Page.startScreencast on the same page over a bare connection, every frame acked at once. */
async function rawScreencastFps(port: number): Promise<{ fps: number; width: number; kilobytes: number }> {
  const targets = await CDP.List({ port });
  const target = targets.find((candidate) => candidate.type === 'page');
  if (!target) throw new Error('no page target');
  const client = await CDP({ port, target: target.id });
  let frames = 0;
  let bytes = 0;
  let first = 0;
  let last = 0;
  client.Page.screencastFrame(({ data, sessionId }) => {
    // A frame that raced the close is acked into a closed socket: nothing to do about it.
    client.Page.screencastFrameAck({ sessionId }).catch(() => undefined);
    if (frames === 0) first = performance.now();
    frames += 1;
    last = performance.now();
    bytes += data.length;
  });
  await client.Page.startScreencast({ format: 'jpeg', quality: QUALITY, maxWidth: MAX_WIDTH });
  await sleep(SECONDS * 1_000);
  await client.Page.stopScreencast();
  await client.close();
  return { fps: (frames - 1) / ((last - first) / 1_000), width: 0, kilobytes: bytes / frames / 1024 };
}

const ROW_HEADER = `| what | page | fps per reader (min / mean) | frame KB | vs raw CDP (mean) | stalled told dropped | gateway RSS MB before / peak / stalled / after | heap MB before / stalled / after |
|---|---|---|---|---|---|---|---|`;

async function main(): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), 'stagegraph-bench-screencast-'));
  const gateway = await startGateway({ artifactsDir: profile });
  const api = gatewayClient(gateway.url);
  try {
    const { launchCommand } = await api.data(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id endpoint } }',
      {
        input: {
          command: CHROMIUM,
          args: [
            ...CHROMIUM_ARGS,
            '--headless',
            '--window-size=800,600',
            `--user-data-dir=${profile}/chromium`,
            PAGE,
          ],
        },
      },
    );
    const session = launchCommand.id;
    const port = Number(/^ws:\/\/127\.0\.0\.1:(\d+)\//.exec(launchCommand.endpoint)?.[1]);
    console.log(`## Screencast — ${new Date().toISOString()}, load average ${loadavg()[0]?.toFixed(1)}\n`);
    console.log(
      `${SECONDS} s per row; quality ${QUALITY}, maxWidth ${MAX_WIDTH}; page 800x600 repainting every frame.\n`,
    );
    console.log(ROW_HEADER);
    const f = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(0));
    for (const page of ['animation', 'noise'] as const) {
      await api.data(
        'mutation ($session: ID, $url: String!) { navigate(session: $session, to: { url: $url }) { status } }',
        {
          session,
          url: page === 'noise' ? `${PAGE}?noise` : PAGE,
        },
      );
      const raw = await rawScreencastFps(port);
      console.log(
        `| raw CDP Page.startScreencast, acked at once | ${page} | ${raw.fps.toFixed(1)} | ${raw.kilobytes.toFixed(0)} | reference | – | – | – |`,
      );
      const runs =
        page === 'animation'
          ? [
              { maxFps: 30, readers: 1, stalled: 0 },
              { maxFps: 30, readers: 4, stalled: 1 },
              { maxFps: 10, readers: 4, stalled: 1 },
            ]
          : [{ maxFps: 10, readers: 4, stalled: 1 }];
      for (const run of runs) {
        const { report, before, peak, stalledAt, after } = await viewers({
          wsUrl: gateway.wsUrl,
          session,
          seconds: SECONDS,
          ...run,
        });
        const mean = report.fps.reduce((sum, fps) => sum + fps, 0) / report.fps.length;
        console.log(
          `| screencast maxFps ${run.maxFps}, ${run.readers} reading${run.stalled ? ` + ${run.stalled} stalled` : ''} | ${page} | ${Math.min(...report.fps).toFixed(1)} / ${mean.toFixed(1)} | ${report.kilobytes.toFixed(0)} | ${(mean / raw.fps).toFixed(2)}x | ${run.stalled ? report.stalledDropped : '–'} | ${f(before.rss)} / ${f(peak.rss)} / ${f(stalledAt?.rss)} / ${f(after.rss)} | ${f(before.heap)} / ${f(stalledAt?.heap)} / ${f(after.heap)} |`,
        );
      }
    }
  } finally {
    await gateway.stop();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'viewers') {
  process.once('message', async (request: ViewersRequest) => {
    process.send?.({ kind: 'done', report: await runViewers(request) });
  });
} else {
  await main();
}
