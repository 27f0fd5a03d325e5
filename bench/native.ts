// The application menu read and invoked through the gateway over graphql-ws, against the same fixed
// serializer called directly with Playwright's electronApp.evaluate (PlaywrightNativeSurface over
// playwrightChannel; the gateway's transport calls over a session of its own on the app's inspector). Two
// fixture apps on the stand-in, one per side; samples alternate between them so drift in the machine's load
// falls on both alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import { _electron } from 'playwright-core';
import { FIXTURE_APP_MAIN, fixtureLaunch, STAND_IN } from '../test/helpers/fixture-app.js';
import { startGateway, wsClient, wsRequest } from '../test/helpers/gateway.js';
import { playwrightChannel } from '../transports/playwright-electron/main-channel.js';
import { PlaywrightNativeSurface } from '../transports/playwright-electron/playwright-electron-native-surface.js';
import { HEADER, row, type Summary, summarise } from './stats.js';

const N = Number(process.env.BENCH_N ?? 200);
const WARMUP = 20;
const ITEM = 'label role type id accelerator enabled visible checked sublabel toolTip';
const READ = parse(`{ session { applicationMenu { ${ITEM} submenu { ${ITEM} } } } }`);
/** A checkbox whose handler only tells the page: each invoke toggles it, nothing piles up. */
const PATH = ['View', 'Dark Mode'];
const INVOKE = parse(`mutation { invokeMenuItem(path: ${JSON.stringify(PATH)}) { invoked reason } }`);
const LAUNCH = parse('mutation ($input: LaunchInput!) { launch(input: $input) { id } }');

const auditDir = mkdtempSync(join(tmpdir(), 'stagegraph-bench-native-'));

async function measure(samples: number[], record: boolean, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  if (record) samples.push(performance.now() - started);
}

// One client calling as fast as it can: the rate limit is not what is measured.
const gateway = await startGateway({ auditDir, mutationsPerSecond: 10_000 });
const client = wsClient(gateway.wsUrl);
const direct = await _electron.launch({ executablePath: STAND_IN, args: [FIXTURE_APP_MAIN] });
const gatewayRead: number[] = [];
const directRead: number[] = [];
const gatewayInvoke: number[] = [];
const directInvoke: number[] = [];
try {
  const launched = await wsRequest(client, LAUNCH, { input: fixtureLaunch() });
  if (launched.errors) throw new Error(JSON.stringify(launched.errors));
  await direct.firstWindow();
  const surface = await PlaywrightNativeSurface.attach(
    direct,
    { entries: () => [] },
    playwrightChannel(direct),
  );
  const checked = async (run: () => Promise<{ errors?: unknown } | unknown>) => {
    const result = (await run()) as { errors?: unknown };
    if (result?.errors) throw new Error(JSON.stringify(result.errors));
  };
  for (let i = 0; i < WARMUP + N; i += 1) {
    const record = i >= WARMUP;
    const sides = [
      () => measure(gatewayRead, record, () => checked(() => wsRequest(client, READ))),
      () => measure(directRead, record, () => surface.applicationMenu()),
      () => measure(gatewayInvoke, record, () => checked(() => wsRequest(client, INVOKE))),
      () => measure(directInvoke, record, () => surface.invokeMenuItem(PATH)),
    ];
    for (const side of i % 2 === 0 ? sides : sides.reverse()) await side();
  }
} finally {
  await client.dispose();
  await gateway.stop();
  await direct.close();
  rmSync(auditDir, { recursive: true, force: true });
}

const [read, readRef, invoke, invokeRef] = [gatewayRead, directRead, gatewayInvoke, directInvoke].map(
  (values) => summarise(values),
) as [Summary, Summary, Summary, Summary];
console.log(
  `## Native UI: application menu, gateway vs direct evaluate (node ${process.version})\n\n${HEADER}`,
);
console.log(row('menu read, direct electronApp.evaluate', readRef));
console.log(row('menu read, gateway over graphql-ws', read, readRef));
console.log(row('menu invoke, direct electronApp.evaluate', invokeRef));
console.log(row('menu invoke, gateway over graphql-ws (governed)', invoke, invokeRef));
