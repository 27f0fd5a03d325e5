import { isLoopbackHost } from '../../transports/process/loopback.js';

/** Binds that accept connections for any host name on their port. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The gateway's own pages (the observer console, GraphiQL), as windows an agent could attach to: in a
 * browser where an approver is signed in, a click on "Approve" there would let an agent answer its own
 * request. The gateway never acts on them; it reads them like any page.
 */
export class OwnPages {
  #port: number | null = null;
  #hosts = new Set<string>();
  #anyHost = false;

  /** Called once the server listens: its port, and the host names it answers to besides loopback ones. */
  serveAt(port: number, hosts: readonly string[]): void {
    this.#port = port;
    this.#hosts = new Set(hosts.map((host) => host.toLowerCase()));
    this.#anyHost = hosts.some((host) => WILDCARD_BINDS.has(host));
  }

  /** Whether `url` is a page this gateway serves. */
  holds(url: string | null | undefined): boolean {
    if (this.#port === null || !url) return false;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    if (port !== this.#port) return false;
    const host = parsed.hostname.toLowerCase();
    return this.#anyHost || isLoopbackHost(host) || this.#hosts.has(host);
  }
}
