// Issue 31, found by the schema fuzz: a DELETE carrying a body, sent by Node's own client, was answered twice —
// its 405, then a 400 for the body's bytes, after a `Connection: close` — and the client read a corrupt
// stream. Node's client sends a DELETE, GET, HEAD or OPTIONS body with neither Content-Length nor chunking, so
// the server's parser meets the body as bytes that are no request. Every method with any body gets one answer.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

const BODY = JSON.stringify({ query: '{ __typename }' });
const METHODS = ['DELETE', 'PUT', 'PATCH', 'GET', 'HEAD', 'OPTIONS', 'POST'] as const;
/** A deadline on reading one exchange to the server's close: it answers in milliseconds when it works. */
const EXCHANGE_DEADLINE_MS = 30_000;

/** Sends `text` on a fresh connection and reads everything the server writes until it closes it. */
async function rawExchange(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  const deadline = setTimeout(() => socket.destroy(new Error('no close')), EXCHANGE_DEADLINE_MS);
  try {
    await once(socket, 'connect');
    socket.write(text);
    await once(socket, 'close');
  } finally {
    clearTimeout(deadline);
  }
  return received;
}

/** One request through Node's http client, as the fuzz sends it: the status, or the client's error. */
function nodeClient(url: string, method: string, keepAlive: boolean): Promise<string> {
  return new Promise((resolve) => {
    const agent = new Agent({ keepAlive });
    const request = httpRequest(
      url,
      {
        method,
        agent,
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          // A second response after the first shows as a parse error on the socket once the first is read.
          setImmediate(() => {
            agent.destroy();
            resolve(`status ${response.statusCode}`);
          });
        });
      },
    );
    request.on('error', (error) => {
      agent.destroy();
      resolve(`error ${error.message}`);
    });
    request.end(Buffer.from(BODY));
  });
}

/** Status lines wherever they start: a second response follows the first one's body on the same line. */
const statusLines = (received: string) => received.match(/HTTP\/1\.1 \d{3} /g) ?? [];

describe('a request whose body the server cannot frame', () => {
  let gateway: GatewayProcess;
  const artifacts = mkdtempSync(join(tmpdir(), 'unframed-body-'));
  beforeAll(async () => {
    gateway = await serveInChild(['--artifacts', artifacts]);
  }, 120_000);
  afterAll(async () => {
    gateway?.child.kill('SIGTERM');
    await gateway?.exited;
    rmSync(artifacts, { recursive: true, force: true });
  });

  it.each(METHODS)(
    '%s with a body, from Node’s client, gets one answer and no bytes after it',
    async (method) => {
      for (const keepAlive of [false, true]) {
        const outcome = await nodeClient(gateway.url, method, keepAlive);
        expect(outcome, `keepAlive: ${keepAlive}`).toMatch(/^status \d{3}$/);
      }
    },
  );

  it.each(METHODS)(
    '%s with an unframed body after Connection: close or keep-alive: one response on the wire',
    async (method) => {
      const { host } = new URL(gateway.url);
      for (const connection of ['close', 'keep-alive']) {
        const received = await rawExchange(
          gateway.url,
          `${method} /graphql HTTP/1.1\r\nHost: ${host}\r\nConnection: ${connection}\r\n` +
            `Content-Type: application/json\r\nAccept: application/json\r\n\r\n${BODY}`,
        );
        expect(statusLines(received), `${connection}: ${received}`).toHaveLength(1);
      }
    },
  );

  it('still answers bytes that are not HTTP, sent first on a connection, with its registered refusal', async () => {
    const received = await rawExchange(gateway.url, `${BODY}\r\n\r\n`);
    expect(statusLines(received)).toEqual(['HTTP/1.1 400 ']);
    expect(received).toContain('"code":"BAD_REQUEST"');
  });

  it('still refuses unreadable bytes sent on a kept-alive connection after its last answer', async () => {
    const { host, port } = new URL(gateway.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    const closed = once(socket, 'close');
    const deadline = setTimeout(() => socket.destroy(), EXCHANGE_DEADLINE_MS);
    try {
      await once(socket, 'connect');
      let answered: () => void = () => {};
      const firstAnswer = new Promise<void>((resolve) => {
        answered = resolve;
      });
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (statusLines(received).length === 1 && received.endsWith('}')) answered();
      });
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Accept: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
      );
      await firstAnswer;
      // A request answered on another connection: the server is past its first answer's end too.
      expect(await nodeClient(gateway.url, 'POST', false)).toBe('status 200');
      socket.write('not http\r\n\r\n');
      await closed;
    } finally {
      clearTimeout(deadline);
    }
    expect(statusLines(received), received).toEqual(['HTTP/1.1 200 ', 'HTTP/1.1 400 ']);
  });

  it('answers the next request on a new connection', async () => {
    expect(await nodeClient(gateway.url, 'POST', false)).toBe('status 200');
  });
});
