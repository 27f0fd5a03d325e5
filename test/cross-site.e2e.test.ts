import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

// Raw node:http and ws clients, so every header a browser would send (Origin, Host, Sec-Fetch-*) is set
// exactly; the hostile page in real Chromium is hostile-page.e2e.test.ts.
const ALLOWED = 'http://localhost:3999';
const LAUNCH = 'mutation { launchCommand(input: { command: "/usr/bin/true" }) { id } }';
let gateway: RunningGateway;
let port: number;

beforeAll(async () => {
  gateway = await startGateway({ allowedOrigins: [ALLOWED] });
  port = Number(new URL(gateway.url).port);
});
afterAll(() => gateway?.stop());

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (query: string) => JSON.stringify({ query });
const codeOf = (answer: Answer) =>
  (JSON.parse(answer.body) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code;

function upgrade(headers: Record<string, string>): Promise<{ status: number; body: string } | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

async function sessionCount(): Promise<number> {
  const answer = await send(
    'POST',
    '/graphql',
    { 'content-type': 'application/json' },
    json('{ sessions { id } }'),
  );
  return (JSON.parse(answer.body) as { data: { sessions: unknown[] } }).data.sessions.length;
}

describe('cross-site requests to a loopback gateway with no token', () => {
  it('refuses a JSON POST from a foreign origin, and names no CORS headers for it', async () => {
    const answer = await send(
      'POST',
      '/graphql',
      { origin: 'http://evil.example', 'content-type': 'application/json' },
      json(LAUNCH),
    );
    expect(answer.status).toBe(403);
    expect(codeOf(answer)).toBe('FORBIDDEN_ORIGIN');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(await sessionCount()).toBe(0);
  });

  it.each([
    ['application/x-www-form-urlencoded', `query=${encodeURIComponent(LAUNCH)}`],
    ['text/plain', json(LAUNCH)],
    [
      'multipart/form-data; boundary=b',
      `--b\r\ncontent-disposition: form-data; name="query"\r\n\r\n${LAUNCH}\r\n--b--`,
    ],
  ])('refuses a %s POST, from a foreign origin and from none', async (type, body) => {
    const foreign = await send(
      'POST',
      '/graphql',
      { origin: 'http://evil.example', 'content-type': type },
      body,
    );
    expect(foreign.status).toBe(403);
    const bare = await send('POST', '/graphql', { 'content-type': type }, body);
    expect(bare.status).toBe(415);
    expect(codeOf(bare)).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect(await sessionCount()).toBe(0);
  });

  it('refuses a foreign CORS preflight without allow headers', async () => {
    const answer = await send('OPTIONS', '/graphql', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('refuses a WebSocket upgrade from a foreign origin, or the opaque one, with the code in the body', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${port + 1}`, 'null']) {
      const answer = await upgrade({ origin });
      expect(answer).toMatchObject({ status: 403 });
      expect(JSON.parse((answer as { body: string }).body).errors[0].extensions.code).toBe(
        'FORBIDDEN_ORIGIN',
      );
    }
  });

  it('refuses a rebound Host on HTTP and on the upgrade', async () => {
    const answer = await send(
      'POST',
      '/graphql',
      { host: `evil.example:${port}`, 'content-type': 'application/json' },
      json('{ sessions { id } }'),
    );
    expect(answer.status).toBe(403);
    expect(codeOf(answer)).toBe('FORBIDDEN_HOST');
    expect(await upgrade({ host: `evil.example:${port}` })).toMatchObject({ status: 403 });
    const artifact = await send('GET', '/artifacts/s1/x.png', { host: `evil.example:${port}` });
    expect(artifact.status).toBe(403);
  });

  it('refuses a cross-site GET without Origin (an <img> or <script>), for GraphQL and artifacts', async () => {
    const img = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };
    const query = `/graphql?query=${encodeURIComponent('{ sessions { id } }')}`;
    expect((await send('GET', query, img)).status).toBe(403);
    expect((await send('GET', '/artifacts/s1/x.png', img)).status).toBe(403);
  });

  it('never runs a mutation over GET', async () => {
    const answer = await send('GET', `/graphql?query=${encodeURIComponent(LAUNCH)}`, {
      accept: 'application/json',
    });
    expect(answer.status).toBe(405);
    expect(await sessionCount()).toBe(0);
  });

  it('serves its own origin, clients without Origin, and --allow-origin with CORS for it alone', async () => {
    const own = await send(
      'POST',
      '/graphql',
      {
        origin: `http://127.0.0.1:${port}`,
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
      },
      json('{ sessions { id } }'),
    );
    expect(own.status).toBe(200);
    const allowed = await send(
      'POST',
      '/graphql',
      { origin: ALLOWED, 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
      json('{ sessions { id } }'),
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    const localhost = await send(
      'POST',
      '/graphql',
      { host: `localhost:${port}`, 'content-type': 'application/json; charset=utf-8' },
      json('{ sessions { id } }'),
    );
    expect(localhost.status).toBe(200);
    expect(await upgrade({ origin: `http://127.0.0.1:${port}` })).toBe('open');
    expect(await upgrade({ origin: ALLOWED })).toBe('open');
    expect(await upgrade({})).toBe('open');
    const page = await send('GET', '/graphql', {
      accept: 'text/html',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
