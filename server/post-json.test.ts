import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './post-json.js';

describe('postJson', () => {
  let server: Server;
  let url = '';
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const answers: Record<string, (response: ServerResponse) => void> = {
    '/json': (response) => response.end('{"data":{"ok":"é"}}'),
    '/html': (response) => response.end('<html>bad gateway</html>'),
    '/cut': (response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"data":');
      response.socket?.destroy();
    },
    // Never answers: the caller's signal ends the call.
    '/silent': () => {},
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        answers[request.url ?? '']?.(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the body with its length and the headers given, and answers the JSON sent back', async () => {
    const body = JSON.stringify({ query: '{ ok }', variables: { s: 'ü' } });
    const answer = await postJson(`${url}/json`, { 'x-test': '1' }, body, new AbortController().signal);
    expect(answer).toEqual({ data: { ok: 'é' } });
    expect(received.at(-1)).toMatchObject({
      body,
      headers: { 'x-test': '1', 'content-length': String(Buffer.byteLength(body)) },
    });
  });

  it('rejects an answer that is not JSON, one cut off, and a call its signal aborts', async () => {
    const never = new AbortController().signal;
    await expect(postJson(`${url}/html`, {}, '{}', never)).rejects.toThrow();
    await expect(postJson(`${url}/cut`, {}, '{}', never)).rejects.toThrow();
    const aborted = new AbortController();
    const before = received.length;
    const call = postJson(`${url}/silent`, {}, '{}', aborted.signal);
    await expect.poll(() => received.length).toBe(before + 1);
    aborted.abort();
    await expect(call).rejects.toThrow();
  });
});
