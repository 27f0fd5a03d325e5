import type { ChildProcess } from 'node:child_process';
import type { ElectronApplication } from 'playwright-core';
import type { ExitInfo } from '../contract/transport-events.js';
import { readLines } from '../process/output-lines.js';
import { STDERR_TAIL_LINES } from '../process/owned-process.js';

/**
 * Lines the Node inspector and Chromium write to stderr for Playwright's launcher, not for the app's user:
 * left out of the tail so that its lines are the app's own last words.
 */
const LAUNCHER_NOISE =
  /^(?:Debugger listening on |For help, see: |Debugger attached\.$|Waiting for the debugger to disconnect|Debugger ending on |DevTools listening on )/;
/** How Playwright's launcher records a line of the app's stderr in its log. */
const STDERR_LOG_LINE = /^\[pid=\d+\]\[err\] ?(.*)$/;

/** Playwright's in-process server object of a launched app: what its client object does not expose. */
interface ServerApp {
  readonly _process?: ChildProcess;
  readonly _nodeConnection?: {
    readonly _browserLogsCollector?: { onMessage(listener: (message: string) => void): void };
  };
}

interface InProcessClient {
  readonly _connection?: { readonly toImpl?: (object: unknown) => unknown };
}

/** A launched app's process and the last lines it wrote to stderr, read once Playwright's launch resolved. */
export interface LaunchedApp {
  /** Undefined when Playwright had already let go of the app (it closed during the launch). */
  readonly process: ChildProcess | undefined;
  /** The app's last stderr lines, from its very first (written while Playwright was still launching it). */
  stderrTail(): string[];
}

/**
 * Reads the app's process and stderr through Playwright's in-process server object, as Playwright's own
 * `ElectronApplication.process()` does — and once: that lookup throws once the app has closed, so a session
 * that asked again after its app exited answered INTERNAL. The server's launch log holds every stderr line
 * from the app's first, which the process's stream no longer gives: Playwright's launcher read those (an
 * app's start-up error, say) before `launch` resolved. Where the server object is out of reach, the stream
 * is read from now on.
 */
export function launchedApp(electron: ElectronApplication): LaunchedApp {
  const server = serverAppOf(electron);
  const process = server?._process ?? processOf(electron);
  const tail: string[] = [];
  const keep = (line: string) => {
    if (LAUNCHER_NOISE.test(line)) return;
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
  };
  const launchLog = server?._nodeConnection?._browserLogsCollector;
  if (launchLog) {
    launchLog.onMessage((message) => {
      const line = STDERR_LOG_LINE.exec(message);
      if (line) keep(line[1] as string);
    });
  } else if (process?.stderr) {
    readLines(process.stderr, keep);
  }
  return { process, stderrTail: () => [...tail] };
}

/** Playwright's launch error as plain text: its call log is dimmed with ANSI escapes. */
export function plainLaunchLog(message: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is taken out
  return message.replace(/\u001b\[\d+m/g, '');
}

/** The app's stderr lines as Playwright's launch error quotes them in its call log. */
export function stderrOfLaunchLog(message: string): string[] {
  return plainLaunchLog(message)
    .split('\n')
    .flatMap((line) => {
      const logged = STDERR_LOG_LINE.exec(line.replace(/^\s*- /, ''));
      return logged && !LAUNCHER_NOISE.test(logged[1] as string) ? [logged[1] as string] : [];
    })
    .slice(-STDERR_TAIL_LINES);
}

/**
 * How the app ended by itself, as the call log says (`<process did exit: exitCode=0, signal=null>`); null
 * when it did not end, or ended by a signal after the launcher's `<kill>`, which says nothing of the app.
 * An exit with a code is the app's own even after `<kill>`: the launcher kills a process whose output
 * already closed, and one that was ending anyway exits with its code before the SIGKILL lands.
 */
export function exitOfLaunchLog(message: string): ExitInfo | null {
  const log = plainLaunchLog(message);
  const exited = /<process did exit: exitCode=(\d+|null), signal=(\w+|null)>/.exec(log);
  if (!exited) return null;
  const signal = exited[2] === 'null' ? null : (exited[2] ?? null);
  if (signal !== null && log.slice(0, exited.index).includes('<kill>')) return null;
  return { code: exited[1] === 'null' ? null : Number(exited[1]), signal };
}

function serverAppOf(electron: ElectronApplication): ServerApp | undefined {
  try {
    return (electron as unknown as InProcessClient)._connection?.toImpl?.(electron) as ServerApp | undefined;
  } catch {
    return undefined;
  }
}

function processOf(electron: ElectronApplication): ChildProcess | undefined {
  try {
    return electron.process();
  } catch {
    return undefined;
  }
}
