import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** /proc/net/tcp's state of an established connection. */
const ESTABLISHED = '01';

/**
 * The established TCP connections process `pid` holds to local port `port` (Linux, read from /proc): a
 * socket a process leaked stays here until it closes.
 */
export function connectionsTo(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1] as string);
    } catch {
      // Closed between the listing and the read.
    }
  }
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const [, , remote, state, , , , , , inode] = line.trim().split(/\s+/);
      const remotePort = Number.parseInt(remote?.split(':')[1] ?? '', 16);
      if (state === ESTABLISHED && remotePort === port && inodes.has(inode ?? '')) count += 1;
    }
  }
  return count;
}
