import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Whether a host name or address stays on this machine: `localhost`, 127.0.0.0/8 and ::1 (bare, or
 * bracketed as a URL's hostname gives it). The one answer for what the server binds to, which peers
 * count as local, which pages are its own, and which DevTools endpoints need no opt-in.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}
