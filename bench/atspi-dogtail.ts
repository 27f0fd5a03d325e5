// The AT-SPI desktop transport beside dogtail (issue 35), in one run on one owned desktop (Xvfb, a session
// bus and the accessibility bus) with the GTK4 calculator fixture on it, reached by an in-process gateway's
// attachDesktop over graphql-ws:
// - a whole-tree read of the "GTK4 Calculator" window: the gateway's snapshot, against a plain pyatspi walk
//   (bench/pyatspi-walk.py) and a dogtail walk (bench/dogtail-calculator.py walk), each Python side spawned
//   and timed by itself once it holds the window (Python's start-up, imports and finding the app apart);
// - a click-driven task, 12 + 3 = with the display then read as 15: the gateway clicking buttons by role
//   and name (one request a step, and all steps in one request), against dogtail's
//   child(roleName='push button', name=KEY).doActionNamed('click') as configured by default (a 1 s pause
//   after every action) and with its pauses set to 0. Every run is checked against the app's own
//   `display=15` line; the display is set to 0 before each run, outside the timing.
// The sides take turns run by run, so they share the machine's noise: compare ratios, not milliseconds.
// Run: `npx tsx bench/atspi-dogtail.ts` (BENCH_DOGTAIL_READ_RUNS, BENCH_DOGTAIL_TASK_RUNS change the
// sample sizes). Without python3-dogtail the dogtail rows are reported as not run.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from 'graphql-ws';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import { openDesktop } from '../transports/atspi/desktop-host.js';
import { type DesktopAppProcess, SYSTEM_PYTHON, startDesktopApp } from './desktop-app-process.js';
import { gqlData } from './snapshot-client.js';
import { HEADER, row, type Summary, summarise, timedOnce } from './stats.js';

const READ_RUNS = Number(process.env.BENCH_DOGTAIL_READ_RUNS ?? 9);
const TASK_RUNS = Number(process.env.BENCH_DOGTAIL_TASK_RUNS ?? 5);
const WARMUP = 1;
const TIMEOUT_MS = 60_000;
const FIXTURE = fileURLToPath(new URL('../fixtures/desktop-app/gtk4_app.py', import.meta.url));
const PYATSPI_WALK = fileURLToPath(new URL('pyatspi-walk.py', import.meta.url));
const DOGTAIL = fileURLToPath(new URL('dogtail-calculator.py', import.meta.url));
/** GTK names a Python app after its script. */
const APP_NAME = 'gtk4_app.py';
const WINDOW = 'GTK4 Calculator';
const KEYS = ['1', '2', '+', '3', '='];
const RESULT = '15';
const LEAN_FIELDS = 'ref role name';
const FULL_FIELDS = 'ref role name value states bbox { x y width height }';

// biome-ignore lint/suspicious/noExplicitAny: benchmark responses are read loosely
type Loose = any;

const run = promisify(execFile);

/** A Python side's figures: its own timing of the part after it found the window, and its whole process. */
interface PythonFigures {
  readonly nodes: number;
  readonly ms: number;
  readonly processMs: number;
}

