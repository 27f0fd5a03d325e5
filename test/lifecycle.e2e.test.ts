import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchTransport } from '../transports/contract/transport-contract.js';
import { createPlaywrightElectronTransport } from '../transports/playwright-electron/playwright-electron-transport.js';
import {
  ConsoleStreamDocument,
  ForceKillDocument,
  LaunchDocument,
  SessionConsoleDocument,
  SessionEventsDocument,
  SessionOverviewDocument,
  StopDocument,
  SwitchWindowDocument,
  WindowFocusDocument,
} from './generated/graphql.js';
import { ELECTRON_TARGETS, fixtureLaunch, reportRealElectronSkipped } from './helpers/fixture-app.js';
import {
  http,
  type RunningGateway,
  startGateway,
  subscribe,
  wsClient,
  wsRequest,
} from './helpers/gateway.js';
import { expectGroupsGone } from './helpers/processes.js';

for (const target of ELECTRON_TARGETS) {
  describe(`session lifecycle on ${target.name}`, () => {
    let gateway: RunningGateway;
    let client: Client;

    beforeAll(async () => {
      gateway = await startGateway();
      client = wsClient(gateway.wsUrl);
    });
    afterAll(async () => {
      await client?.dispose();
      await gateway?.stop();
    });

    async function launch(env: Record<string, string> = {}) {
      const { data, errors } = await http(gateway.url, LaunchDocument, {
        input: fixtureLaunch(target.executablePath, env),
      });
      expect(errors).toBeUndefined();
      return data!.launch!;
    }

    it('launches, lists windows, streams console and window events, switches window, stops', async () => {
      const consoleStream = subscribe(client, ConsoleStreamDocument, { textContains: 'fixture' });
      const events = subscribe(client, SessionEventsDocument, {});
      const launched = await launch({ FIXTURE_SECOND_WINDOW_AFTER_MS: '1000' });
      expect(launched.status).toBe('RUNNING');
      expect(launched.app.standIn).toBe(target.name === 'stand-in');
      expect(launched.windows[0]?.title).toBe('Stagegraph Fixture');

      const overview = await wsRequest(client, SessionOverviewDocument, { id: launched.id });
      const session = overview.data!.session!;
      expect(session).toMatchObject({
        transport: 'playwright-electron',
        app: { name: 'Stagegraph Fixture' },
      });
      expect(session.windows[0]?.bounds).toEqual({ width: 900, height: 700 });
      expect(session.activeWindow?.id).toBe(session.windows[0]?.id);

      const started = await consoleStream.waitFor((event) => event.console.entry.text === 'fixture: started');
      expect(started.console.entry).toMatchObject({
        sessionId: launched.id,
        source: 'RENDERER',
        windowId: 'w1',
      });

      const opened = await events.waitFor(
        (event) => event.sessionEvents.type === 'WINDOW_OPENED' && event.sessionEvents.window?.id === 'w2',
      );
      expect(opened.sessionEvents.sessionId).toBe(launched.id);
      const switched = await http(gateway.url, SwitchWindowDocument, { window: { titleContains: 'Second' } });
      expect(switched.data?.switchWindow).toEqual({ id: 'w2', title: 'Second Window' });
      // Switching gave w2 the focus in the main process: the app reports it, and only it, as focused.
      const focus = await http(gateway.url, WindowFocusDocument, { id: launched.id });
      expect(focus.data?.session?.windows).toEqual([
        { id: 'w1', focused: false, bounds: { width: 900, height: 700 } },
        { id: 'w2', focused: true, bounds: expect.objectContaining({ width: expect.any(Number) }) },
      ]);
      await http(gateway.url, SwitchWindowDocument, { window: { titleContains: 'Fixture' } });
      const back = await http(gateway.url, WindowFocusDocument, { id: launched.id });
      expect(back.data?.session?.windows.map((window) => window.focused)).toEqual([true, false]);

      const stopped = await http(gateway.url, StopDocument, { id: launched.id });
      expect(stopped.data?.stop?.status).toBe('STOPPED');
      // The app quit when asked, within the grace period: nothing held it until the kill.
      expect(stopped.data?.stop?.exit).toEqual({ code: 0, signal: null });
      await events.waitFor((event) => event.sessionEvents.type === 'STOPPED');
      await expectGroupsGone([launched.pid!]);
      const afterStop = await http(gateway.url, SessionConsoleDocument, {
        id: launched.id,
        textContains: 'started',
      });
      expect(afterStop.data?.session?.console.entries.map((entry) => entry.text)).toEqual([
        'fixture: started',
      ]);
      consoleStream.dispose();
      events.dispose();
    });

    it('turns CRASHED, with an event, on kill -9, keeps the console readable, and launches again', async () => {
      const launched = await launch();
      const events = subscribe(client, SessionEventsDocument, { session: launched.id });
      await expect
        .poll(
          async () =>
            (await http(gateway.url, SessionConsoleDocument, { id: launched.id })).data?.session?.console
              .total,
        )
        .toBeGreaterThan(0);

      process.kill(launched.pid!, 'SIGKILL');
      const crashed = await events.waitFor((event) => event.sessionEvents.type === 'CRASHED');
      expect(crashed.sessionEvents).toMatchObject({
        status: 'CRASHED',
        exit: { code: null, signal: 'SIGKILL' },
      });
      await expectGroupsGone([launched.pid!]);

      const postMortem = await http(gateway.url, SessionConsoleDocument, {
        id: launched.id,
        textContains: 'started',
      });
      expect(postMortem.data?.session).toMatchObject({ status: 'CRASHED' });
      expect(postMortem.data?.session?.console.entries[0]?.text).toBe('fixture: started');

      const again = await launch();
      expect(again.status).toBe('RUNNING');
      const killed = await http(gateway.url, ForceKillDocument, { id: again.id });
      expect(killed.data?.forceKill).toMatchObject({ status: 'STOPPED', exit: { signal: 'SIGKILL' } });
      await expectGroupsGone([again.pid!]);
      events.dispose();
    });

    it('names the live sessions when asked for an unknown one, and refuses acting on an ended one', async () => {
      const live = await launch();
      const { errors } = await http(gateway.url, SessionOverviewDocument, { id: 'no-such-session' });
      expect(errors?.[0]?.extensions?.code).toBe('SESSION_NOT_FOUND');
      expect(errors?.[0]?.extensions?.nextActions).toContain(
        `query { session(id: "${live.id}") { id status windows { id title } } }`,
      );
      await http(gateway.url, StopDocument, { id: live.id });
      const refused = await http(gateway.url, SwitchWindowDocument, {
        session: live.id,
        window: { index: 0 },
      });
      expect(refused.errors?.[0]?.extensions?.code).toBe('SESSION_NOT_RUNNING');
    });

    it('keeps the console an app logs after launch and before the session listens (start-up lines)', async () => {
      const line = 'fixture main: logged before the session listened';
      // The launch transport, which makes the app log as its last step: the line is emitted before the
      // gateway's session exists and subscribes. Playwright delivers the console event before the answer of
      // the evaluation that logged it, so once that answer is in, the transport has emitted the line.
      const inner = createPlaywrightElectronTransport();
      const logsLast: LaunchTransport = {
        ...inner,
        async launch(options) {
          const session = await inner.launch(options);
          await session.native?.evalMain(`() => console.log(${JSON.stringify(line)})`, null);
          return session;
        },
      };
      const own = await startGateway({}, [logsLast]);
      try {
        const { data } = await http(own.url, LaunchDocument, { input: fixtureLaunch(target.executablePath) });
        const launched = data!.launch!;
        const logged = await http(own.url, SessionConsoleDocument, { id: launched.id, textContains: line });
        expect(logged.data?.session?.console.entries).toMatchObject([{ text: line, source: 'MAIN' }]);
        await http(own.url, StopDocument, { id: launched.id });
        await expectGroupsGone([launched.pid!]);
      } finally {
        await own.stop();
      }
    });
  });
}

reportRealElectronSkipped('session lifecycle');
