import http from 'node:http';
import { isLoopbackHost } from './loopback.js';

type Request = typeof http.request;

let offersWithdrawn = 0;
let installed = false;

/**
 * Makes every WebSocket this process opens to a loopback host go without permessage-deflate. Playwright's
 * CDP connection always offers it (its WebSocketTransport passes fixed deflate options, and no launch or
 * connect option turns them off), Chromium and Electron accept, and then each protocol message is inflated
 * on the gateway's event loop: measured at 1,712 console lines/s and 529 µs of CPU a line through the
 * gateway with it, 4,723 lines/s and 147 µs without (bench/console-fanout.ts's page, one subscriber). On
 * loopback, compression saves no time, only spends it. The offer is withdrawn where every WebSocket client
 * here (Playwright's bundled ws, ws itself, chrome-remote-interface) sends its handshake: `http.request`,
 * looked up at call time. A server answering a handshake without the offer simply does not compress.
 * Remote endpoints (attach with allowRemote) keep their offer. Idempotent.
 */
export function keepLoopbackWebSocketsUncompressed(): void {
  if (installed) return;
  installed = true;
  const original: Request = http.request;
  const request = function (this: unknown, ...args: unknown[]) {
    const [options] = args;
    if (isLoopbackUpgradeOffer(options)) {
      const { 'Sec-WebSocket-Extensions': _offer, ...headers } = options.headers;
      args[0] = { ...options, headers };
      offersWithdrawn += 1;
    }
    return (original as (...given: unknown[]) => http.ClientRequest).apply(this, args);
  };
  http.request = request as Request;
}

/** How many deflate offers were withdrawn so far: tests check the seam still catches Playwright's. */
export function withdrawnDeflateOffers(): number {
  return offersWithdrawn;
}

interface UpgradeOptions {
  readonly host?: string;
  readonly hostname?: string;
  readonly headers: Record<string, unknown>;
}

function isLoopbackUpgradeOffer(options: unknown): options is UpgradeOptions {
  if (typeof options !== 'object' || options === null || options instanceof URL) return false;
  const { headers, host, hostname } = options as Partial<UpgradeOptions>;
  if (typeof headers !== 'object' || headers === null || !('Sec-WebSocket-Extensions' in headers))
    return false;
  if (String(headers.Upgrade ?? '').toLowerCase() !== 'websocket') return false;
  const target = hostname ?? host;
  return typeof target === 'string' && isLoopbackHost(target);
}
