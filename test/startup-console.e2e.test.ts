import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchDocument, StopDocument } from './generated/graphql.js';
import { ELECTRON_TARGETS, reportRealElectronSkipped } from './helpers/fixture-app.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';
import { expectGroupsGone } from './helpers/processes.js';
import { countReaches, whileMoving } from './helpers/progress.js';

/** Logs, warns and notifies before its first window, which it is slow to open (see the file). */
const STARTUP_APP = fileURLToPath(new URL('../fixtures/startup-app', import.meta.url));

/** What the app's main process logs before its first window, in its order. */
const STARTUP_LINES = [
  { type: 'log', text: 'start-up 1: main script loaded', source: 'MAIN' },
  { type: 'warning', text: 'start-up 2: before ready', source: 'MAIN' },
  { type: 'log', text: 'start-up 3: ready', source: 'MAIN' },
  { type: 'log', text: 'start-up 4: opening the first window', source: 'MAIN' },
];
const STARTUP_NOTICES = ['Start-up notice 1', 'Start-up notice 2'];

const CONSOLE = `query StartupConsole($id: ID) {
  session(id: $id) { console(last: 1000) { entries { type text source } } }
}`;
const HEARTBEATS = `query Heartbeats($id: ID) {
  session(id: $id) { console(textContains: "heartbeat", last: 1) { entries { seq } } }
}`;
const NOTIFICATIONS = `query StartupNotifications($id: ID) {
  session(id: $id) { notifications { entries { title } } }
}`;

/**
 * How each launch mode keeps what an app's main process says before its first window. A plain launch has no
 * hooks in the app until after its main ran, so only an instrumented one sees start-up notifications; both
 * keep the console from the process's first line.
 */
const MODES = [
  { name: 'launch', instrumentNative: false },
  { name: 'instrumented launch', instrumentNative: true },
] as const;

let gateway: GatewayProcess;
let api: GatewayClient;

beforeAll(async () => {
  gateway = await serveInChild();
  api = gatewayClient(gateway.url);
});
afterAll(async () => {
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
});

for (const target of ELECTRON_TARGETS) {
  describe(`a main process's start-up console on ${target.name}`, () => {
    for (const mode of MODES) {
      it(`${mode.name} keeps every line from before the first window, in order, as MAIN`, async () => {
        const launch = (
          await api.data(LaunchDocument, {
            input: {
              main: STARTUP_APP,
              executablePath: target.executablePath,
              instrumentNative: mode.instrumentNative,
            },
          })
        ).launch!;
        try {
          // A heartbeat is logged after the first window, so once one is in, every start-up line has arrived.
          await whileMoving(
            async () =>
              (await api.data(HEARTBEATS, { id: launch.id })).session.console.entries.length as number,
            (total) => total > 0,
            'heartbeats in the console',
          );
          const { entries } = (await api.data(CONSOLE, { id: launch.id })).session.console;
          const startup = entries.filter((entry: Loose) => entry.text.startsWith('start-up'));
          expect(startup).toEqual(STARTUP_LINES);
          // Each start-up line before the first heartbeat: the order of the process, not of arrival.
          const firstBeat = entries.findIndex((entry: Loose) => entry.text.startsWith('heartbeat'));
          expect(entries.indexOf(startup.at(-1))).toBeLessThan(firstBeat);

          if (!mode.instrumentNative) return;
          const titles = async () =>
            (await api.data(NOTIFICATIONS, { id: launch.id })).session.notifications.entries.map(
              (entry: Loose) => entry.title,
            ) as string[];
          await countReaches(async () => (await titles()).length, STARTUP_NOTICES.length, 'notifications');
          expect(await titles()).toEqual(STARTUP_NOTICES);
        } finally {
          await api.data(StopDocument, { id: launch.id });
          await expectGroupsGone([launch.pid!]);
        }
      });
    }
  });
}

reportRealElectronSkipped("a main process's start-up console");
