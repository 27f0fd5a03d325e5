import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StopDocument } from './generated/graphql.js';
import { FIXTURE_APP_MAIN, STAND_IN } from './helpers/fixture-app.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

const LAUNCHER = fileURLToPath(new URL('../fixtures/launcher/launcher.cjs', import.meta.url));
/** How long the launcher takes to quit after SIGINT: the stop must wait it out, not cut it short. */
const QUIT_DELAY_MS = 3_000;

// A launchCommand app started through a launcher that quits slowly. A stop's SIGINT closes the app's
// DevTools port at once while the launcher is still winding down: the lost connection must not be taken
// for a disconnect, nor disposal kill the group, before the stop's own deadlines.
describe('stop of a launchCommand session started through a launcher', () => {
  let gateway: RunningGateway;
  let api: GatewayClient;
  const scratch = mkdtempSync(join(tmpdir(), 'stagegraph-launcher-stop-'));

  beforeAll(async () => {
    gateway = await startGateway({ artifactsDir: join(scratch, 'artifacts') });
    api = gatewayClient(gateway.url);
  });
  afterAll(() => gateway?.stop());

  /** Starts the fixture app on the stand-in through the launcher; returns the session and its signal log. */
  async function launchThroughLauncher(name: string, env: Record<string, string> = {}) {
    const log = join(scratch, `${name}.signals`);
    const environment = { LAUNCHER_SIGNAL_LOG: log, LAUNCHER_QUIT_DELAY_MS: String(QUIT_DELAY_MS), ...env };
    const { launchCommand } = await api.data(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id status pid } }',
      {
        input: {
          command: LAUNCHER,
          args: ['--', STAND_IN, FIXTURE_APP_MAIN],
          env: Object.entries(environment).map(([key, value]) => ({ name: key, value })),
        },
      },
    );
    expect(launchCommand.status).toBe('RUNNING');
    const signals = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
    return { id: launchCommand.id as string, pid: launchCommand.pid as number, signals };
  }

  const stop = (id: string, graceMs: number) => api.data(StopDocument, { id, graceMs });

  it('waits within graceMs for the launcher to quit on SIGINT, and reports its own clean exit', async () => {
    const session = await launchThroughLauncher('graceful');
    // The stand-in leads nothing here: the launcher does, with the stand-in and its Chromium in its group.
    expect(livingGroupMembers(session.pid).length).toBeGreaterThan(2);

    const requested = Date.now();
    const stopped = (await stop(session.id, 20_000)).stop;
    const elapsed = Date.now() - requested;

    expect(stopped).toEqual({ id: session.id, status: 'STOPPED', exit: { code: 0, signal: null } });
    expect(session.signals()).toEqual(['SIGINT', 'exit 0']);
    // The launcher exits QUIT_DELAY_MS after its SIGINT, which the stop sent: the stop cannot end sooner.
    expect(elapsed).toBeGreaterThanOrEqual(QUIT_DELAY_MS);
    await expectGroupsGone([session.pid]);
  });

  it('escalates to SIGTERM and then SIGKILL on its deadlines for a launcher ignoring both', async () => {
    const session = await launchThroughLauncher('stubborn', { LAUNCHER_IGNORE: 'SIGINT,SIGTERM' });

    // A grace longer than the second the session gives a lost connection to turn into an exit: SIGTERM
    // comes from the ladder's deadline, never from the connection's loss.
    const stopped = (await stop(session.id, 2_000)).stop;

    expect(stopped).toEqual({ id: session.id, status: 'STOPPED', exit: { code: null, signal: 'SIGKILL' } });
    expect(session.signals()).toEqual(['SIGINT', 'SIGTERM']);
    await expectGroupsGone([session.pid]);
  });

  it('still reports an app that ends without a stop as EXITED with its code, and reaps the rest', async () => {
    const session = await launchThroughLauncher('unasked');
    // Killing the stand-in (the launcher's child) makes the launcher exit 1 by itself; Chromium is left.
    const standIn = livingGroupMembers(session.pid).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('electron-standin/bootstrap.cjs'),
    );
    expect(standIn).toHaveLength(1);
    process.kill(standIn[0] as number, 'SIGKILL');

    await expect
      .poll(
        async () =>
          (await api.data(`{ session(id: "${session.id}") { status exit { code signal } } }`)).session,
        {
          timeout: 15_000,
        },
      )
      .toEqual({ status: 'EXITED', exit: { code: 1, signal: null } });
    expect(() => session.signals()).toThrow(/ENOENT/);
    await expectGroupsGone([session.pid]);
  });
});
