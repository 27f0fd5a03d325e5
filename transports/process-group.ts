import { readdirSync, readFileSync } from 'node:fs';
import type { ExitInfo } from './contract.js';

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
    const stat = readProcStat(entry);
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

function readProcStat(pid: string): { state: string; pgid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields resume after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgid: Number(fields[2]) };
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
  /** Asks the app to quit on its own terms (e.g. `app.quit()` in the main process). */
  readonly graceful: () => Promise<unknown>;
  readonly graceMs: number;
}

/**
 * Stops a process group within a bound: graceful quit, then SIGTERM, then SIGKILL. Whatever the leader
 * did, the rest of the group (renderers, a browser it spawned) is SIGKILLed afterwards so nothing outlives
 * the session.
 */
export async function stopProcessGroup(plan: StopPlan): Promise<ExitInfo> {
  plan.graceful().catch(() => undefined);
  let outcome = await within(plan.exited, plan.graceMs);
  if (outcome === 'timeout') {
    signalGroup(plan.pgid, 'SIGTERM');
    outcome = await within(plan.exited, TERM_GRACE_MS);
  }
  if (outcome === 'timeout') {
    signalGroup(plan.pgid, 'SIGKILL');
    outcome = await within(plan.exited, KILL_SETTLE_MS);
  }
  await reapGroup(plan.pgid);
  return outcome === 'timeout' ? { code: null, signal: 'SIGKILL' } : outcome;
}

/** SIGKILLs whatever is left of a group and waits for it to clear. */
export async function reapGroup(pgid: number): Promise<void> {
  if (livingGroupMembers(pgid).length === 0) return;
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupGone(pgid, KILL_SETTLE_MS);
}
