import { readFileSync } from 'node:fs';
import { findInspector } from '../main-agent/main-inspector.js';
import { loopbackPortsOf } from '../process/proc-sockets.js';
import { delay } from '../process/process-group.js';
import type { InjectDeadline } from './inject-deadline.js';
import { injectFailed } from './inject-failed.js';

/** How often the process's listening ports are read while its inspector opens. */
const PORT_POLL_MS = 100;
/** Linux numbers SIGUSR1 10: bit 9 of the masks in /proc/<pid>/status. */
const SIGUSR1_BIT = 9n;

export interface InspectorEndpoint {
  readonly port: number;
  readonly webSocketDebuggerUrl: string;
  /** False when the inspector was open before inject: detach then leaves it open, as it found it. */
  readonly openedHere: boolean;
}

/**
 * Opens the Node inspector of a running process the way `process._debugProcess(pid)` does (SIGUSR1 on
 * POSIX) and finds its websocket among the loopback ports that process listens on — an inspector started
 * by signal listens on its configured port (9229 unless --inspect-port said otherwise) and tells only its
 * own stderr. Refuses a process that does not handle SIGUSR1: for anything but Node the signal is fatal.
 */
export async function openInspector(pid: number, deadline: InjectDeadline): Promise<InspectorEndpoint> {
  if (pid === process.pid) throw injectFailed(pid, 'that is the Stagegraph server itself');
  const signals = signalMasks(pid);
  if (!signals) throw injectFailed(pid, 'no such process');
  const already = await findInspector(pid);
  if (already) return { ...already, openedHere: false };
  if (!signals.catchesUsr1) {
    throw injectFailed(
      pid,
      `${signals.name} is not a Node or Electron main process: it does not handle SIGUSR1, and the signal would end it`,
    );
  }
  const before = loopbackPortsOf(pid);
  process.kill(pid, 'SIGUSR1');
  while (!deadline.expired) {
    await delay(Math.min(PORT_POLL_MS, deadline.remainingMs()));
    const found = await findInspector(pid, before);
    if (found) return { ...found, openedHere: true };
    if (!signalMasks(pid)) throw injectFailed(pid, 'the process exited while its inspector was opening');
  }
  // Its inspector port, 9229 by default, may be taken; the app may disable the inspector, or be stopped.
  throw deadline.timedOut('waiting for its inspector to open after SIGUSR1');
}

function signalMasks(pid: number): { name: string; catchesUsr1: boolean } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)$`, 'm').exec(status)?.[1] ?? '';
  if (field('State').startsWith('Z')) return null;
  const caught = BigInt(`0x${field('SigCgt') || '0'}`);
  return { name: field('Name') || `pid ${pid}`, catchesUsr1: ((caught >> SIGUSR1_BIT) & 1n) === 1n };
}
