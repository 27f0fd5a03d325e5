import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useLoopbackServer } from '../../test/helpers/loopback-server.js';
import { DEVTOOLS_JSON_MAX_BYTES, type DevtoolsHttpError, getDevtoolsJson } from './devtools-http.js';

/** What a loopback port may answer: DevTools JSON, an app's own page, a stream without end, an error. */
const server = useLoopbackServer((request, response) => {
  if (request.url === '/json/version')
    response.end('{"Browser":"HeadlessChrome/140","webSocketDebuggerUrl":"ws://x"}');
  else if (request.url === '/page') response.end('<!doctype html><title>an app</title>');
  else if (request.url === '/endless') {
    const chunk = 'x'.repeat(64 * 1024);
    const pour = () => {
      while (response.write(chunk)) {}
      response.once('drain', pour);
    };
    pour();
  } else {
    response.statusCode = 404;
    response.end('not found');
  }
});
const portOf = () => Number(new URL(server.origin()).port);

function failure(path: string, port = portOf(), timeoutMs = 5_000): Promise<DevtoolsHttpError> {
  return getDevtoolsJson('127.0.0.1', port, path, timeoutMs).then(
    () => {
      throw new Error('it answered');
    },
    (error: DevtoolsHttpError) => error,
  );
}

describe('getDevtoolsJson', () => {
  it('reads a DevTools JSON answer', async () => {
    expect(await getDevtoolsJson('localhost', portOf(), '/json/version', 5_000)).toEqual({
      Browser: 'HeadlessChrome/140',
      webSocketDebuggerUrl: 'ws://x',
    });
  });

  it('rejects, never throws elsewhere, when a port answers a page that is not JSON', async () => {
    expect(await failure('/page')).toMatchObject({
      name: 'DevtoolsHttpError',
      message: expect.stringMatching(/not JSON/),
    });
    expect(await failure('/missing')).toMatchObject({ message: 'it answered HTTP 404 to /missing' });
  });

  it('stops reading an answer past its bound', async () => {
    expect(await failure('/endless')).toMatchObject({
      message: `it answered more than ${DEVTOOLS_JSON_MAX_BYTES} bytes`,
    });
  });

  it('says a closed port is refused, and a port that never answers timed out', async () => {
    const accepted: Socket[] = [];
    const silent = createServer((socket) => accepted.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const silentPort = (silent.address() as { port: number }).port;
    try {
      expect(await failure('/json/version', silentPort, 300)).toMatchObject({ timedOut: true });
    } finally {
      silent.close();
      for (const socket of accepted) socket.destroy();
    }
    await once(silent, 'close');
    expect(await failure('/json/version', silentPort)).toMatchObject({
      code: 'ECONNREFUSED',
      message: 'connection refused',
    });
  });
});
