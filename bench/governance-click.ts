// The governance chokepoint's cost on a real click, end to end: the same click through two gateways in one
// run, one governed (built-in policy, target preview, audit log on disk) and one built without governance
// (the reference), each driving its own fixture app on the stand-in over graphql-ws. Samples alternate
// between the two so drift in the machine's load falls on both alike. The budget: <= 1.05x.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { createGateway, type Gateway } from '../server/app.js';
import type { ServeConfig } from '../server/config.js';
import { fixtureLaunch } from '../test/helpers/fixture-app.js';
import { ARTIFACTS_DIR, UPLOAD_ROOT, wsClient, wsRequest } from '../test/helpers/gateway.js';
import { HEADER, row, summarise } from './stats.js';

const N = Number(process.env.BENCH_N ?? 300);
const WARMUP = 30;
/** A button with no click handler ("Double click me" listens for dblclick): the page does not change. */
const CLICK = parse('mutation { click(target: { testId: "double" }) { elapsedMs } }');
const LAUNCH = parse('mutation ($input: LaunchInput!) { launch(input: $input) { id } }');
const STOP_TICKING = parse('mutation { click(target: { testId: "stop-ticking" }) { elapsedMs } }');

const auditDir = mkdtempSync(join(tmpdir(), 'stagegraph-bench-click-'));
const config: ServeConfig = {
  host: '127.0.0.1',
  port: 0,
  token: undefined,
  allowEval: 'none',
  electron: undefined,
  demo: false,
  artifactsDir: ARTIFACTS_DIR,
  uploadRoots: [UPLOAD_ROOT],
  auditDir,
  // The bench is one client clicking as fast as it can; the limit is not what is measured.
  mutationsPerSecond: 10_000,
};

interface Side {
  readonly gateway: Gateway;
  readonly client: Client;
  readonly samples: number[];
}

async function open(governance: 'on' | 'off'): Promise<Side> {
  const gateway = createGateway({ config, log: () => {}, governance });
  const client = wsClient((await gateway.start()).replace(/^http/, 'ws'));
  const launched = await wsRequest(client, LAUNCH, { input: fixtureLaunch() });
  if (launched.errors) throw new Error(JSON.stringify(launched.errors));
  await wsRequest(client, STOP_TICKING);
  return { gateway, client, samples: [] };
}

async function click(side: Side, record: boolean): Promise<void> {
  const started = performance.now();
  const result = await wsRequest(side.client, CLICK);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  if (record) side.samples.push(performance.now() - started);
}

const governed = await open('on');
const reference = await open('off');
try {
  for (let i = 0; i < WARMUP + N; i += 1) {
    const order = i % 2 === 0 ? [governed, reference] : [reference, governed];
    for (const side of order) await click(side, i >= WARMUP);
  }
} finally {
  for (const side of [governed, reference]) {
    await side.client.dispose();
    await side.gateway.stop();
  }
  rmSync(auditDir, { recursive: true, force: true });
}

const off = summarise(reference.samples);
const on = summarise(governed.samples);
console.log(`## Governance on a click, end to end over graphql-ws (node ${process.version})\n\n${HEADER}`);
console.log(row('click, gateway built without governance', off));
console.log(row('click, governed (built-in policy, preview, audit)', on, off));
console.log(`\nadded at the median: ${(on.median - off.median).toFixed(3)} ms`);
