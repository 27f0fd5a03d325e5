import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERTISED_IDLE_SECONDS } from '../server/app.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

const BODY = JSON.stringify({ query: '{ __typename }' });

/** One POST on `socket`, answered in full: its status line and headers, lower-cased. */
async function post(socket: Socket, host: string): Promise<{ status: string; headers: Map<string, string> }> {
  if (socket.readyState !== 'open')
    throw new Error(`the server closed the connection (${socket.readyState})`);
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
  );
  let received = '';
  for (;;) {
    const [chunk] = (await Promise.race([once(socket, 'data'), once(socket, 'end')])) as [Buffer?];
    if (!chunk) throw new Error(`the connection closed before an answer; read ${JSON.stringify(received)}`);
    received += chunk.toString();
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) continue;
    const [status = '', ...lines] = received.slice(0, end).split('\r\n');
    const headers = new Map(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const body = received.slice(end + 4);
    const complete = headers.has('content-length')
      ? Buffer.byteLength(body) >= Number(headers.get('content-length'))
      : body.endsWith('0\r\n\r\n');
    if (complete) return { status, headers };
  }
}

describe('idle HTTP keep-alive connections', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(() => gateway?.stop());

  it('stay open past the idle time clients are told, so a client that waits it out never meets a closing socket', async () => {
    const { host, port } = new URL(gateway.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    try {
      const first = await post(socket, host);
      expect(first.status).toBe('HTTP/1.1 200 OK');
      expect(first.headers.get('connection')).toBe('keep-alive');
      expect(first.headers.get('keep-alive')).toBe(`timeout=${ADVERTISED_IDLE_SECONDS}`);

      // A client honouring the hint is long gone by twice the told time; one that late still finds it open.
      await new Promise((resolve) => setTimeout(resolve, 2 * ADVERTISED_IDLE_SECONDS * 1000));
      const second = await post(socket, host);
      expect(second.status).toBe('HTTP/1.1 200 OK');
    } finally {
      socket.destroy();
    }
  }, 30_000);
});
