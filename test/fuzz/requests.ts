import fc from 'fast-check';
import type { Payload } from './arbitraries.js';
import type { FuzzPayload, PayloadMode } from './payloads.js';
import { hugeString } from './payloads.js';

/**
 * What goes on the wire: a payload over HTTP POST, GET (query string), SSE (Accept: text/event-stream) or
 * graphql-ws; raw HTTP bodies (random bytes, wrong content types, JSON of the wrong shape, bad GET
 * parameters); and raw graphql-ws frames. Each request prints itself, shortened, as fast-check's
 * counterexample.
 */

export type Via = 'post' | 'get' | 'sse' | 'ws';

export interface GraphqlRequest {
  readonly kind: 'graphql';
  readonly via: Via;
  readonly mode: PayloadMode;
  readonly label: string;
  readonly payload: Payload;
  /** SSE over GET instead of POST. */
  readonly sseGet?: boolean;
}

export interface RawHttpRequest {
  readonly kind: 'http';
  readonly method: string;
  /** The query string, with its `?`, or ''. */
  readonly search: string;
  readonly contentType?: string;
  readonly accept: string;
  readonly body?: Uint8Array | string;
  readonly note: string;
}

export interface RawWsRequest {
  readonly kind: 'ws';
  readonly subprotocol: string;
  /** The connection_init frame sent first, or null to send none. */
  readonly init: string | null;
  readonly frames: readonly (string | Uint8Array)[];
  readonly note: string;
}

/** One request sent several times at once, as an agent retrying in a hurry does. */
export interface BurstRequest {
  readonly kind: 'burst';
  readonly copies: number;
  readonly request: GraphqlRequest;
}

export type FuzzRequest = GraphqlRequest | RawHttpRequest | RawWsRequest | BurstRequest;

/** A GET URL past this is refused by Node's header limit (16 KB) before the gateway sees it: sent as POST. */
const GET_URL_MAX = 8_000;
const SHOWN_CHARS = 600;
export const ACCEPT_GRAPHQL = 'application/graphql-response+json, application/json';

/** The JSON body of a payload (splicing variables too deep to stringify). */
export function payloadJson(payload: Payload): string {
  const parts = [`"query":${JSON.stringify(payload.query)}`];
  if (payload.variablesText !== undefined) parts.push(`"variables":${payload.variablesText}`);
  else if (payload.variables !== undefined) parts.push(`"variables":${JSON.stringify(payload.variables)}`);
  if (payload.operationName !== undefined)
    parts.push(`"operationName":${JSON.stringify(payload.operationName)}`);
  return `{${parts.join(',')}}`;
}

/** The query string of a payload sent by GET. */
export function payloadSearch(payload: Payload): string {
  const search = new URLSearchParams({ query: payload.query });
  if (payload.variablesText !== undefined) search.set('variables', payload.variablesText);
  else if (payload.variables !== undefined) search.set('variables', JSON.stringify(payload.variables));
  return `?${search}`;
}

