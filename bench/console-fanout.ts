// Console events from a page to 1 and to 50 graphql-ws subscribers through the whole gateway (the capture
// page in the stand-in app it launched, and in a plain Chromium it attached to over CDP), against the raw
// CDP rate (Runtime.consoleAPICalled on plain Chromium showing the same page) in the same run; the
// 1-subscriber intake in BENCH_INTAKE_ROUNDS rounds (default 5) of every side. The verdict reads the
// attached page: there both sides read the same renderer, where the stand-in's own CDP session (Runtime
// enabled for its IPC bindings) adds a third copy of every console event to the renderer's work and a parse
// to its process's, which Electron does not pay. BENCH_CONSOLE_TARGETS=launch or =attach runs one of them.
// The page logs `flood <i> <Date.now()>` lines as fast as it can once released, so latency is
// page-to-subscriber. Intake runs from the page's first flood line (its own timestamp) to the last line
// taken in where the gateway takes lines in (its event hub), as the raw reference runs to where its CDP
// client takes them in: a side that lags is charged its lag, where timing from the first line taken in
// counted the burst a lagging side catches up in as its rate (single rounds then read up to 2.95x);
// delivery is counted at the subscribers, from the first delivery to the last line's arrival.
// The subscribers are other clients: they run in a process of their own (bench/fanout-subscribers.ts), so
// this process holds the gateway alone and its heap figures are the gateway's (with its session). This
// process's CPU time per delivery (console intake through Playwright included) and its event loop's busy
// share say what the gateway costs and whether it is the limit, whatever else loads the machine.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/helpers/browser.js';
import {
  attachCaptureApp,
  type CaptureApp,
  startCaptureApp,
  startCaptureServer,
} from '../test/helpers/capture-app.js';
import { collectGarbage } from './collect-garbage.js';
import type { SubscribersMessage, SubscribersRequest } from './fanout-subscribers.js';
import { median, sleep } from './snapshot-client.js';

const LINES = Number(process.env.BENCH_LINES ?? 20_000);
const FAN_OUTS = (process.env.BENCH_FAN_OUTS ?? '1,50').split(',').map(Number);
/** How the gateway reaches the capture page: launching the stand-in app, or attaching to plain Chromium. */
const STARTS = {
  launch: startCaptureApp,
  attach: attachCaptureApp,
} satisfies Record<string, (query: string) => Promise<CaptureApp>>;
type Target = keyof typeof STARTS;
const TARGETS = (process.env.BENCH_CONSOLE_TARGETS ?? 'launch,attach').split(',') as Target[];
/** The side the verdict reads: the same renderer as the raw reference's. */
const VERDICT_TARGET: Target = TARGETS.includes('attach') ? 'attach' : 'launch';
/** Rounds of the 1-subscriber intake, each against a raw CDP flood of its own. */
const INTAKE_ROUNDS = Number(process.env.BENCH_INTAKE_ROUNDS ?? 5);
/** A run that has not seen the last line by then has stalled; the figures would say so. */
const RUN_TIMEOUT_MS = 180_000;
/** Every Nth line's latency is kept: enough for a p95, without the bench's own samples skewing the heap. */
const LATENCY_SAMPLE_EVERY = 10;
const POLL_MS = 20;
/** Issue 18's targets: intake to one subscriber against the raw CDP rate, and fan-out to 50. */
const INTAKE_TARGET_RATIO = 0.9;
const FAN_OUT_TARGET_PER_SECOND = 20_000;

