import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Which process listens on which TCP port, read from /proc (Linux only; elsewhere every answer is empty).
 * Attach uses it to name the process behind a debugging port, inject to find the inspector port a process
 * opened, since a process we did not start tells nobody where it listens.
 */

const TCP_LISTEN = '0A';

interface ListeningSocket {
  readonly inode: string;
  readonly port: number;
  /** True when bound to a loopback address or to every address (which includes loopback). */
  readonly reachableOnLoopback: boolean;
}

/** Every listening TCP socket of this network namespace. */
function listeningSockets(): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== TCP_LISTEN) continue;
      const [address = '', portHex = ''] = (fields[1] ?? '').split(':');
      sockets.push({
        inode: fields[9] ?? '',
        port: Number.parseInt(portHex, 16),
        reachableOnLoopback: isLoopbackOrAny(address),
      });
    }
  }
  return sockets;
}

/** /proc writes addresses as hex words in host byte order: 0100007F is 127.0.0.1. */
function isLoopbackOrAny(hex: string): boolean {
  if (/^0+$/.test(hex)) return true;
  if (hex.length === 8) return hex.endsWith('7F');
  // ::1, and ::ffff:127.x.x.x (v4-mapped loopback)
  return hex === '00000000000000000000000001000000' || /^0000000000000000FFFF0000[0-9A-F]{6}7F$/.test(hex);
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // The descriptor closed while we read the folder.
    }
  }
  return inodes;
}

/** Ports the process listens on that loopback clients can reach, lowest first. */
export function loopbackPortsOf(pid: number): number[] {
  const inodes = socketInodes(pid);
  if (inodes.size === 0) return [];
  const ports = listeningSockets()
    .filter((socket) => socket.reachableOnLoopback && inodes.has(socket.inode))
    .map((socket) => socket.port);
  return [...new Set(ports)].sort((a, b) => a - b);
}

/** The process listening on a loopback-reachable port, when this user may see it. */
export function listenerOf(port: number): number | null {
  const wanted = new Set(
    listeningSockets()
      .filter((socket) => socket.port === port && socket.reachableOnLoopback)
      .map((socket) => socket.inode),
  );
  if (wanted.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  for (const pid of pids) {
    for (const inode of socketInodes(Number(pid))) if (wanted.has(inode)) return Number(pid);
  }
  return null;
}

/** The executable a process runs, when readable. */
export function executableOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** The process's command line as its arguments; empty when it is gone or unreadable. */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

export function parentOf(pid: number): number | null {
  try {
    const match = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
