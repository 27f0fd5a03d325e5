import type { ChildProcess } from 'node:child_process';
import { _electron } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { capabilityMatrix } from '../contract/capabilities.js';
import type { LaunchOptions, LaunchTransport } from '../contract/transport-contract.js';
import type { ExitInfo } from '../contract/transport-events.js';
import { PAGE_ENGINE_CAPABILITIES } from '../page-engine/page/page-capabilities.js';
import { type AppIsolation, isolatedLaunch } from '../process/isolation.js';
import { signalGroup } from '../process/process-group.js';
import { assertWorkingFolder } from '../process/working-folder.js';
import { withDeadline } from '../protocol/deadline.js';
import { observeContextListenerRejections } from './context-listener-rejections.js';
import { resolveExecutable, resolveMain } from './executable.js';
import { type InstrumentedPreload, writeInstrumentedPreload } from './instrumented-preload.js';
import { launchFailure, StartTimeout } from './launch-failure.js';
import { launchedApp } from './launched-app.js';
import { observeLauncherLeftovers } from './launcher-leftovers.js';
import { PlaywrightElectronSession } from './playwright-electron-session.js';

/** How long a launch whose start-up failed waits for its app's own exit before killing it (see ownExit). */
const EXIT_NOTICE_MS = 1_000;

export interface PlaywrightElectronConfig {
  /** `stagegraph serve --electron`: the Electron binary to use when a launch names none. */
  readonly configuredElectron?: string;
  readonly environment?: NodeJS.ProcessEnv;
  /** How apps are started: in a PID namespace of their own where the gateway asks for it. */
  readonly isolation?: AppIsolation;
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
    capabilities: capabilityMatrix(['LAUNCH', ...PAGE_ENGINE_CAPABILITIES, 'NATIVE_UI', 'MAIN_EVAL']),
    async launch(options: LaunchOptions) {
      const started = Date.now();
      assertWorkingFolder(options.cwd);
      const cwd = options.cwd ?? process.cwd();
      const main = options.main === undefined ? undefined : resolveMain(options.main, cwd);
      const executable = resolveExecutable({
        ...(main === undefined ? {} : { main }),
        ...(options.executablePath === undefined ? {} : { executablePath: options.executablePath }),
        ...(config.configuredElectron === undefined ? {} : { configuredElectron: config.configuredElectron }),
        environment,
      });
      const facts = { executablePath: executable.path, timeoutMs: options.timeoutMs };
      const preload = options.instrumentNative ? await instrumentedPreload(main) : undefined;
      observeContextListenerRejections();
      observeLauncherLeftovers();
      const isolated = config.isolation
        ? isolatedLaunch(config.isolation, executable.path)
        : { executablePath: executable.path, env: {} };
      const electron = await _electron
        .launch({
          executablePath: isolated.executablePath,
          args: [...(preload?.args ?? []), ...(main === undefined ? [] : [main]), ...options.args],
          env: { ...stringEnvironment(environment), ...options.env, ...isolated.env },
          cwd,
          timeout: options.timeoutMs,
        })
        .catch((error: unknown) => {
          preload?.remove();
          throw launchFailure(error, facts);
        });
      const launched = launchedApp(electron);
      const child = launched.process;
      if (preload) {
        if (child && child.exitCode === null && child.signalCode === null)
          child.once('exit', () => preload.remove());
        else preload.remove();
      }
      const starting = PlaywrightElectronSession.start(electron, executable.path, launched);
      try {
        return await withDeadline(
          starting,
          Math.max(0, options.timeoutMs - (Date.now() - started)),
          () => new StartTimeout('the session did not start in time'),
        );
      } catch (error) {
        // A session that starts after its launch gave up is let go at once: its app is being killed.
        void starting.then((late) => late.dispose()).catch(() => undefined);
        const exit = await ownExit(child);
        if (child?.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        throw launchFailure(error, { ...facts, exit, stderr: launched.stderrTail() });
      }
    },
  };
}

/**
 * How the app ended by itself, if it did: an app that dies under its launch has usually gone by the time the
 * launch sees the failure, and is given EXIT_NOTICE_MS to say so before this launch kills it.
 */
async function ownExit(child: ChildProcess | undefined): Promise<ExitInfo | null> {
  if (!child) return null;
  const exit = (): ExitInfo | null =>
    child.exitCode !== null || child.signalCode !== null
      ? { code: child.exitCode, signal: child.signalCode }
      : null;
  if (exit()) return exit();
  await new Promise<void>((resolve) => {
    const exited = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      child.off('exit', exited);
      resolve();
    }, EXIT_NOTICE_MS);
    child.once('exit', exited);
  });
  return exit();
}

function stringEnvironment(environment: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
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
