// Launch-to-first-window time through the gateway (the `launch` mutation over HTTP, which returns once the
// first window has parsed its document) against a direct Playwright `_electron.launch` + `firstWindow()` +
// wait for that same document on the same executable (the reference: equal work, no gateway). Each launch is
// stopped before the next; the two alternate so they share the machine's noise.
import { _electron } from 'playwright-core';
import { LaunchDocument, StopDocument } from '../test/generated/graphql.js';
import { FIXTURE_APP_MAIN, STAND_IN } from '../test/helpers/fixture-app.js';
import { http, startGateway } from '../test/helpers/gateway.js';
import { HEADER, row, summarise } from './stats.js';

const RUNS = Number(process.env.BENCH_LAUNCH_RUNS ?? 7);
const executablePath = process.env.ELECTRON_PATH ?? STAND_IN;

const gateway = await startGateway();
const direct: number[] = [];
const throughGateway: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  let started = performance.now();
  const app = await _electron.launch({ executablePath, args: [FIXTURE_APP_MAIN] });
  const page = await app.firstWindow();
  await page.waitForURL((url) => url.href !== 'about:blank', { waitUntil: 'domcontentloaded' });
  direct.push(performance.now() - started);
  await app.close();

  started = performance.now();
  const { data, errors } = await http(gateway.url, LaunchDocument, {
    input: { main: FIXTURE_APP_MAIN, executablePath },
  });
  if (!data?.launch) throw new Error(JSON.stringify(errors));
  throughGateway.push(performance.now() - started);
  await http(gateway.url, StopDocument, { id: data.launch.id });
}
await gateway.stop();

const label = executablePath === STAND_IN ? 'stand-in' : executablePath;
console.log(`## Launch to first window (${label}, ${RUNS} runs each)\n\n${HEADER}`);
console.log(row('direct _electron.launch + first document parsed', summarise(direct)));
console.log(row('gateway launch mutation (HTTP)', summarise(throughGateway), summarise(direct)));
