import { readdirSync, readFileSync } from 'node:fs';
import { signalGroup } from '../transports/process/process-group.js';

/** How long a shutdown may take after SIGINT/SIGTERM before whatever is still in flight is abandoned. */
export const SHUTDOWN_BOUND_MS = 10_000;

/**
 * Bounds the shutdown the first SIGINT/SIGTERM starts: the orderly stop (sessions ended within their
 * grace, operations recorded) gets `boundMs`; past it, a log line says so, every process this server
 * started is SIGKILLed with its group, and the process exits with 1 — whatever call was still hanging.
 */
export function boundShutdown(log: (line: string) => void, boundMs = SHUTDOWN_BOUND_MS): void {
  const arm = (signal: NodeJS.Signals) => {
    process.off('SIGINT', arm);
    process.off('SIGTERM', arm);
    setTimeout(() => {
      const killed = killStartedGroups();
      log(
        `${signal}: shutdown did not finish within ${boundMs} ms; abandoning what is in flight and killing ${killed} process group(s) this server started.`,
      );
      process.exit(1);
    }, boundMs).unref();
  };
  process.on('SIGINT', arm);
  process.on('SIGTERM', arm);
}

/** SIGKILLs every process group this server started, for an exit that cannot wait for an orderly stop; returns how many. */
export function killStartedGroups(): number {
  const children = childrenOfThisProcess();
  // Each app the server starts leads its own group; a child that does not is killed by itself.
  for (const pid of children) if (!signalGroup(pid, 'SIGKILL')) signalPid(pid);
  return children.length;
}

function childrenOfThisProcess(): number[] {
  const children: number[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const listed = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim();
      if (listed) children.push(...listed.split(/\s+/).map(Number));
    } catch {
      // The thread ended while being read.
    }
  }
  return children;
}

function signalPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
