// The AT-SPI desktop transport (issue 15) against the straightforward ways of doing the same thing by hand,
// in one run on one owned desktop (Xvfb, a session bus and the accessibility bus) with the GTK fixture app
// of 1,000 rows on it, reached by an in-process gateway's attachDesktop:
// - the full snapshot of the "Desktop Fixture" window through the gateway (graphql-ws) — the lean fields an
//   agent acts with, and every field the walk reads (value, states, bbox) — against a plain pyatspi walk of
//   the same window (bench/pyatspi-walk.py, spawned; its own elapsed figure, without Python's start-up).
//   Goal: the gateway at least 5x faster. Beside them, the first snapshot of a new session, before the
//   driver has read anything of the app;
// - a click on the "Inspector Panel" window's Refresh button through the gateway, against AT-SPI's
//   Action.DoAction(0) on the same object sent straight over the accessibility bus (AtspiBus), each timed
//   to its answer and to the app's own `refresh` line on stdout.
// Gateway snapshots and pyatspi walks alternate run by run, as do the two clicks, so they share the
// machine's noise. Run: `npx tsx bench/atspi-snapshot.ts` (BENCH_ATSPI_SNAPSHOT_RUNS, BENCH_ATSPI_COLD_RUNS
// and BENCH_ATSPI_CLICK_RUNS change the sample sizes).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from 'graphql-ws';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import { type AccessibleRef, AtspiBus } from '../transports/atspi/bus/atspi-bus.js';
import { openDesktop } from '../transports/atspi/desktop-host.js';
import { type DesktopAppProcess, SYSTEM_PYTHON, startDesktopApp } from './desktop-app-process.js';
import { gqlData } from './snapshot-client.js';
import { HEADER, row, type Summary, summarise, timedOnce } from './stats.js';

const SNAPSHOT_RUNS = Number(process.env.BENCH_ATSPI_SNAPSHOT_RUNS ?? 9);
const CLICK_RUNS = Number(process.env.BENCH_ATSPI_CLICK_RUNS ?? 30);
const COLD_RUNS = Number(process.env.BENCH_ATSPI_COLD_RUNS ?? 3);
const WARMUP = 2;
const ROWS = 1_000;
const TIMEOUT_MS = 60_000;
/** The gateway snapshot is to be at least this many times faster than the pyatspi walk. */
const SNAPSHOT_GOAL = 5;
const FIXTURE = fileURLToPath(new URL('../fixtures/desktop-app/app.py', import.meta.url));
const WALK = fileURLToPath(new URL('pyatspi-walk.py', import.meta.url));
/** GTK names a Python app after its script. */
const APP_NAME = 'app.py';
const MAIN_WINDOW = 'Desktop Fixture';
const PANEL_WINDOW = 'Inspector Panel';
/** Only what an agent needs to act, and everything the pyatspi walk reads of each node. */
const LEAN_FIELDS = 'ref role name';
const FULL_FIELDS = 'ref role name value states bbox { x y width height }';

// biome-ignore lint/suspicious/noExplicitAny: benchmark responses are read loosely
type Loose = any;

const run = promisify(execFile);

/** The Refresh button of the fixture's Inspector Panel, as the accessibility bus names it. */
async function refreshButton(bus: AtspiBus, pid: number): Promise<AccessibleRef> {
  for (const app of await bus.applications()) {
    const [owner] = await bus.call(
      'org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus',
      'GetConnectionUnixProcessID',
      's',
      [app.busName],
    );
    if (owner !== pid) continue;
    const item = (await bus.cacheItems(app.busName)).find(
      (candidate) => candidate.name === 'Refresh' && candidate.interfaces.includes('org.a11y.atspi.Action'),
    );
    if (item) return item.ref;
  }
  throw new Error('the fixture has no Refresh button on the accessibility bus');
}

interface WalkFigures {
  readonly nodes: number;
  readonly ms: number;
}