const reachableHeapMb = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${RUN_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** The same page in plain Chromium, read over a bare CDP session: what the browser itself emits. */
async function rawCdpRate(): Promise<number> {
  const server = await startCaptureServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Runtime.enable');
    const intake = new IntakeClock();
    cdp.on('Runtime.consoleAPICalled', (event) => intake.take(String(event.args[0]?.value ?? '')));
    await page.goto(`${server.url}/?autostart&lines=${LINES}`);
    server.startFlood();
    await until(() => intake.seen === LINES, 'the raw CDP flood');
    return intake.linesPerSecond();
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Forks the subscribers' process and hands it its request; resolves with a way to await its report. */
async function forkSubscribers(request: SubscribersRequest) {
  const child = fork(fileURLToPath(new URL('fanout-subscribers.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const messages: SubscribersMessage[] = [];
  child.on('message', (message: SubscribersMessage) => messages.push(message));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send(request);
  await until(
    () => messages.some((message) => message.kind === 'ready') || child.exitCode !== null,
    'subscribing',
  );
  if (child.exitCode !== null) throw new Error(`the subscribers' process exited with ${child.exitCode}`);
  return {
    async report() {
      await until(
        () => messages.some((message) => message.kind === 'done') || child.exitCode !== null,
        'delivering the last line to every subscriber',
      );
      const done = messages.find((message) => message.kind === 'done');
      if (done?.kind !== 'done') throw new Error(`the subscribers' process exited with ${child.exitCode}`);
      return done;
    },
    async stop() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

/** Flood lines taken in: from the first line's page timestamp to the wall-clock time the last was taken. */
class IntakeClock {
  seen = 0;
  #firstLoggedAt = 0;
  #lastTakenAt = 0;

  take(text: string): void {
    if (!text.startsWith('flood ')) return;
    this.seen += 1;
    this.#lastTakenAt = Date.now();
    if (this.seen === 1) this.#firstLoggedAt = Number(text.split(' ')[2]);
  }

  linesPerSecond(): number {
    return (this.seen - 1) / ((this.#lastTakenAt - this.#firstLoggedAt) / 1000);
  }
}

/** Times the flood lines the gateway publishes, without queueing any (its filter takes none). */
function intakeClock(app: CaptureApp) {
  const clock = new IntakeClock();
  const probe = app.gateway.gateway.hub.subscribe('console', {
    accepts: (entry) => {
      clock.take(entry.text);
      return false;
    },
  });
  return {
    linesPerSecond: () => clock.linesPerSecond(),
    stop: () => probe.close(),
  };
}

async function gatewayRun(fanOut: number, target: Target = 'launch') {
  const app = await STARTS[target](`?autostart&lines=${LINES}`);
  const intake = intakeClock(app);
  try {
    const query = `subscription { console(session: "${app.sessionId}", textContains: "flood ") { droppedBefore entry { seq text } } }`;
    const subscribers = await forkSubscribers({
      wsUrl: app.gateway.wsUrl,
      query,
      subscribers: fanOut,
      lastLine: LINES,
      sampleEvery: LATENCY_SAMPLE_EVERY,
    });
    try {
      // The intake clock is one more subscriber of the hub.
      await until(() => app.gateway.gateway.hub.subscriberCount === fanOut + 1, 'subscribing');
      const heapBefore = reachableHeapMb();
      const cpuBefore = process.cpuUsage();
      const loopBefore = performance.eventLoopUtilization();
      app.startFlood();
      const report = await subscribers.report();
      const cpu = process.cpuUsage(cpuBefore);
      const loopBusy = performance.eventLoopUtilization(loopBefore).utilization;
      const heapAfter = reachableHeapMb();
      const gatewayCpu = (cpu.user + cpu.system) / report.delivered;
      const intakeRate = intake.linesPerSecond();
      return { target, fanOut, ...report, intakeRate, gatewayCpu, loopBusy, heapBefore, heapAfter };
    } finally {
      await subscribers.stop();
    }
  } finally {
    intake.stop();
    await app.stop();
  }
}

type GatewayRun = Awaited<ReturnType<typeof gatewayRun>>;

/**
 * The 1-subscriber intake against the raw rate, in rounds: one flood lasts about a second, and single
 * samples of either side moved from 0.24x to 1.44x between back-to-back runs. Each round floods both sides
 * one after the other, which goes first alternating, so a drift in the machine's load falls on both alike;
 * the verdict is the median of the rounds' ratios.
 */
const rounds: { reference: number; run: GatewayRun }[] = [];
if (FAN_OUTS.includes(1)) {
  for (let round = 0; round < INTAKE_ROUNDS; round += 1) {
    const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
    if (round % 2 === 0) {
      const reference = await rawCdpRate();
      for (const target of order) rounds.push({ reference, run: await gatewayRun(1, target) });
    } else {
      const runs: GatewayRun[] = [];
      for (const target of order) runs.push(await gatewayRun(1, target));
      const reference = await rawCdpRate();
      for (const run of runs) rounds.push({ reference, run });
    }
  }
}
const fanOutRuns: GatewayRun[] = [];
for (const fanOut of FAN_OUTS.filter((count) => count !== 1)) fanOutRuns.push(await gatewayRun(fanOut));

const reference = median(rounds.length > 0 ? rounds.map((round) => round.reference) : [await rawCdpRate()]);

console.log(
  `## Console fan-out: ${LINES} lines from the page (node ${process.version}, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')})\n`,
);
console.log(
  `Raw CDP (Runtime.consoleAPICalled, plain Chromium, same page): ${Math.round(reference)} lines/s (median of ${Math.max(rounds.length, 1)})\n`,
);
console.log(
  '| gateway on | subscribers | raw CDP lines/s | delivered | dropped | unaccounted | errors | deliveries/s | intake lines/s | vs raw CDP | p50 ms | p95 ms | gateway CPU µs/delivery | gateway loop busy | subscribers CPU µs/delivery | heap before → after MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const rows = [...rounds, ...fanOutRuns.map((run) => ({ reference, run }))];
for (const { reference: raw, run } of rows) {
  console.log(
    `| ${run.target} | ${run.fanOut} | ${Math.round(raw)} | ${run.delivered} | ${run.dropped} | ${run.unaccounted} | ${run.errors} | ${Math.round(run.delivered / run.seconds)} | ${Math.round(run.intakeRate)} | ${(run.intakeRate / raw).toFixed(2)}x | ${run.latency.median.toFixed(0)} | ${run.latency.p95.toFixed(0)} | ${run.gatewayCpu.toFixed(1)} | ${(run.loopBusy * 100).toFixed(0)}% | ${run.cpuMicrosPerDelivery.toFixed(1)} | ${run.heapBefore.toFixed(1)} → ${run.heapAfter.toFixed(1)} |`,
  );
}

const verdict = (met: boolean) => (met ? 'PASS' : 'MISS');
const lossesOf = (runs: readonly GatewayRun[]) => {
  const delivered = runs.reduce((sum, run) => sum + run.delivered, 0);
  const dropped = runs.reduce((sum, run) => sum + run.dropped, 0);
  const unaccounted = runs.reduce((sum, run) => sum + run.unaccounted, 0);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  const share = (count: number) => `${((count / (delivered + dropped)) * 100).toFixed(0)}%`;
  return `delivered ${share(delivered)} of the lines; ${dropped} dropped (${share(dropped)}), ${unaccounted} unaccounted, ${errors} errors`;
};
for (const target of TARGETS) {
  const ofTarget = rounds.filter((round) => round.run.target === target);
  if (ofTarget.length === 0) continue;
  const ratios = ofTarget.map(({ reference: raw, run }) => run.intakeRate / raw);
  const ratio = median(ratios);
  const judged = target === VERDICT_TARGET ? verdict(ratio >= INTAKE_TARGET_RATIO) : 'beside the verdict';
  console.log(
    `\nIntake with 1 subscriber, gateway on the ${target === 'attach' ? 'attached plain Chromium' : 'launched stand-in app'}: median ${ratio.toFixed(2)}x raw CDP over ${ofTarget.length} rounds (${ratios.map((each) => `${each.toFixed(2)}x`).join(', ')}; target >= ${INTAKE_TARGET_RATIO}x): ${judged}; ${lossesOf(ofTarget.map((round) => round.run))}`,
  );
}
for (const run of fanOutRuns.filter((each) => each.fanOut === 50)) {
  const perSecond = run.delivered / run.seconds;
  console.log(
    `\nFan-out to 50 subscribers: ${Math.round(perSecond)} deliveries/s (target >= ${FAN_OUT_TARGET_PER_SECOND}/s): ${verdict(perSecond >= FAN_OUT_TARGET_PER_SECOND)}; ${lossesOf([run])}`,
  );
}
