import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { keepLoopbackWebSocketsUncompressed, withdrawnDeflateOffers } from './uncompressed-websockets.js';

let server: WebSocketServer;
let url: string;
beforeAll(async () => {
  // A server that compresses whenever a client offers to: as Chromium's DevTools server does.
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: { threshold: 0 } });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => socket.send('hello'));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Connects as a client offering permessage-deflate; answers what was negotiated and the first message. */
async function negotiated(): Promise<{ extensions: string; message: string }> {
  const client = new WebSocket(url, { perMessageDeflate: true });
  const message = await new Promise<string>((resolve, reject) => {
    client.once('message', (data) => resolve(String(data)));
    client.once('error', reject);
  });
  const { extensions } = client;
  client.close();
  return { extensions, message };
}

describe('WebSockets to loopback', () => {
  it('negotiate compression when offered, before the seam is installed', async () => {
    expect(await negotiated()).toEqual({ extensions: 'permessage-deflate', message: 'hello' });
  });

  it('go uncompressed once it is: the offer is withdrawn from the handshake, and messages still arrive', async () => {
    keepLoopbackWebSocketsUncompressed();
    keepLoopbackWebSocketsUncompressed();
    const before = withdrawnDeflateOffers();
    expect(await negotiated()).toEqual({ extensions: '', message: 'hello' });
    expect(withdrawnDeflateOffers()).toBe(before + 1);
  });
});