async function pyatspiWalk(env: Readonly<Record<string, string>>): Promise<WalkFigures> {
  const { stdout } = await run(SYSTEM_PYTHON, [WALK, APP_NAME, MAIN_WINDOW], {
    env: { ...process.env, ...env },
    timeout: 5 * TIMEOUT_MS,
  });
  return JSON.parse(stdout) as WalkFigures;
}

/** What this machine lacks to run the bench, or undefined. */
function missingPieces(): string | undefined {
  if (spawnSync('sh', ['-c', 'command -v Xvfb']).status !== 0) return 'Xvfb is not installed';
  if (!existsSync('/usr/libexec/at-spi-bus-launcher')) return 'at-spi-bus-launcher is not installed';
  if (spawnSync(SYSTEM_PYTHON, ['-c', 'import gi, pyatspi']).status !== 0)
    return `${SYSTEM_PYTHON} lacks gi or pyatspi (apt-get install python3-gi gir1.2-gtk-3.0 python3-pyatspi)`;
  return undefined;
}

const missing = missingPieces();
if (missing) {
  console.log(`## AT-SPI desktop (issue 15)\n\nNot run: ${missing}.`);
  process.exit(0);
}
const host = await openDesktop({}, TIMEOUT_MS);
let fixture: DesktopAppProcess | undefined;
let bus: AtspiBus | undefined;
let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
let client: Client | undefined;
try {
  fixture = await startDesktopApp(
    FIXTURE,
    { ...host.env, STAGEGRAPH_FIXTURE_ROWS: String(ROWS) },
    TIMEOUT_MS,
  );
  const pid = fixture.child.pid as number;
  bus = await AtspiBus.connect(host.sessionBusAddress, TIMEOUT_MS);
  // The gateway runs on this desktop, as it would on a user's: attachDesktop reaches its apps.
  Object.assign(process.env, host.env);
  gateway = await startGateway();
  client = wsClient(gateway.wsUrl);
  const gw = client;
  const attach = async () =>
    (
      await gqlData<Loose>(
        gw,
        'mutation ($pid: Int!) { attachDesktop(input: { pid: $pid, timeoutMs: 60000 }) { id windows { id title } } }',
        { pid },
      )
    ).attachDesktop as { id: string; windows: { id: string; title: string }[] };
  const windowOf = (windows: { id: string; title: string }[], title: string) => {
    const found = windows.find((window) => window.title === title);
    if (!found) throw new Error(`no window "${title}" in ${JSON.stringify(windows)}`);
    return found.id;
  };
  const snapshotOf = (session: string, window: string, fields: string) => async () =>
    (
      await gqlData<Loose>(
        gw,
        `{ session(id: "${session}") { window(id: "${window}") { snapshot { totalNodes nodes { ${fields} } } } } }`,
      )
    ).session.window.snapshot.totalNodes as number;

  // Cold: what a session's first snapshot costs, before the driver has read anything of the app (each run
  // attaches a new session and lets it go after).
  const coldSamples: number[] = [];
  for (let i = 0; i < COLD_RUNS; i += 1) {
    const cold = await attach();
    coldSamples.push(await timedOnce(snapshotOf(cold.id, windowOf(cold.windows, MAIN_WINDOW), FULL_FIELDS)));
    await gqlData<Loose>(gw, `mutation { detach(id: "${cold.id}") { status } }`);
  }

  const attached = await attach();
  const session = attached.id;
  const main = windowOf(attached.windows, MAIN_WINDOW);
  const panel = windowOf(attached.windows, PANEL_WINDOW);
  const lean = snapshotOf(session, main, LEAN_FIELDS);
  const full = snapshotOf(session, main, FULL_FIELDS);
  const gatewayNodes = await full();
  const leanSamples: number[] = [];
  const fullSamples: number[] = [];
  const walkSamples: number[] = [];
  let walkNodes = 0;
  for (let i = 0; i < WARMUP + SNAPSHOT_RUNS; i += 1) {
    const leanMs = await timedOnce(lean);
    const fullMs = await timedOnce(full);
    const walk = await pyatspiWalk(host.env);
    walkNodes = walk.nodes;
    if (i < WARMUP) continue;
    leanSamples.push(leanMs);
    fullSamples.push(fullMs);
    walkSamples.push(walk.ms);
  }

  const refresh = await refreshButton(bus, pid);
  const refreshRef = (
    await gqlData<Loose>(
      gw,
      `{ session(id: "${session}") { window(id: "${panel}") { find(role: "button", name: "Refresh") { ref } } } }`,
    )
  ).session.window.find[0].ref as string;
  const direct = bus;
  const actionSamples: number[] = [];
  const clickers = {
    gateway: async () => {
      const { click } = await gqlData<Loose>(
        gw,
        `mutation { click(session: "${session}", window: "${panel}", target: { ref: "${refreshRef}" }) { elapsedMs } }`,
      );
      actionSamples.push(click.elapsedMs);
    },
    direct: () => direct.call(refresh.busName, refresh.path, 'org.a11y.atspi.Action', 'DoAction', 'i', [0]),
  };
  const clickSamples = { gateway: [] as number[], direct: [] as number[] };
  const seenSamples = { gateway: [] as number[], direct: [] as number[] };
  for (let i = 0; i < WARMUP + CLICK_RUNS; i += 1) {
    for (const how of ['gateway', 'direct'] as const) {
      const seen = (fixture as DesktopAppProcess).nextLine('refresh');
      const started = performance.now();
      await clickers[how]();
      const answered = performance.now();
      await seen;
      if (i < WARMUP) continue;
      clickSamples[how].push(answered - started);
      seenSamples[how].push(performance.now() - started);
    }
  }

  const walk = summarise(walkSamples);
  const snapshots = {
    lean: summarise(leanSamples),
    full: summarise(fullSamples),
    cold: summarise(coldSamples),
  };
  const click = { gateway: summarise(clickSamples.gateway), direct: summarise(clickSamples.direct) };
  const seen = { gateway: summarise(seenSamples.gateway), direct: summarise(seenSamples.direct) };
  const action = summarise(actionSamples.slice(WARMUP));
  const speedup = (summary: Summary) => walk.median / summary.median;
  const verdict = (summary: Summary) =>
    `${speedup(summary).toFixed(2)}x faster (${speedup(summary) >= SNAPSHOT_GOAL ? '**PASS**' : '**MISS**'})`;

  console.log('## AT-SPI desktop (issue 15)\n');
  console.log(
    `The "${MAIN_WINDOW}" window of the GTK fixture (${ROWS.toLocaleString('en')} rows): the gateway's snapshot lists ${gatewayNodes} nodes, the pyatspi walk visits ${walkNodes} objects. Goal: the gateway >= ${SNAPSHOT_GOAL}x faster than the walk.\n`,
  );
  console.log(HEADER);
  console.log(row('pyatspi walk (bench/pyatspi-walk.py, its own figure)', walk));
  console.log(row(`gateway snapshot { nodes { ${LEAN_FIELDS} } }`, snapshots.lean, walk));
  console.log(row(`gateway snapshot { nodes { ${FULL_FIELDS} } }`, snapshots.full, walk));
  console.log(row('the same, first of a new attachDesktop session', snapshots.cold, walk));
  console.log(
    `\nAgainst the walk: lean ${verdict(snapshots.lean)}, full ${verdict(snapshots.full)}, a new session's first ${verdict(snapshots.cold)}.\n`,
  );
  console.log(`Click on "${PANEL_WINDOW}" > Refresh:\n`);
  console.log(HEADER);
  console.log(row('Action.DoAction(0) over AtspiBus, to its reply', click.direct));
  console.log(row('gateway click (graphql-ws), to its answer', click.gateway, click.direct));
  console.log(row('Action.DoAction(0), to the app printing `refresh`', seen.direct));
  console.log(row('gateway click, to the app printing `refresh`', seen.gateway, seen.direct));
  console.log(
    `\nThe gateway's own ActionResult.elapsedMs of its clicks: median ${action.median} ms, p95 ${action.p95} ms.`,
  );
} finally {
  await client?.dispose();
  await gateway?.stop();
  bus?.disconnect();
  fixture?.stop();
  await host.dispose();
}
