import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCodesDocument,
  LaunchDocument,
  SessionOverviewDocument,
  TransportsDocument,
} from './generated/graphql.js';
import { http, type RunningGateway, startGateway, wsClient, wsRequest } from './helpers/gateway.js';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.stop());

async function stillServing() {
  const { data } = await http(gateway.url, TransportsDocument);
  expect(data?.transports[0]?.id).toBe('playwright-electron');
}

describe('gateway over HTTP and WebSocket', () => {
  it('serves the same answer over HTTP and graphql-ws', async () => {
    const overHttp = await http(gateway.url, TransportsDocument);
    const client = wsClient(gateway.wsUrl);
    const overWs = await wsRequest(client, TransportsDocument);
    await client.dispose();
    expect(overWs.data).toEqual(overHttp.data);
    expect(overHttp.data?.transports[0]?.capabilities).toMatchObject({
      LAUNCH: true,
      CONSOLE: true,
      NATIVE_UI: true,
    });
    expect(overHttp.data?.transports[1]).toMatchObject({
      id: 'cdp',
      capabilities: { ATTACH: true, LAUNCH: false },
    });
  });

  it('lists the closed error registry', async () => {
    const { data } = await http(gateway.url, ErrorCodesDocument);
    const codes = data?.errorCodes.map((entry) => entry.code);
    expect(codes).toEqual(
      expect.arrayContaining(['LAUNCH_FAILED', 'SESSION_NOT_FOUND', 'CAPABILITY_UNSUPPORTED']),
    );
    expect(data?.errorCodes.every((entry) => entry.hint.length > 0)).toBe(true);
  });

  it('streams a subscription over SSE too', async () => {
    const controller = new AbortController();
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { sessionEvents(session: "nope") { type } }' }),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    expect(new TextDecoder().decode(value)).toContain('SESSION_NOT_FOUND');
  });
});

describe('bad input', () => {
  it('a launch with a missing main fails with LAUNCH_FAILED, a hint and next actions', async () => {
    const { data, errors } = await http(gateway.url, LaunchDocument, { input: { main: '/nowhere/main.js' } });
    // The failed step is null in data, which a non-null field would have blanked whole.
    expect(data).toEqual({ launch: null });
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'LAUNCH_FAILED', retryable: false });
    expect(errors?.[0]?.extensions?.hint).toEqual(expect.any(String));
    expect(errors?.[0]?.extensions?.nextActions).toEqual([
      'query { transports { id capabilities { LAUNCH } } }',
    ]);
    await stillServing();
  });

  it('a launch with neither main nor executablePath is BAD_INPUT', async () => {
    const { errors } = await http(gateway.url, LaunchDocument, { input: {} });
    expect(errors?.[0]?.extensions?.code).toBe('BAD_INPUT');
    await stillServing();
  });

  it('an unknown session id is SESSION_NOT_FOUND with next actions', async () => {
    const { errors } = await http(gateway.url, SessionOverviewDocument, { id: 's999' });
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(errors?.[0]?.extensions?.nextActions).toContain('query { sessions { id status app { name } } }');
    await stillServing();
  });

  it.each([
    ['a syntax error', '{ sessions { id '],
    ['an unknown field', '{ sessions { id nonsense } }'],
    ['a wrong argument type', '{ session(id: 42.5) { id } }'],
    ['a missing required argument', 'mutation { launch { id } }'],
  ])('%s gets GraphQL validation errors and the server keeps serving', async (_name, query) => {
    const response = await http(gateway.url, query);
    expect(response.errors?.length).toBeGreaterThan(0);
    expect(response.data ?? null).toBeNull();
    expect(JSON.stringify(response.errors)).not.toMatch(/\n\s+at /);
    await stillServing();
  });

  it('a malformed request body is refused without harming the server', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(response.status).toBe(400);
    await stillServing();
  });
});

describe('token auth', () => {
  let secured: RunningGateway;
  beforeAll(async () => {
    secured = await startGateway({ token: 'correct-horse' });
  });
  afterAll(() => secured.stop());

  it('refuses HTTP without the token with 401 and UNAUTHENTICATED, and accepts it with the token', async () => {
    const refused = await http(secured.url, TransportsDocument);
    expect(refused.status).toBe(401);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const wrong = await http(secured.url, TransportsDocument, undefined, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const allowed = await http(secured.url, TransportsDocument, undefined, {
      authorization: 'Bearer correct-horse',
    });
    expect(allowed.data?.transports).toHaveLength(4);
  });

  it('closes a WebSocket whose connection_init lacks the token, with a reason', async () => {
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      const client = wsClient(secured.wsUrl, { authorization: 'Bearer wrong' });
      client.on('closed', (event) => {
        const { code, reason } = event as { code: number; reason: string };
        resolve({ code, reason });
        void client.dispose();
      });
    });
    expect(await closed).toMatchObject({ code: 4403, reason: expect.stringContaining('UNAUTHENTICATED') });
    const client = wsClient(secured.wsUrl, { authorization: 'Bearer correct-horse' });
    expect((await wsRequest(client, TransportsDocument)).data?.transports).toHaveLength(4);
    await client.dispose();
  });
});
