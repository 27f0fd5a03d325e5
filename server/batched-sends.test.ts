import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import {
  BatchedSendWebSocket,
  FLUSH_DELAY_MS,
  STREAMING_FRAMES,
  UNSENT_BYTES_LIMIT,
} from './batched-sends.js';

let server: Server | undefined;
let client: WebSocket | undefined;
afterEach(async () => {
  vi.useRealTimers();
  client?.terminate();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A ws server with the batched socket class, as graphql-ws is given it, and one connected raw client. */
async function connected(): Promise<{
  sender: BatchedSendWebSocket;
  senderTcp: Socket;
  receiver: WebSocket;
  tcp: Socket;
}> {
  server = createServer();
  const wsServer = new WebSocketServer({ server, WebSocket: BatchedSendWebSocket });
  const accepted = new Promise<[BatchedSendWebSocket, Socket]>((resolve) =>
    wsServer.on('connection', (socket: BatchedSendWebSocket, request) => {
      socket.writesTo(request.socket);
      resolve([socket, request.socket]);
    }),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  await new Promise((resolve) => client?.once('open', resolve));
  const tcp = (client as unknown as { _socket: Socket })._socket;
  const [sender, senderTcp] = await accepted;
  return { sender, senderTcp, receiver: client, tcp };
}

/** Sends as graphql-ws does: the next frame only once the previous one's callback has run. */
const sendAwaited = (socket: WebSocket, data: string) =>
  new Promise<void>((resolve, reject) => socket.send(data, (error) => (error ? reject(error) : resolve())));

describe('BatchedSendWebSocket', () => {
  it('sends frames awaited one after another in one write', async () => {
    const { sender, senderTcp, receiver } = await connected();
    // Writable's own hooks, counted on this socket only: each call is one write to the kernel.
    let writes = 0;
    for (const hook of ['_write', '_writev'] as const) {
      const original = (senderTcp[hook] as (...args: unknown[]) => void).bind(senderTcp);
      Object.assign(senderTcp, {
        [hook]: (...args: unknown[]) => {
          writes += 1;
          original(...args);
        },
      });
    }
    const received: string[] = [];
    const all = new Promise<void>((resolve) =>
      receiver.on('message', (data) => {
        received.push(String(data));
        if (received.length === 20) resolve();
      }),
    );
    for (let n = 1; n <= 20; n += 1) await sendAwaited(sender, `frame ${n}`);
    await all;
    expect(received).toEqual(Array.from({ length: 20 }, (_, i) => `frame ${i + 1}`));
    expect(writes).toBe(1);
  });

  it('lets the frames of an answer leave at the end of their turn, and holds those of a stream for the timer', async () => {
    const { sender, senderTcp } = await connected();
    // The clock and the flush timer stand still unless told, however slowly a loaded machine runs the turns.
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    const turnEnds = () => new Promise((resolve) => setImmediate(resolve));
    const next = (n: number) => JSON.stringify({ id: '1', type: 'next', payload: { data: { n } } });
    sender.send(next(0));
    sender.send(JSON.stringify({ id: '1', type: 'complete' }));
    expect(senderTcp.writableCorked).toBe(1);
    await turnEnds();
    expect(senderTcp.writableCorked).toBe(0);
    // One event a turn, as a flood arrives: past STREAMING_FRAMES the connection waits for the timer.
    for (let frame = 1; frame <= STREAMING_FRAMES; frame += 1) {
      sender.send(next(frame));
      await turnEnds();
    }
    expect(senderTcp.writableCorked).toBe(1);
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(senderTcp.writableCorked).toBe(0);
    // An answer's end does not wait for the stream's timer.
    sender.send(next(STREAMING_FRAMES + 1));
    expect(senderTcp.writableCorked).toBe(1);
    sender.send(JSON.stringify({ id: '2', type: 'complete' }));
    await turnEnds();
    expect(senderTcp.writableCorked).toBe(0);
  });

  it('makes a sender wait once a reader that stopped leaves UNSENT_BYTES_LIMIT unsent, never holding more', async () => {
    const { sender, tcp } = await connected();
    tcp.pause();
    const frame = 'x'.repeat(16 * 1024);
    // Loopback kernel buffers take a few MB first; a sender never told to wait would run to the end.
    for (let sent = 0; sent < 4_000; sent += 1) {
      let done = false;
      const send = sendAwaited(sender, frame).then(() => {
        done = true;
      });
      await Promise.resolve();
      if (!done) {
        expect(sender.bufferedAmount).toBeLessThan(UNSENT_BYTES_LIMIT + 2 * frame.length);
        tcp.resume();
        await send;
        return;
      }
    }
    throw new Error('every send reported done at once: nothing held the sender back');
  });
});
