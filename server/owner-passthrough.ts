import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import type { Authenticate } from './auth.js';
import type { DocumentCache } from './document-cache.js';
import { checkDocument, checkVariables } from './document-limits.js';
import {
  FORWARDED_BY_HEADER,
  forwardingHeaders,
  type OperationParams,
  ownerOf,
  type PlacedRequests,
  refused,
  watchOwner,
} from './owner-routing.js';
import { jsonNestsWithin, MAX_JSON_NESTING } from './request-parsing.js';

export interface PassthroughOptions {
  readonly cluster: () => Cluster | null;
  /** The schema yoga serves; undefined before the gateway starts. */
  readonly schema: () => GraphQLSchema | undefined;
  readonly secret: string | null;
  readonly authenticate: Authenticate;
  /** yoga's own cache of valid documents: a document an agent sends again is not parsed again. */
  readonly documents: DocumentCache;
  /** Shared with useOwnerRouting, which then does not place a request handed on a second time. */
  readonly placed: PlacedRequests;
  readonly graphqlPath: string;
}

/** Hop-by-hop headers of the owner's answer, which the answer to the caller sets for itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'date']);

/**
 * Routing by owner before yoga, for the common call: a POST of one JSON operation with its length
 * declared, from a client that is not a web page. Its placement is read once; a call for another live
 * replica's session is sent there with its own bytes and the owner's answer piped back as the owner sent
 * it (status, type and body), so this replica neither builds yoga's request and response nor parses and
 * re-serialises the answer. Everything else — a call for this replica, a refusal, a malformed or batched
 * request, a browser's (CORS), an unauthenticated one — goes to `serve` (yoga), which answers it as
 * without a cluster; useOwnerRouting places what was not placed here.
 */
export function ownerPassthrough(
  options: PassthroughOptions,
  serve: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  const handOn = (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    // @whatwg-node/server reads a `body` set on the node request in place of the stream already read.
    Object.assign(request, { body: Readable.from([body]) });
    serve(request, response);
  };
  return (request, response) => {
    const cluster = options.cluster();
    const schema = options.schema();
    if (!cluster || !schema || !passesThrough(request, options)) {
      serve(request, response);
      return;
    }
    void readBody(request)
      .then(async (body) => {
        if (!body) return;
        const operation = operationOf(body, options.documents);
        if (!operation) return handOn(request, response, body);
        let owner: ReplicaRecord | null;
        try {
          owner = await ownerOf(cluster, schema, operation.document, operation.params);
        } catch (error) {
          if (error instanceof StagegraphError) options.placed.set(request, refused(error));
          return handOn(request, response, body);
        }
        options.placed.set(request, null);
        if (!owner) return handOn(request, response, body);
        const sent = await pipeToOwner(cluster, owner, options.secret, request, response, body);
        if (sent) return;
        // Unanswered (the owner died a moment ago): run here, where the directory answers what it knows.
        cluster.unanswered(owner);
        if (!response.destroyed) handOn(request, response, body);
      })
      .catch(() => response.destroy());
  };
}

function passesThrough(request: IncomingMessage, options: PassthroughOptions): boolean {
  const { headers } = request;
  if (request.method !== 'POST' || request.url !== options.graphqlPath) return false;
  if (headers[FORWARDED_BY_HEADER] !== undefined || headers.origin !== undefined) return false;
  if (!headers['content-type']?.startsWith('application/json')) return false;
  // The request guard held a declared length to the body limit; a chunked body is yoga's to bound.
  if (headers['content-length'] === undefined) return false;
  try {
    options.authenticate(headers.authorization, request.socket.remoteAddress);
    return true;
  } catch {
    // Answered by useClientAuth, in its form.
    return false;
  }
}

/** The body as declared by its content-length (Node's parser stops there); null when the client went away. */
function readBody(request: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', () => resolve(null));
    request.once('close', () => {
      if (!request.complete) resolve(null);
    });
  });
}

/** One operation with a document that parses within the limits; null for anything yoga must answer. */
function operationOf(
  body: Buffer,
  documents: DocumentCache,
): { document: DocumentNode; params: OperationParams } | null {
  if (!jsonNestsWithin(body, MAX_JSON_NESTING)) return null;
  let params: unknown;
  try {
    params = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return null;
  const { query, variables, operationName } = params as Record<string, unknown>;
  if (typeof query !== 'string') return null;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  try {
    checkVariables(variables);
    const cached = documents.get(query);
    if (cached) return { document: cached, params: params as OperationParams };
    checkDocument(query);
    return { document: parse(query), params: params as OperationParams };
  } catch {
    return null;
  }
}

/**
 * Sends `body` to the owner and pipes its answer to `response`. Resolves false when the owner did not
 * begin an answer (refused the connection, or lost its lease while asked), so the call can run here;
 * true once an answer began, or the caller went away.
 */
function pipeToOwner(
  cluster: Cluster,
  owner: ReplicaRecord,
  secret: string | null,
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer,
): Promise<boolean> {
  const watch = watchOwner(cluster, owner);
  const callerGone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) callerGone.abort();
  });
  const headers = forwardingHeaders(
    cluster,
    secret,
    request.headers.authorization ?? null,
    request.headers.accept ?? 'application/json',
  );
  return new Promise((resolve) => {
    const send = owner.url.startsWith('https:') ? httpsRequest : httpRequest;
    const outgoing = send(
      owner.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length) },
        signal: AbortSignal.any([callerGone.signal, watch.gone]),
      },
      (answer) => {
        resolve(true);
        answer.once('close', () => {
          watch.stop();
          if (!answer.complete) response.destroy();
        });
        try {
          response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        } catch {
          // A header the owner sent that this response cannot carry: the caller sees the call cut off.
          answer.destroy();
          return;
        }
        answer.pipe(response);
      },
    );
    outgoing.once('error', () => {
      watch.stop();
      resolve(callerGone.signal.aborted || response.headersSent);
    });
    outgoing.end(body);
  });
}

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}
