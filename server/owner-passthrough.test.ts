import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { buildSchema } from '../schema/index.js';
import { DocumentCache } from './document-cache.js';
import { ownerPassthrough } from './owner-passthrough.js';
import { FORWARDED_BY_HEADER, type PlacedRequests } from './owner-routing.js';

const schema = buildSchema();
const CLICK = 'mutation Click($s: ID!) { click(session: $s, target: { testId: "t" }) { __typename } }';
/** Spaced as no JSON.stringify would write it: an answer re-serialised on the way loses the spaces. */
const OWNERS_ANSWER = '{ "data" : { "click" : { "__typename" : "ActionResult" } } }';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    }),
  );
});

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** The owner: records what reached it, answers OWNERS_ANSWER as graphql-response+json, or never (`quiet`). */
async function owner({ quiet = false } = {}) {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const closed: string[] = [];
  const url = await listening(
    createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        if (!quiet) {
          response.writeHead(200, { 'content-type': 'application/graphql-response+json; charset=utf-8' });
          response.end(OWNERS_ANSWER);
        }
      });
      response.on('close', () => closed.push(body));
    }),
  );
  return { received, closed, record: { id: 'b', url } as ReplicaRecord };
}

/** The receiving replica: the pass-through before a stand-in for yoga that answers what it was handed. */
async function receiver(place: (id: string) => Promise<ReplicaRecord | null>) {
  const handedOn: { body: string; placed: ExecutionResult | null | undefined; wasPlaced: boolean }[] = [];
  const unanswered: string[] = [];
  const placed: PlacedRequests = new WeakMap();
  const cluster = {
    replicaId: 'a',
    epoch: 1,
    settings: { renewMs: 20 },
    ownerElsewhere: place,
    replicaElsewhere: async () => null,
    stillUp: async () => true,
    unanswered: (gone: ReplicaRecord) => unanswered.push(gone.id),
  } as unknown as Cluster;
  const serve = async (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    const handed = (request as IncomingMessage & { body?: AsyncIterable<Buffer> }).body ?? request;
    let body = '';
    for await (const chunk of handed) body += chunk;
    handedOn.push({ body, placed: placed.get(request), wasPlaced: placed.has(request) });
    response.end('yoga');
  };
  const url = await listening(
    createServer(
      ownerPassthrough(
        {
          cluster: () => cluster,
          schema: () => schema,
          secret: 'secret',
          authenticate: () => ({}) as never,
          documents: new DocumentCache(),
          placed,
          graphqlPath: '/graphql',
        },
        (request, response) => void serve(request, response),
      ),
    ),
  );
  return { url, handedOn, unanswered };
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('routing by owner before yoga', () => {
  it("pipes the owner's answer back as the owner sent it: status, type and bytes", async () => {
    const { received, record } = await owner();
    const { url, handedOn } = await receiver(async (id) => (id === 'b-s1' ? record : null));
    const body = JSON.stringify({ query: CLICK, variables: { s: 'b-s1' } });
    const answer = await post(url, body, {
      authorization: 'Bearer agent-token',
      accept: 'application/graphql-response+json',
    });
    expect(answer.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(await answer.text()).toBe(OWNERS_ANSWER);
    expect(handedOn).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toBe(body);
    expect(received[0]?.headers).toMatchObject({
      authorization: 'Bearer agent-token',
      accept: 'application/graphql-response+json',
      [FORWARDED_BY_HEADER]: 'a',
    });
  });

  it('hands a call for this replica to yoga with its body, placed once: yoga does not place it again', async () => {
    const { url, handedOn } = await receiver(async () => null);
    const body = JSON.stringify({ query: CLICK, variables: { s: 'a-s1' } });
    expect(await (await post(url, body)).text()).toBe('yoga');
    expect(handedOn).toEqual([{ body, placed: null, wasPlaced: true }]);
  });

  it('hands a refused placement on with its refusal, for yoga to answer in its form', async () => {
    const { url, handedOn } = await receiver(async () => {
      throw new StagegraphError('CLUSTER_UNAVAILABLE', 'Redis does not answer.');
    });
    await post(url, JSON.stringify({ query: CLICK, variables: { s: 'b-s1' } }));
    expect(handedOn[0]?.placed?.errors?.[0]?.extensions).toMatchObject({ code: 'CLUSTER_UNAVAILABLE' });
  });

  it('leaves to yoga, unplaced, what is not one JSON operation, and what a web page sends', async () => {
    const places: string[] = [];
    const { url, handedOn } = await receiver(async (id) => {
      places.push(id);
      return null;
    });
    const one = JSON.stringify({ query: CLICK, variables: { s: 'b-s1' } });
    for (const body of ['{"query": ', '[{"query": "{ __typename }"}]', '{"query": 1}', '{"query": "{ nope"}'])
      await post(url, body);
    await post(url, one, { origin: 'http://localhost:4700' });
    await post(url, one, { [FORWARDED_BY_HEADER]: 'c' });
    expect(places).toEqual([]);
    expect(handedOn.map(({ wasPlaced }) => wasPlaced)).toEqual([false, false, false, false, false, false]);
    expect(handedOn[0]?.body).toBe('{"query": ');
  });

  it('runs the call here when the owner refuses the connection, and reads its placement again next time', async () => {
    const gone = await owner();
    const closed = servers.pop() as Server;
    await new Promise((done) => closed.close(done));
    const { url, handedOn, unanswered } = await receiver(async () => gone.record);
    expect(await (await post(url, JSON.stringify({ query: CLICK, variables: { s: 'b-s1' } }))).text()).toBe(
      'yoga',
    );
    expect(unanswered).toEqual(['b']);
    expect(handedOn[0]?.placed).toBeNull();
  });

  it('gives the forward up when the caller goes away', async () => {
    const quiet = await owner({ quiet: true });
    const { url } = await receiver(async () => quiet.record);
    const caller = new AbortController();
    const abandoned = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: CLICK, variables: { s: 'b-s1' } }),
      signal: caller.signal,
    }).catch(() => 'aborted');
    await expect.poll(() => quiet.received.length).toBe(1);
    caller.abort();
    expect(await abandoned).toBe('aborted');
    await expect.poll(() => quiet.closed.length).toBe(1);
  });
});
