import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Starts `server` on 127.0.0.1 and a free port; resolves to its origin, e.g. http://127.0.0.1:41234. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * An HTTP server on loopback for a whole test file: listening before its tests, closed after them (its
 * open connections too). `origin()` is its origin once the tests run.
 */
export function useLoopbackServer(handler: RequestListener): { origin(): string } {
  const server = createServer(handler);
  let origin = '';
  beforeAll(async () => {
    origin = await listenOnLoopback(server);
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: () => origin };
}