export function shorten(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars in all)`;
}

function bodyText(body: Uint8Array | string | undefined): string {
  if (body === undefined) return '(no body)';
  if (typeof body === 'string') return shorten(JSON.stringify(body));
  return `${body.length} bytes ${Buffer.from(body.subarray(0, 48)).toString('hex')}${body.length > 48 ? '…' : ''}`;
}

/** How a request reads in a counterexample: what an agent would have sent. */
export function describeRequest(request: FuzzRequest): string {
  switch (request.kind) {
    case 'graphql': {
      const how =
        request.via === 'get'
          ? `GET /graphql${shorten(payloadSearch(request.payload))}`
          : request.via === 'ws'
            ? 'graphql-ws subscribe'
            : `${request.via === 'sse' ? `SSE ${request.sseGet ? 'GET' : 'POST'}` : 'POST'} /graphql`;
      return `${how} (${request.mode}) ${request.via === 'get' ? '' : shorten(payloadJson(request.payload))}`;
    }
    case 'burst':
      return `${request.copies} at once: ${describeRequest(request.request)}`;
    case 'http':
      return `${request.method} /graphql${shorten(request.search)} content-type=${JSON.stringify(request.contentType ?? null)} accept=${JSON.stringify(request.accept)} body=${bodyText(request.body)} (${request.note})`;
    default:
      return `graphql-ws raw (${request.note}) subprotocol=${JSON.stringify(request.subprotocol)} init=${request.init === null ? 'none' : shorten(request.init, 120)} frames=[${request.frames.map((frame) => bodyText(frame)).join(', ')}]`;
  }
}

function printable<T extends FuzzRequest>(request: T): T {
  return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
}

/** A GraphQL payload on one of the four transports (GET only where the URL stays under Node's limit). */
export function onTransport(payloads: fc.Arbitrary<FuzzPayload>): fc.Arbitrary<GraphqlRequest> {
  return fc
    .tuple(payloads, fc.constantFrom<Via>('post', 'post', 'get', 'sse', 'ws', 'ws'), fc.boolean())
    .map(([{ mode, label, payload }, wanted, sseGet]) => {
      const small = payloadSearch(payload).length <= GET_URL_MAX;
      const via = wanted === 'get' && !small ? 'post' : wanted;
      return printable({
        kind: 'graphql',
        via,
        mode,
        label,
        payload,
        ...(via === 'sse' && sseGet && small ? { sseGet } : {}),
      });
    });
}

/** A burst: up to twelve copies of one request at once (issue 31's twelve launches ended the gateway). */
const MAX_COPIES = 12;

function burst(payloads: fc.Arbitrary<FuzzPayload>): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(onTransport(payloads), fc.integer({ min: 2, max: MAX_COPIES }))
    .map(([request, copies]) => printable({ kind: 'burst', copies, request }));
}

/** Bytes from a seed: a megabyte of random body without a megabyte of shrinkable values. */
function noise(seed: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed | 1;
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

const typename = '{"query":"{ __typename }"}';
const oddBodies = [
  'null',
  '[]',
  '1',
  '"x"',
  '{}',
  '{"query":1}',
  '{"query":null}',
  '{"query":"{ sessions { id } }","variables":"notjson"}',
  '{"query":"{ sessions { id } }","variables":[]}',
  '{"query":"{ sessions { id } }","variables":{"x":1}}',
  '{"query":"{ __typename }","operationName":5}',
  '{"query":"{ __typename }","operationName":"Nope"}',
  '{"query":"{ __typename }","extensions":"x"}',
  '{"query":"query A { __typename } query B { __typename }"}',
  `[${typename},${typename}]`,
  '{"query":"{ __typename }"',
  `${typename} trailing`,
  `\uFEFF${typename}`,
  '{"query":"{ __typename }","query":"{ sessions { id } }"}',
  `{"query":"{ __typename }","variables":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
];
const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/graphql',
  'application/graphql-response+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/jsonx',
  '',
];
const accepts = [
  ACCEPT_GRAPHQL,
  'application/json',
  'application/graphql-response+json',
  '*/*',
  'multipart/mixed',
  'image/png',
  'application/json;q=0, text/plain',
];
const oddSearches = [
  '',
  '?',
  '?query=',
  '?query=%',
  '?query=%E0%A4%A',
  '?query=%7B__typename%7D&query=%7Bsessions%7Bid%7D%7D',
  '?query=%7Bsessions%7Bid%7D%7D&variables=notjson',
  '?query=%7Bsessions%7Bid%7D%7D&variables=%5B%5D',
  '?query=%7B__typename%7D&operationName=Nope',
  '?query=mutation%7Bstop(id%3A%22s9999%22)%7Bid%7D%7D',
  '?query=subscription%7BsessionEvents%7Btype%7D%7D',
  '?extensions=x&query=%7B__typename%7D',
  '?query[]=x',
];

