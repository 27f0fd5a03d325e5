import { readdirSync, readFileSync } from 'node:fs';
import type { ExitInfo } from '../contract/transport-events.js';

/** How long SIGTERM may take before the group is SIGKILLed. */
export const TERM_GRACE_MS = 2_000;
/** How long to wait for the kernel to clear a SIGKILLed group before reporting survivors. */
export const KILL_SETTLE_MS = 2_000;
const POLL_MS = 25;

/** Sends `signal` to every process of the group led by `pgid`; false when none was there. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Live (non-zombie) members of a process group. Zombies are excluded: an orphan reparented to an init
 * that does not reap stays a zombie, holds no resources, and cannot be killed any further.
 */
export function livingGroupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') return signalGroupProbe(pgid) ? [pgid] : [];
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgid === pgid && stat.state !== 'Z') members.push(Number(entry));
  }
  return members;
}

function signalGroupProbe(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A process's state letter, parent, group and start time from /proc (Linux); undefined once it has gone. */
export function procStat(
  pid: number,
): { state: string; ppid: number; pgid: number; startTicks: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields resume after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // startTicks (field 22, clock ticks since boot) tells a process from a later one that reused its pid.
    return {
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      startTicks: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

export async function waitForGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (livingGroupMembers(pgid).length > 0) {
    if (Date.now() >= deadline) return false;
    await delay(POLL_MS);
  }
  return true;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface StopPlan {
  readonly pgid: number;
  /** Resolves when the group leader has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Asks the app to quit on its own terms (SIGINT to the group, `app.quit()` in the main process). */
  readonly graceful: () => Promise<unknown>;
  readonly graceMs: number;
}

/**
 * Stops a process group within a bound: the graceful quit, then SIGTERM, then SIGKILL, each sent only when
 * the group (leader and everything it spawned) has not ended by the step's deadline. Nothing else moves the
 * ladder on: a dropped connection or an early leader exit does not cut a grace short. The leader's own
 * exit is reported, or a SIGKILL when it outlived the ladder.
 */
export async function stopProcessGroup(plan: StopPlan): Promise<ExitInfo> {
  let exit: ExitInfo | undefined;
  void plan.exited.then((leader) => {
    exit = leader;
  });
  plan.graceful().catch(() => undefined);
  const steps: [NodeJS.Signals | null, number][] = [
    [null, plan.graceMs],
    ['SIGTERM', TERM_GRACE_MS],
    ['SIGKILL', KILL_SETTLE_MS],
  ];
  for (const [signal, ms] of steps) {
    if (signal) signalGroup(plan.pgid, signal);
    if (await groupEnds(plan.pgid, plan.exited, ms)) break;
  }
  await reapGroup(plan.pgid);
  return exit ?? { code: null, signal: 'SIGKILL' };
}

/** Whether the leader has exited and the rest of its group gone within `ms`. */
async function groupEnds(pgid: number, exited: Promise<ExitInfo>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  if ((await within(exited, ms)) === 'timeout') return false;
  return waitForGroupGone(pgid, Math.max(0, deadline - Date.now()));
}

/** SIGKILLs whatever is left of a group and waits for it to clear; false when something outlived that. */
export async function reapGroup(pgid: number): Promise<boolean> {
  if (livingGroupMembers(pgid).length === 0) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitForGroupGone(pgid, KILL_SETTLE_MS);
}
