import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_CODES } from '../errors/registry.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../server/request-limits.js';
import { wsClient } from './helpers/gateway.js';
import { gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

// A plain loopback gateway, served as users start it, sent what careless and hostile agents send.
const FILL =
  'mutation($v: String!) { fill(session: "s9999", target: { ref: "e1" }, value: $v) { elapsedMs } }';
const SESSIONS = '{ sessions { id } }';
/** A safety net for a loaded machine; none of these waits is a measure of speed. */
const EVENT_SAFETY_NET_MS = 60_000;

let served: GatewayProcess;
let dir: string;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-request-limits-'));
  served = await serveInChild(['--artifacts', join(dir, 'artifacts'), '--audit-dir', join(dir, 'audit')]);
  port = Number(new URL(served.url).port);
});

afterAll(async () => {
  if (served?.child.exitCode === null) {
    served.child.kill('SIGTERM');
    await served.exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A raw request, so the body, the query string and the headers are exactly what is sent. */
function send(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends one message on a fresh graphql-ws connection once it is acknowledged; resolves with how it closed. */
function sendOnWs(message: string): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(served.wsUrl, 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') socket.send(message);
    });
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    socket.on('error', reject);
  });
}

/** The first error of a JSON answer, or of an SSE answer's first event, with its extensions. */
function firstError(body: string): Loose {
  const json = body.startsWith('{') ? body : (/^data: (\{.*\})$/m.exec(body)?.[1] ?? '{}');
  const error = (JSON.parse(json) as Loose).errors?.[0];
  return { message: error?.message, ...error?.extensions };
}

/** What every client mistake must carry: a registered code, never retryable, a hint and next actions. */
function expectClientMistake(error: Loose, code: keyof typeof ERROR_CODES): void {
  expect(error).toMatchObject({ code, retryable: false, hint: expect.any(String) });
  expect(Array.isArray(error.nextActions)).toBe(true);
  expect(ERROR_CODES[code].retryable).toBe(false);
}

describe('oversize input', () => {
  it('a million-character argument is answered with a registered code while another client keeps being answered', async () => {
    const agent = gatewayClient(served.url);
    const other = gatewayClient(served.url);
    const big = agent.send(FILL, { v: 'a'.repeat(1_000_000) });
    const inline = agent.send(
      `mutation { fill(session: "s9999", target: { ref: "e1" }, value: "${'b'.repeat(20_000)}") { elapsedMs } }`,
    );
    // Before the fix the audit's e-mail pattern scanned the million characters from each of them: the
    // server answered nothing, these probes included, for many minutes.
    const probes = await Promise.all([other.data(SESSIONS), other.data(SESSIONS), other.data(SESSIONS)]);
    expect(probes).toEqual([{ sessions: [] }, { sessions: [] }, { sessions: [] }]);
    const answers = await Promise.all([big, inline]);
    for (const answer of answers) expect(answer.errors?.[0]?.extensions?.code).toBe('SESSION_NOT_FOUND');
  });

  it('holds /graphql, GET, /mcp and graphql-ws to one request limit, refused unread with REQUEST_TOO_LARGE', async () => {
    const over = 'a'.repeat(DEFAULT_MAX_REQUEST_BYTES + 1);
    const post = await send('POST', '/graphql', JSON.stringify({ query: FILL, variables: { v: over } }));
    expect(post.status).toBe(413);
    expectClientMistake(firstError(post.body), 'REQUEST_TOO_LARGE');

    const mcp = await send(
      'POST',
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { over } }),
      {
        accept: 'application/json, text/event-stream',
      },
    );
    expect(mcp.status).toBe(413);
    expectClientMistake(firstError(mcp.body), 'REQUEST_TOO_LARGE');

    const get = await send('GET', `/graphql?query=${encodeURIComponent(SESSIONS)}&pad=${over}`);
    expect(get.status).toBe(414);
    expectClientMistake(firstError(get.body), 'REQUEST_TOO_LARGE');
    const pastHeaders = await send(
      'GET',
      `/graphql?query=${encodeURIComponent(SESSIONS)}&pad=${over}${over}`,
    );
    expect(pastHeaders.status).toBe(431);
    expectClientMistake(firstError(pastHeaders.body), 'REQUEST_TOO_LARGE');

    const query = `query { sessions { id } } # ${over}`;
    expect(await sendOnWs(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }))).toEqual({
      code: 1009,
      reason: expect.stringMatching(/^REQUEST_TOO_LARGE: a message is over 1048576 bytes/),
    });
    const deep = `{"id":"1","type":"subscribe","payload":{"query":"{ sessions { id } }","variables":${'['.repeat(300_000)}`;
    expect(await sendOnWs(deep)).toEqual({
      code: 1009,
      reason: expect.stringMatching(/^REQUEST_TOO_LARGE: a message nests deeper/),
    });

    expect(await gatewayClient(served.url).data(SESSIONS)).toEqual({ sessions: [] });
  });
});

