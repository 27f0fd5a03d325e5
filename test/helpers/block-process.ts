import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { procStat } from '../../transports/process/process-group.js';
import { expectGroupsGone, expectPidsGone, isAlive } from './processes.js';

/**
 * A documented command run as a user runs it in a terminal: in a process group of its own (the terminal's
 * foreground job), its output collected, stopped with Ctrl-C — SIGINT to the whole group — when it is a
 * server or a watch that runs until stopped, and checked to leave no process behind.
 */

/** Safety nets only: a loaded machine (load 15 on 2 cores) takes a minute to start Chromium. */
export const BLOCK_TIMEOUT_MS = 240_000;
/** How long every process a stopped command started gets to end after Ctrl-C: the gateway's own shutdown bound and then some. */
const STOP_TIMEOUT_MS = 30_000;

export interface BlockProcess {
  readonly child: ChildProcess;
  /** stdout and stderr as they came, interleaved. */
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startBlockProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): BlockProcess {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the output; rejects when the process ends first or at the deadline. */
export async function whenOutput(
  running: BlockProcess,
  pattern: RegExp,
  timeoutMs = BLOCK_TIMEOUT_MS,
): Promise<RegExpExecArray> {
  let ended = false;
  void running.exited.then(() => {
    ended = true;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(running.output());
    if (match) return match;
    if (ended) throw new Error(`ended before printing ${pattern}:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`never printed ${pattern}:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits for the process to end by itself, within the safety net, and for its group to be empty; kills the
 * group (and fails) if it does not end.
 */
export async function finished(running: BlockProcess, timeoutMs = BLOCK_TIMEOUT_MS) {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const result = await Promise.race([running.exited, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    await stopLikeCtrlC(running);
    throw new Error(`still running after ${timeoutMs} ms:\n${running.output()}`);
  }
  // A command the block left running in the background (`&`) is a leak, as a stopped server's would be.
  await expectGroupsGone([running.child.pid!], STOP_TIMEOUT_MS);
  return result;
}

/**
 * Ctrl-C: SIGINT to the group, then every process the command had started must be gone. Resolves with how
 * the group's leader ended.
 */
export async function stopLikeCtrlC(running: BlockProcess) {
  const leader = running.child.pid!;
  const started = [leader, ...descendantsOf(leader)];
  try {
    process.kill(-leader, 'SIGINT');
  } catch {
    // The group is gone already.
  }
  const ended = await running.exited;
  await expectPidsGone(started, STOP_TIMEOUT_MS);
  return ended;
}

/** Every live process below `pid`, however deep, whatever its group. */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = procStat(Number(entry))?.ppid;
    if (ppid !== undefined) parentOf.set(Number(entry), ppid);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next.filter(isAlive));
    frontier = next;
  }
  return found;
}
