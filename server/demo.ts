import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SessionRegistry } from '../resolvers/sessions/session-registry.js';
import type { ServeConfig } from './config.js';

export const FIXTURE_APP = fileURLToPath(new URL('../fixtures/app/', import.meta.url));
export const STAND_IN = fileURLToPath(new URL('../fixtures/electron-standin/electron', import.meta.url));

const STAND_IN_NOTICE = `
################################################################################
#  NO ELECTRON BINARY FOUND: the demo runs on the Electron-API STAND-IN.       #
#  It is a TEST FIXTURE (real Node main process + headless Chromium windows),  #
#  NOT Electron. Set ELECTRON_PATH or pass --electron to use real Electron.    #
################################################################################`;

/** Launches the fixture app as a demo session: on real Electron when one is configured, else the stand-in. */
export async function launchDemo(
  sessions: SessionRegistry,
  config: ServeConfig,
  log: (line: string) => void,
) {
  const realElectron = config.electron ?? process.env.ELECTRON_PATH;
  const useStandIn = !realElectron || !existsSync(realElectron);
  if (useStandIn) log(STAND_IN_NOTICE);
  const session = await sessions.launch({
    main: FIXTURE_APP,
    ...(useStandIn ? { executablePath: STAND_IN } : {}),
  });
  log(`demo session ${session.id} (${session.app.name ?? 'app'}) is ${session.status}`);
  return session;
}
