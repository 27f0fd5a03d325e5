import { _electron, errors } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { capabilityMatrix } from '../contract/capabilities.js';
import type { LaunchOptions, LaunchTransport } from '../contract/transport.js';
import { resolveExecutable, resolveMain } from './executable.js';
import { type InstrumentedPreload, writeInstrumentedPreload } from './instrumented-preload.js';
import { PlaywrightElectronSession } from './session.js';

/** Lines of Playwright's launch log kept in a LAUNCH_FAILED error: enough to show the app's last words. */
const LAUNCH_LOG_LINES = 20;

export interface PlaywrightElectronConfig {
  /** `stagegraph serve --electron`: the Electron binary to use when a launch names none. */
  readonly configuredElectron?: string;
  readonly environment?: NodeJS.ProcessEnv;
}

/**
 * Launches Electron apps (or the test stand-in) through Playwright's `_electron`. Capabilities list only
 * what this transport implements end to end today; others stay false until their seam is built.
 */
export function createPlaywrightElectronTransport(config: PlaywrightElectronConfig = {}): LaunchTransport {
  const environment = config.environment ?? process.env;
  return {
    id: 'playwright-electron',
    description:
      "Launches an Electron app and drives it through Playwright's Electron support (CDP + Node inspector).",
    capabilities: capabilityMatrix([
      'LAUNCH',
      'WINDOWS',
      'CONSOLE',
      'SNAPSHOT',
      'INTERACTION',
      'SCREENSHOT',
      'INTERCEPT',
      'DIALOGS',
      'STORAGE',
      'CLOCK',
      'NATIVE_UI',
      'MAIN_EVAL',
      'RENDERER_EVAL',
    ]),
    async launch(options: LaunchOptions) {
      const cwd = options.cwd ?? process.cwd();
      const main = options.main === undefined ? undefined : resolveMain(options.main, cwd);
      const executable = resolveExecutable({
        ...(main === undefined ? {} : { main }),
        ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
        ...(config.configuredElectron === undefined ? {} : { configuredElectron: config.configuredElectron }),
        environment,
      });
      const preload = options.instrumentNative ? await instrumentedPreload(main) : undefined;
      const electron = await _electron
        .launch({
          executablePath: executable.path,
          args: [...(preload?.args ?? []), ...(main === undefined ? [] : [main]), ...options.args],
          env: { ...stringEnvironment(environment), ...options.env },
          cwd,
          timeout: options.timeoutMs,
        })
        .catch((error: unknown) => {
          preload?.remove();
          throw launchError(error, executable.path, options.timeoutMs);
        });
      if (preload) electron.process().once('exit', () => preload.remove());
      try {
        return await PlaywrightElectronSession.start(electron, executable.path);
      } catch (error) {
        const pid = electron.process().pid;
        if (pid !== undefined) process.kill(-pid, 'SIGKILL');
        throw launchError(error, executable.path, options.timeoutMs);
      }
    },
  };
}

function stringEnvironment(environment: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function launchError(error: unknown, executablePath: string, timeoutMs: number): StagegraphError {
  const message = error instanceof Error ? error.message : String(error);
  const log = message.split('\n').slice(0, LAUNCH_LOG_LINES).join('\n');
  if (error instanceof errors.TimeoutError) {
    return new StagegraphError('LAUNCH_TIMEOUT', `The app did not become drivable within ${timeoutMs} ms.`, {
      details: { executablePath, log },
      cause: error,
    });
  }
  return new StagegraphError('LAUNCH_FAILED', `The app failed to start: ${log.split('\n')[0]}`, {
    details: { executablePath, log },
    nextActions: ['query { transports { id capabilities { LAUNCH } } }'],
    cause: error,
  });
}

/** The hooks are preloaded by Electron's default app, which runs only when it is given the app's entry. */
function instrumentedPreload(main: string | undefined): Promise<InstrumentedPreload> {
  if (main === undefined) {
    throw new StagegraphError(
      'INSTRUMENTATION_NEEDS_MAIN',
      "instrumentNative needs `main`: the hooks are preloaded by Electron's default app, which then loads the app's main.",
    );
  }
  return writeInstrumentedPreload();
}