async function python(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<PythonFigures> {
  const started = performance.now();
  const { stdout } = await run(SYSTEM_PYTHON, args, { env: { ...process.env, ...env }, timeout: TIMEOUT_MS });
  const processMs = performance.now() - started;
  const lines = stdout.trim().split('\n');
  const figures = JSON.parse(lines[lines.length - 1] ?? '') as { nodes: number; ms: number };
  return { nodes: figures.nodes, ms: figures.ms, processMs };
}

/** What this machine lacks to run the bench at all, or undefined. */
function missingPieces(): string | undefined {
  if (spawnSync('sh', ['-c', 'command -v Xvfb']).status !== 0) return 'Xvfb is not installed';
  if (!existsSync('/usr/libexec/at-spi-bus-launcher')) return 'at-spi-bus-launcher is not installed';
  const gtk4 = 'import gi, pyatspi; gi.require_version("Gtk", "4.0")';
  if (spawnSync(SYSTEM_PYTHON, ['-c', gtk4]).status !== 0)
    return `${SYSTEM_PYTHON} lacks gi with Gtk 4.0 or pyatspi (apt-get install python3-gi gir1.2-gtk-4.0 python3-pyatspi)`;
  return undefined;
}

const missing = missingPieces();
if (missing) {
  console.log(`## AT-SPI beside dogtail (issue 35)\n\nNot run: ${missing}.`);
  process.exit(0);
}
const hasDogtail = spawnSync(SYSTEM_PYTHON, ['-c', 'import dogtail']).status === 0;
const host = await openDesktop({}, TIMEOUT_MS);
let app: DesktopAppProcess | undefined;
let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
let client: Client | undefined;
try {
  app = await startDesktopApp(FIXTURE, host.env, TIMEOUT_MS);
  const calculator = app;
  Object.assign(process.env, host.env);
  gateway = await startGateway();
  client = wsClient(gateway.wsUrl);
  const gw = client;
  const { attachDesktop } = await gqlData<Loose>(
    gw,
    'mutation ($pid: Int!) { attachDesktop(input: { pid: $pid, timeoutMs: 60000 }) { id windows { id title } } }',
    { pid: calculator.child.pid },
  );
  const session = attachDesktop.id as string;
  const window = (attachDesktop.windows as { id: string; title: string }[]).find(
    (w) => w.title === WINDOW,
  )?.id;
  if (!window) throw new Error(`no window "${WINDOW}" in ${JSON.stringify(attachDesktop.windows)}`);

  // The tree read.
  const snapshot = (fields: string) => async () =>
    (
      await gqlData<Loose>(
        gw,
        `{ session(id: "${session}") { window(id: "${window}") { snapshot { totalNodes nodes { ${fields} } } } } }`,
      )
    ).session.window.snapshot.totalNodes as number;
  const gatewayNodes = await snapshot(FULL_FIELDS)();
  const reads = {
    lean: [] as number[],
    full: [] as number[],
    pyatspi: [] as number[],
    dogtail: [] as number[],
  };
  const nodes = { pyatspi: 0, dogtail: 0 };
  for (let i = 0; i < WARMUP + READ_RUNS; i += 1) {
    const lean = await timedOnce(snapshot(LEAN_FIELDS));
    const full = await timedOnce(snapshot(FULL_FIELDS));
    const walk = await python([PYATSPI_WALK, APP_NAME, WINDOW], host.env);
    const dogtail = hasDogtail ? await python([DOGTAIL, 'walk', APP_NAME, WINDOW], host.env) : undefined;
    nodes.pyatspi = walk.nodes;
    nodes.dogtail = dogtail?.nodes ?? 0;
    if (i < WARMUP) continue;
    reads.lean.push(lean);
    reads.full.push(full);
    reads.pyatspi.push(walk.ms);
    if (dogtail) reads.dogtail.push(dogtail.ms);
  }

  // The click-driven task.
  const clickStep = (key: string, alias = '') =>
    `${alias}click(session: "${session}", window: "${window}", target: { role: "button", name: "${key}", exact: true }) { elapsedMs }`;
  const readResult = `expect(session: "${session}", kind: COUNT, target: { role: "text", name: "${RESULT}" }, equals: "1", timeoutMs: 10000) { elapsedMs }`;
  const tasks: Record<string, () => Promise<number>> = {
    gatewaySteps: async () => {
      for (const key of KEYS) await gqlData<Loose>(gw, `mutation { ${clickStep(key)} }`);
      await gqlData<Loose>(gw, `mutation { ${readResult} }`);
      return Number.NaN;
    },
    gatewayOneRequest: async () => {
      const steps = KEYS.map((key, index) => clickStep(key, `k${index}: `)).join(' ');
      const answers = await gqlData<Loose>(gw, `mutation { ${steps} ${readResult} }`);
      // The gateway's own time: what its actions and the expectation took, without the request path.
      return Object.values(answers as Record<string, { elapsedMs: number }>).reduce(
        (sum, answer) => sum + answer.elapsedMs,
        0,
      );
    },
  };
  if (hasDogtail) {
    const dogtailTask = (env: Readonly<Record<string, string>>) => async () =>
      (await python([DOGTAIL, 'click', APP_NAME, WINDOW, RESULT, ...KEYS], { ...host.env, ...env })).ms;
    tasks.dogtailDefault = dogtailTask({});
    tasks.dogtailNoDelays = dogtailTask({ BENCH_DOGTAIL_NO_DELAYS: '1' });
  }
  const taskSamples: Record<string, number[]> = {};
  const ownSamples: Record<string, number[]> = {};
  for (let i = 0; i < WARMUP + TASK_RUNS; i += 1) {
    for (const [how, task] of Object.entries(tasks)) {
      const cleared = calculator.nextLine('display=0');
      await gqlData<Loose>(gw, `mutation { ${clickStep('C')} }`);
      await cleared;
      const done = calculator.nextLine(`display=${RESULT}`);
      const started = performance.now();
      const own = await task();
      const elapsed = performance.now() - started;
      await done;
      if (i < WARMUP) continue;
      taskSamples[how] = [...(taskSamples[how] ?? []), elapsed];
      if (!Number.isNaN(own)) ownSamples[how] = [...(ownSamples[how] ?? []), own];
    }
  }

  const dogtailRead = hasDogtail ? summarise(reads.dogtail) : undefined;
  const readReference = dogtailRead ?? summarise(reads.pyatspi);
  console.log('## AT-SPI beside dogtail (issue 35)\n');
  console.log(
    `"${WINDOW}" (fixtures/desktop-app/gtk4_app.py): the gateway's snapshot lists ${gatewayNodes} nodes, the pyatspi walk visits ${nodes.pyatspi}, the dogtail walk ${nodes.dogtail}.${hasDogtail ? '' : ' dogtail: not run (python3-dogtail is not installed).'}\n`,
  );
  console.log(HEADER);
  if (dogtailRead) console.log(row('dogtail walk (its own figure)', dogtailRead));
  console.log(row('pyatspi walk (its own figure)', summarise(reads.pyatspi), readReference));
  console.log(row(`gateway snapshot { nodes { ${LEAN_FIELDS} } }`, summarise(reads.lean), readReference));
  console.log(row(`gateway snapshot { nodes { ${FULL_FIELDS} } }`, summarise(reads.full), readReference));
  console.log(`\nClick ${KEYS.join(' ')} and read "${RESULT}" on the display:\n`);
  console.log(HEADER);
  const own = (how: string) => (ownSamples[how] ? summarise(ownSamples[how]) : undefined);
  const whole = (how: string) => (taskSamples[how] ? summarise(taskSamples[how]) : undefined);
  const taskReference = own('dogtailDefault');
  const rows: [string, Summary | undefined][] = [
    ['dogtail, default config (its own figure)', taskReference],
    ['dogtail, pauses set to 0 (its own figure)', own('dogtailNoDelays')],
    ['gateway, one request a step', whole('gatewaySteps')],
    ['gateway, all steps in one request', whole('gatewayOneRequest')],
    ["the same, the sum of the gateway's own elapsedMs", own('gatewayOneRequest')],
    ['dogtail, default config (whole process: start-up, imports, finding the app)', whole('dogtailDefault')],
    ['dogtail, pauses set to 0 (whole process)', whole('dogtailNoDelays')],
  ];
  for (const [what, summary] of rows) if (summary) console.log(row(what, summary, taskReference));
  if (!hasDogtail) console.log('\ndogtail: not run (python3-dogtail is not installed).');
} finally {
  await client?.dispose();
  await gateway?.stop();
  app?.stop();
  await host.dispose();
}
