import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.js';
import { FIXTURE_APP_MAIN, STAND_IN } from './fixture-app.js';
import { expectGroupsGone } from './processes.js';

/** Chromium and the stand-in print their endpoint within a few seconds; past this the test has failed. */
const READY_TIMEOUT_MS = 30_000;

/** A process a test started outside Stagegraph, in its own group, reaped by `kill`. */
export interface OutsideProcess {
  readonly pid: number;
  /** The DevTools port it printed, when started with one. */
  readonly port: number;
  readonly output: () => string;
  /** How it ended, once it has: a test can say why an app it did not expect to die died. */
  readonly exit: () => { code: number | null; signal: NodeJS.Signals | null } | null;
  kill(): Promise<void>;
}

function startOutside(
  command: string,
  args: readonly string[],
  ready: RegExp,
  env: Record<string, string> = {},
  cleanup: () => void = () => {},
): Promise<OutsideProcess> {
  const child: ChildProcess = spawn(command, [...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  child.once('exit', (code, signal) => {
    exit = { code, signal };
  });
  const kill = async () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
    await expectGroupsGone([child.pid as number]);
    cleanup();
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`${command} was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        pid: child.pid as number,
        port: Number(match[1] ?? 0),
        output: () => output,
        exit: () => exit,
        kill,
      });
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

const DEVTOOLS_LINE = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//;

/**
 * A headless Chromium on `url` with a DevTools port of its own choosing (read from its stderr); `args` are
 * further switches (e.g. `--force-dark-mode`, a user's setting an attach must leave alone).
 */
export function startDebuggableChromium(url: string, args: readonly string[] = []): Promise<OutsideProcess> {
  const profile = mkdtempSync(join(tmpdir(), 'stagegraph-attach-chromium-'));
  return startOutside(
    CHROMIUM,
    ['--headless', ...CHROMIUM_ARGS, ...args, '--remote-debugging-port=0', `--user-data-dir=${profile}`, url],
    DEVTOOLS_LINE,
    {},
    () => rmSync(profile, { recursive: true, force: true }),
  );
}

/** `node <args>` started by hand in its own group, ready once its output matches `ready`. */
export function startNodeOutside(args: readonly string[], ready: RegExp): Promise<OutsideProcess> {
  return startOutside(process.execPath, [INSPECT_ANY_PORT, ...args], ready);
}

/**
 * Where an app started here opens its inspector when inject signals it: a free port, not Node's default
 * 9229, which two suites injecting at once (or anything else on the machine) would contend for. Inject
 * finds the port the app opened whatever it is.
 */
const INSPECT_ANY_PORT = '--inspect-port=0';

/** The fixture app on the stand-in, started by hand with a DevTools port (or, with `port: false`, without). */
export function startFixtureOutside(
  options: { port: boolean; env?: Record<string, string> } = { port: true },
): Promise<OutsideProcess> {
  const args = [
    INSPECT_ANY_PORT,
    ...(options.port ? ['--remote-debugging-port=0', FIXTURE_APP_MAIN] : [FIXTURE_APP_MAIN]),
  ];
  // Without a port the stand-in still prints its own Chromium's endpoint; wait for the app instead.
  const ready = options.port ? DEVTOOLS_LINE : /fixture main: ready()/;
  return startOutside(STAND_IN, args, ready, options.env ?? {});
}

/** An Electron app's main script on the stand-in, started by hand, ready once its output matches `ready`. */
export function startStandInAppOutside(main: string, ready: RegExp): Promise<OutsideProcess> {
  return startOutside(STAND_IN, [INSPECT_ANY_PORT, main], ready);
}
