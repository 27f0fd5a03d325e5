import { readdirSync, readFileSync } from 'node:fs';
import { livingGroupMembers, procStat } from '../../transports/process/process-group.js';

export { livingGroupMembers };

/** Waits until no live process remains in any of the groups, or fails naming the survivors. */
export async function expectGroupsGone(pgids: readonly number[], timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const survivors = pgids.flatMap((pgid) => livingGroupMembers(pgid));
    if (survivors.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes still alive: ${survivors.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether `pid` is a live process (not a zombie). */
export function isAlive(pid: number): boolean {
  const state = procStat(pid)?.state;
  return state !== undefined && state !== 'Z';
}

/** Waits until none of `pids` is alive, or fails naming the survivors. */
export async function expectPidsGone(pids: readonly number[], timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const survivors = pids.filter(isAlive);
    if (survivors.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes still alive: ${survivors.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Live processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return livePids().filter((candidate) => procStat(candidate)?.ppid === pid);
}

/** The live Chromium renderer processes of a group: the pages of the stand-in's windows. */
export function rendererPids(pgid: number): number[] {
  // Chromium rewrites its process title, so its switches may arrive as one space-separated string.
  return livingGroupMembers(pgid).filter((pid) => commandLine(pid).join(' ').includes('--type=renderer'));
}

/** Sends `signal` to each pid still there; a process that has gone meanwhile is no error. */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function livePids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter(isAlive);
}