describe('client mistakes', () => {
  it('are answered with registered codes that are not retryable, over GET, POST and SSE', async () => {
    const get = await send('GET', `/graphql?query=${encodeURIComponent('{sessions{id}}')}&variables=notjson`);
    expect(get.status).toBe(400);
    expectClientMistake(firstError(get.body), 'BAD_REQUEST');

    const agent = gatewayClient(served.url);
    expectClientMistake(await agent.failure(FILL, { v: 5 }), 'VARIABLES_INVALID');
    expectClientMistake(
      await agent.failure(
        'mutation($t: TargetInput!) { click(session: "s9999", target: $t) { elapsedMs } }',
        {
          t: { bogus: 1 },
        },
      ),
      'VARIABLES_INVALID',
    );
    expectClientMistake(
      await agent.failure('query($id: ID!) { session(id: $id) { id } }', {}),
      'VARIABLES_INVALID',
    );
    const unknown = await agent.failure('{ sessions { id nope } }');
    expectClientMistake(unknown, 'GRAPHQL_VALIDATION_FAILED');
    expect(unknown.nextActions[0]).toMatch(/__type\(name: "Session"\)/);
    expectClientMistake(firstError((await send('POST', '/graphql', 'notjson')).body), 'BAD_REQUEST');

    const asJson = await send(
      'POST',
      '/graphql',
      JSON.stringify({ query: 'subscription { audit { record { seq } } }' }),
      { accept: 'application/json' },
    );
    expect(asJson.status).toBe(406);
    expectClientMistake(firstError(asJson.body), 'BAD_REQUEST');

    const sse = await send('POST', '/graphql', JSON.stringify({ query: '{ sessions { id ' }), {
      accept: 'text/event-stream',
    });
    expectClientMistake(firstError(sse.body), 'GRAPHQL_PARSE_FAILED');
  });
});

describe('a graphql-ws connection', () => {
  let client: Client | undefined;
  afterAll(() => client?.dispose());

  it('closes a connection that sends a message only a server may send as a bad request (4400), not as its own fault', async () => {
    for (const type of ['next', 'error', 'connection_ack']) {
      const closed = await sendOnWs(JSON.stringify({ type, id: 'x', payload: {} }));
      expect(closed).toEqual({
        code: 4400,
        reason: `Invalid message received: a client may not send ${type}`,
      });
    }
  });

  it('answers a bad operation with an error for its id, and its other subscriptions keep streaming', async () => {
    const closes: number[] = [];
    client = wsClient(served.wsUrl);
    client.on('closed', (event) => closes.push((event as { code: number }).code));
    const audited: Loose[] = [];
    let heard: (() => void) | undefined;
    client.subscribe(
      { query: 'subscription { audit { record { operation errorCode } } }' },
      {
        next: (value) => {
          audited.push((value.data as Loose)?.audit.record);
          heard?.();
        },
        error: () => {},
        complete: () => {},
      },
    );
    const refused = (query: string, variables?: Record<string, unknown>) =>
      new Promise<Loose>((resolve, reject) => {
        client?.subscribe(
          { query, ...(variables ? { variables } : {}) },
          {
            next: (value) => resolve({ viaNext: true, ...firstError(JSON.stringify(value)) }),
            error: (errors) => resolve(firstError(JSON.stringify({ errors }))),
            complete: () => reject(new Error('completed without an error')),
          },
        );
      });
    expectClientMistake(await refused('{ sessions { id'), 'GRAPHQL_PARSE_FAILED');
    expectClientMistake(await refused('subscription { audit { nope } }'), 'GRAPHQL_VALIDATION_FAILED');
    expectClientMistake(
      await refused('subscription($f: AuditFilter) { audit(filter: $f) { record { seq } } }', { f: 5 }),
      'VARIABLES_INVALID',
    );
    const variablesError = await refused(
      'subscription($f: AuditFilter) { audit(filter: $f) { record { seq } } }',
      {
        f: 5,
      },
    );
    expect(variablesError).not.toHaveProperty('http');

    // The audit subscription on the same socket still streams: an audited failure reaches it.
    const next = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no audit event arrived')), EVENT_SAFETY_NET_MS);
      heard = () => {
        if (!audited.some((record) => record?.errorCode === 'SESSION_NOT_FOUND')) return;
        clearTimeout(timer);
        resolve();
      };
    });
    await gatewayClient(served.url).failure(FILL, { v: 'typed' });
    await next;
    expect(audited).toContainEqual({ operation: 'fill', errorCode: 'SESSION_NOT_FOUND' });
    expect(closes).toEqual([]);
  });
});

describe('the served gateway after all of the above', () => {
  it('logged no unexpected error: every mistake above was a client’s, answered with its code', () => {
    expect(served.stderr()).not.toMatch(/unexpected error|Internal error/);
  });
});
