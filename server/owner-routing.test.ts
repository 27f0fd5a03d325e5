import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { buildSchema } from '../schema/index.js';
import {
  CLUSTER_SECRET_HEADER,
  FORWARDED_BY_HEADER,
  ownersAnswer,
  sessionArgumentOf,
} from './owner-routing.js';

describe('which argument routes a root field to its session owner', () => {
  const schema = buildSchema();
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const queries = schema.getQueryType()?.getFields() ?? {};

  it('actions by their `session`, session lifecycles by `id`, reads of a session by `id`', () => {
    expect(sessionArgumentOf(mutations.click!)).toBe('session');
    expect(sessionArgumentOf(mutations.stop!)).toBe('id');
    expect(sessionArgumentOf(mutations.detach!)).toBe('id');
    expect(sessionArgumentOf(queries.session!)).toBe('id');
  });

  it('never an approval id, nor a field that names no session', () => {
    expect(sessionArgumentOf(mutations.approve!)).toBeNull();
    expect(sessionArgumentOf(mutations.deny!)).toBeNull();
    expect(sessionArgumentOf(mutations.launch!)).toBeNull();
    expect(sessionArgumentOf(queries.replicas!)).toBeNull();
  });

  it('every mutation that names a session by `session:` is routed by it', () => {
    const unrouted = Object.values(mutations).filter(
      (field) => field.args.some((arg) => arg.name === 'session') && sessionArgumentOf(field) === null,
    );
    expect(unrouted.map((field) => field.name)).toEqual([]);
  });
});

describe('the owner answers a query or mutation of its session, over HTTP and graphql-ws alike', () => {
  const schema = buildSchema();
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  /** An owner that records what it was sent and answers `answer`; `listening: false` never answers. */
  async function owner(answer: object, { answers = true } = {}) {
    const received: { headers: IncomingHttpHeaders; body: unknown }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(body) });
        if (answers) response.end(JSON.stringify(answer));
      });
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    const record = { id: 'b', url: `http://127.0.0.1:${port}/graphql` } as ReplicaRecord;
    return { received, record };
  }

  const clusterOf = (record: ReplicaRecord, up = true) =>
    ({
      replicaId: 'a',
      settings: { renewMs: 20 },
      ownerElsewhere: async (id: string) => (id.startsWith('b-') ? record : null),
      replicaElsewhere: async (id: string) => (id === 'b' ? record : null),
      stillUp: async () => up,
      unanswered: (gone: ReplicaRecord) => unanswered.push(gone.id),
    }) as unknown as Cluster;
  const unanswered: string[] = [];
  const caller = { authorization: 'Bearer agent-token', signal: new AbortController().signal };
  const click = 'mutation Click($s: ID!) { click(session: $s, target: { testId: "t" }) { __typename } }';

  it("sends the whole call to the owner with the caller's credential, its own id and the secret; answers what it answered", async () => {
    const { received, record } = await owner({ data: { click: { __typename: 'ActionResult' } } });
    const params = { query: click, operationName: 'Click', variables: { s: 'b-s1' } };
    const answer = await ownersAnswer(() => clusterOf(record), 'secret')(
      schema,
      parse(click),
      params,
      caller,
    );
    expect(answer).toEqual({ data: { click: { __typename: 'ActionResult' } } });
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual(params);
    expect(received[0]?.headers).toMatchObject({
      authorization: 'Bearer agent-token',
      [FORWARDED_BY_HEADER]: 'a',
      [CLUSTER_SECRET_HEADER]: 'secret',
    });
  });

  it("runs here: without a cluster, for this replica's session, a subscription, or an owner gone quiet", async () => {
    const { received, record } = await owner({ data: null });
    const ask = (query: string, variables = {}, cluster: Cluster | null = clusterOf(record)) =>
      ownersAnswer(() => cluster, null)(schema, parse(query), { query, variables }, caller);
    expect(await ask(click, { s: 'b-s1' }, null)).toBeNull();
    expect(await ask(click, { s: 'a-s1' })).toBeNull();
    expect(await ask('subscription { screencast(session: "b-s1") { seq } }')).toBeNull();
    expect(received).toEqual([]);
    const quiet = await owner({}, { answers: false });
    expect(await ask(click, { s: 'b-s1' }, clusterOf(quiet.record, false))).toBeNull();
    // Where b's sessions run is read again next time.
    expect(unanswered).toEqual(['b']);
  });

  it('answers the refusal of a placement it cannot decide in the registry form', async () => {
    const failing = {
      ...clusterOf({} as ReplicaRecord),
      ownerElsewhere: async () => {
        throw new StagegraphError('CLUSTER_UNAVAILABLE', 'Redis does not answer.');
      },
    } as unknown as Cluster;
    const answer = await ownersAnswer(() => failing, null)(
      schema,
      parse(click),
      { variables: { s: 'b-s1' } },
      caller,
    );
    expect(answer?.errors?.[0]?.extensions).toMatchObject({ code: 'CLUSTER_UNAVAILABLE' });
  });
});