const rawHttp: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc
    .record({
      seed: fc.integer(),
      length: fc.oneof(fc.nat(4_096), fc.integer({ min: 4_096, max: 1_000_000 })),
      contentType: fc.constantFrom(...contentTypes),
    })
    .map(({ seed, length, contentType }) =>
      printable({
        kind: 'http',
        method: 'POST',
        search: '',
        contentType,
        accept: ACCEPT_GRAPHQL,
        body: noise(seed, length),
        note: 'random bytes',
      }),
    ),
  fc
    .record({
      body: fc.constantFrom(...oddBodies),
      contentType: fc.constantFrom(...contentTypes),
      accept: fc.constantFrom(...accepts),
    })
    .map(({ body, contentType, accept }) =>
      printable({ kind: 'http', method: 'POST', search: '', contentType, accept, body, note: 'odd body' }),
    ),
  fc
    .record({
      search: fc.oneof(
        fc.constantFrom(...oddSearches),
        fc.string().map((text) => `?${text.replace(/[^\x21-\x7e]/g, encodeURIComponent)}`),
      ),
      accept: fc.constantFrom(...accepts),
    })
    .map(({ search, accept }) =>
      printable({ kind: 'http', method: 'GET', search, accept, note: 'odd query string' }),
    ),
  fc.constantFrom('PUT', 'PATCH', 'DELETE').map((method) =>
    printable({
      kind: 'http',
      method,
      search: '',
      contentType: 'application/json',
      accept: ACCEPT_GRAPHQL,
      body: typename,
      note: 'odd method',
    }),
  ),
);

const subscribe = (id: unknown, payload: unknown) => JSON.stringify({ id, type: 'subscribe', payload });
const wsFrames = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.uint8Array({ maxLength: 64 }),
  hugeString,
  fc.constantFrom(
    '{}',
    'null',
    '[]',
    '{"type":"nope"}',
    '{"type":"subscribe"}',
    subscribe(5, { query: '{ __typename }' }),
    subscribe('', { query: '{ __typename }' }),
    subscribe('x', { query: 5 }),
    subscribe('x', { query: '{ __typename }', variables: 'notjson' }),
    subscribe('x', null),
    '{"type":"complete","id":"never-subscribed"}',
    '{"type":"ping"}',
    '{"type":"pong"}',
    '{"type":"connection_init"}',
    '{"type":"next","id":"x","payload":{}}',
  ),
  fc.constant('duplicate').map(() => subscribe('dup', { query: 'subscription { sessionEvents { type } }' })),
);

const rawWs: fc.Arbitrary<FuzzRequest> = fc
  .record({
    subprotocol: fc.constantFrom('graphql-transport-ws', 'graphql-transport-ws', 'graphql-ws', ''),
    init: fc.constantFrom<string | null>(
      '{"type":"connection_init"}',
      '{"type":"connection_init","payload":{}}',
      '{"type":"connection_init","payload":{"token":5}}',
      '{"type":"connection_init","payload":"x"}',
      null,
    ),
    frames: fc.array(wsFrames, { minLength: 1, maxLength: 3 }),
  })
  .map(({ subprotocol, init, frames }) =>
    printable({ kind: 'ws', subprotocol, init, frames, note: 'raw frames' }),
  );

export interface RequestArbitraries {
  readonly eachField: readonly fc.Arbitrary<FuzzRequest>[];
  readonly any: fc.Arbitrary<FuzzRequest>;
}

/** Every kind of request, in the proportions a run sends them. */
export function requestArbitraries(payloads: {
  readonly eachField: readonly fc.Arbitrary<FuzzPayload>[];
  readonly valid: fc.Arbitrary<FuzzPayload>;
  readonly processes: fc.Arbitrary<FuzzPayload>;
  readonly mistyped: fc.Arbitrary<FuzzPayload>;
  readonly mutated: fc.Arbitrary<FuzzPayload>;
  readonly huge: fc.Arbitrary<FuzzPayload>;
  readonly deep: fc.Arbitrary<FuzzPayload>;
  readonly wide: fc.Arbitrary<FuzzPayload>;
}): RequestArbitraries {
  return {
    eachField: payloads.eachField.map(onTransport),
    any: fc.oneof(
      { weight: 40, arbitrary: onTransport(payloads.valid) },
      { weight: 12, arbitrary: onTransport(payloads.mistyped) },
      { weight: 12, arbitrary: onTransport(payloads.mutated) },
      { weight: 6, arbitrary: onTransport(payloads.huge) },
      { weight: 4, arbitrary: onTransport(payloads.deep) },
      { weight: 4, arbitrary: onTransport(payloads.wide) },
      { weight: 12, arbitrary: rawHttp },
      { weight: 8, arbitrary: rawWs },
      { weight: 3, arbitrary: burst(payloads.valid) },
      { weight: 1, arbitrary: burst(payloads.processes) },
    ),
  };
}
