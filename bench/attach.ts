// The same click and the same snapshot through three transports of one gateway, over graphql-ws: the
// Playwright launch transport (the reference), CDP attach to the fixture app started with a debugging port,
// and inject into the fixture app started without one (its upgrade relays CDP through webContents.debugger
// and the main process's inspector). Also the time to attach and to inject, each followed by a detach.
// All three apps run on the stand-in; the operations alternate so they share the machine's noise.
import { startFixtureOutside } from '../test/helpers/debuggable.js';
import { FIXTURE_APP_MAIN, STAND_IN } from '../test/helpers/fixture-app.js';
import { startGateway, wsClient } from '../test/helpers/gateway.js';
import { gqlData } from './snapshot-client.js';
import { HEADER, row, type Summary, summarise, timedOnce } from './stats.js';

const N = Number(process.env.BENCH_ATTACH_N ?? 40);
const WARMUP = 5;
const CONNECT_RUNS = Number(process.env.BENCH_ATTACH_RUNS ?? 5);

// biome-ignore lint/suspicious/noExplicitAny: benchmark responses are read loosely
type Loose = any;

const gateway = await startGateway({ allowEval: 'none' });
const client = wsClient(gateway.wsUrl);
const withPort = await startFixtureOutside({ port: true });
const withoutPort = await startFixtureOutside({ port: false });
try {
  const launched = (
    await gqlData<Loose>(client, 'mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
      input: { main: FIXTURE_APP_MAIN, executablePath: STAND_IN },
    })
  ).launch.id as string;

  // The app's window must be open before either connects; the outside apps open it after their ports.
  const attachTimes: number[] = [];
  const injectTimes: number[] = [];
  let attached = '';
  let injected = '';
  for (let i = 0; i < CONNECT_RUNS; i += 1) {
    if (attached) await gqlData<Loose>(client, `mutation { detach(id: "${attached}") { status } }`);
    if (injected) await gqlData<Loose>(client, `mutation { detach(id: "${injected}") { status } }`);
    let session = '';
    attachTimes.push(
      await timedOnce(async () => {
        session = (
          await gqlData<Loose>(
            client,
            `mutation { attach(input: { port: ${withPort.port}, titleContains: "Stagegraph" }) { id } }`,
          )
        ).attach.id;
      }),
    );
    attached = session;
    injectTimes.push(
      await timedOnce(async () => {
        session = (
          await gqlData<Loose>(
            client,
            `mutation { inject(input: { pid: ${withoutPort.pid} }) { id capabilities { SNAPSHOT } } }`,
          )
        ).inject.id;
      }),
    );
    injected = session;
  }

  const sessions = { launch: launched, attach: attached, inject: injected };
  for (const id of Object.values(sessions)) {
    await gqlData<Loose>(
      client,
      `mutation { click(session: "${id}", target: { testId: "stop-ticking" }) { elapsedMs } }`,
    );
  }
  const windowOf = async (id: string) =>
    (await gqlData<Loose>(client, `{ session(id: "${id}") { windows { id title } } }`)).session.windows.find(
      (window: Loose) => window.title === 'Stagegraph Fixture',
    ).id as string;
  const windows = {
    launch: await windowOf(launched),
    attach: await windowOf(attached),
    inject: await windowOf(injected),
  };
  type Kind = keyof typeof sessions;
  const click = (kind: Kind) =>
    gqlData<Loose>(
      client,
      `mutation { click(session: "${sessions[kind]}", window: "${windows[kind]}", target: { testId: "log" }) { elapsedMs } }`,
    );
  const snapshot = (kind: Kind) =>
    gqlData<Loose>(
      client,
      `{ session(id: "${sessions[kind]}") { window(id: "${windows[kind]}") { snapshot(interactiveOnly: true) { nodes { ref role name } } } } }`,
    );

  const kinds: Kind[] = ['launch', 'attach', 'inject'];
  const samples = { click: new Map<Kind, number[]>(), snapshot: new Map<Kind, number[]>() };
  for (const kind of kinds) {
    samples.click.set(kind, []);
    samples.snapshot.set(kind, []);
  }
  for (let i = 0; i < WARMUP + N; i += 1) {
    for (const kind of kinds) {
      const clickMs = await timedOnce(() => click(kind));
      const snapshotMs = await timedOnce(() => snapshot(kind));
      if (i < WARMUP) continue;
      samples.click.get(kind)?.push(clickMs);
      samples.snapshot.get(kind)?.push(snapshotMs);
    }
  }

  const label = {
    launch: 'launch transport (Playwright _electron)',
    attach: 'CDP attach',
    inject: 'inject + webContents.debugger relay',
  };
  const nodes = await Promise.all(
    kinds.map(async (kind) => (await snapshot(kind)).session.window.snapshot.nodes.length as number),
  );
  for (const operation of ['click', 'snapshot'] as const) {
    const summaries = new Map<Kind, Summary>(
      kinds.map((kind) => [kind, summarise(samples[operation].get(kind) ?? [])]),
    );
    const what =
      operation === 'click'
        ? 'click(target: { testId: "log" })'
        : 'snapshot(interactiveOnly: true) { nodes { ref role name } }';
    console.log(`## ${what} through each transport (graphql-ws, stand-in, ${N} runs each)\n\n${HEADER}`);
    for (const kind of kinds)
      console.log(
        row(
          label[kind],
          summaries.get(kind) as Summary,
          kind === 'launch' ? undefined : summaries.get('launch'),
        ),
      );
    if (operation === 'snapshot')
      console.log(
        `\nNodes per snapshot (the same work each): ${kinds.map((kind, i) => `${kind} ${nodes[i]}`).join(', ')}.`,
      );
    console.log();
  }
  console.log(`## Connecting to a running app (${CONNECT_RUNS} runs each, detached in between)\n\n${HEADER}`);
  console.log(row('attach (CDP, fixture window picked by title)', summarise(attachTimes)));
  console.log(
    row('inject (SIGUSR1, inspector, debugger upgrade)', summarise(injectTimes), summarise(attachTimes)),
  );
  for (const id of [attached, injected])
    await gqlData<Loose>(client, `mutation { detach(id: "${id}") { status } }`);
} finally {
  await client.dispose();
  await gateway.stop();
  await withPort.kill();
  await withoutPort.kill();
}
