import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  parse,
  valueFromASTUntyped,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import type { ForwardedAnswer, ForwardToReplica } from '../domain/cluster/replica-forwarding.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { governedOperationOf } from '../schema/gates/declared-governance.js';
import { toGraphQLError } from './error-format.js';
import { postJson } from './post-json.js';

/** Set on a call one replica forwards to another: its value is the sender's id; such a call never forwards again. */
export const FORWARDED_BY_HEADER = 'x-stagegraph-forwarded-by';
/** The sender's boot (epoch), beside its id: a receiver refuses a call from a boot the cluster fenced. */
export const FORWARDED_EPOCH_HEADER = 'x-stagegraph-forwarded-epoch';
/** The --cluster-secret, on a forwarded call when the replicas have one. */
export const CLUSTER_SECRET_HEADER = 'x-stagegraph-cluster-secret';

/**
 * Requests whose placement was decided before yoga (owner-passthrough.ts) and handed on to run here: null,
 * or the refusal to answer. Their placement is not read again.
 */
export type PlacedRequests = WeakMap<IncomingMessage, ExecutionResult | null>;

/** Who a forwarded call runs for: the credential the caller presented, and what abandons the call. */
export interface Caller {
  readonly authorization: string | null;
  readonly signal: AbortSignal;
}

/** The parts of a GraphQL request a forwarded call carries, as HTTP and graphql-ws name them. */
export interface OperationParams {
  readonly query?: string | undefined;
  readonly operationName?: string | null | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | null | undefined;
  readonly extensions?: Readonly<Record<string, unknown>> | null | undefined;
}

/** The owner's answer to a query or mutation that must run there; null when it runs here. */
export type OwnersAnswer = (
  schema: GraphQLSchema,
  document: DocumentNode,
  params: OperationParams,
  caller: Caller,
) => Promise<ExecutionResult | null>;

/**
 * Routing by owner: a query or mutation whose root fields name sessions (or a `replica`) of one other
 * live replica is sent whole to that replica, with the caller's credential, and its answer returned as
 * it is. The owner authenticates, decides, audits and runs it once, with its step semantics; this replica
 * runs none of it. A document naming sessions of several replicas runs here, where the others' answer
 * SESSION_REMOTE. Subscriptions are not forwarded. One rule for HTTP (useOwnerRouting) and graphql-ws.
 */
export function ownersAnswer(cluster: () => Cluster | null, secret: string | null): OwnersAnswer {
  return async (schema, document, params, caller) => {
    const here = cluster();
    if (!here) return null;
    try {
      const owner = await ownerOf(here, schema, document, params);
      if (!owner) return null;
      // Unanswered (the owner died a moment ago): run here, where the directory answers what it knows
      // (a status, LOST once reaped) and refuses the rest; nothing of another's session runs here.
      return await forward(here, owner, secret, params, caller).catch(() => {
        here.unanswered(owner);
        return null;
      });
    } catch (error) {
      if (!(error instanceof StagegraphError)) throw error;
      return refused(error);
    }
  };
}

/**
 * The other live replica a query or mutation must run on as a whole; null when it runs here. Rejects with
 * a StagegraphError when it may run nowhere (this replica fenced, the store unreachable, no such replica).
 */
export async function ownerOf(
  cluster: Cluster,
  schema: GraphQLSchema,
  document: DocumentNode,
  params: OperationParams,
): Promise<ReplicaRecord | null> {
  const operation = getOperationAST(document, params.operationName);
  if (!operation || operation.operation === 'subscription') return null;
  const root = operation.operation === 'query' ? schema.getQueryType() : schema.getMutationType();
  const targets = new Map<string, ReplicaRecord | null>();
  for (const selection of operation.selectionSet.selections) {
    // Fragments at the root are rare; such a document runs here.
    if (selection.kind !== Kind.FIELD) return null;
    const target = await targetOf(cluster, selection, root?.getFields()[selection.name.value], params);
    if (target !== undefined) targets.set(target?.id ?? cluster.replicaId, target);
  }
  const [only, ...others] = [...targets.values()];
  return only && others.length === 0 ? only : null;
}

/**
 * Routing by owner over HTTP: a call another replica forwarded must carry the cluster secret, and is never
 * forwarded again.
 */
export function useOwnerRouting(
  cluster: () => Cluster | null,
  secret: string | null,
  placed: PlacedRequests = new WeakMap(),
): Plugin {
  let schema: GraphQLSchema | undefined;
  const answer = ownersAnswer(cluster, secret);
  return {
    onSchemaChange({ schema: changed }) {
      schema = changed;
    },
    async onParams({ params, request, setResult, context }) {
      const here = cluster();
      if (!here || !schema) return;
      const node = (context as { req?: IncomingMessage }).req;
      if (node && placed.has(node)) {
        const refusal = placed.get(node);
        if (refusal) setResult(refusal);
        return;
      }
      const sender = request.headers.get(FORWARDED_BY_HEADER);
      if (sender !== null) {
        if (!secretMatches(secret, request.headers.get(CLUSTER_SECRET_HEADER)))
          setResult(
            refused(
              new StagegraphError('UNAUTHENTICATED', 'A forwarded call carried a wrong cluster secret.'),
            ),
          );
        else
          await here
            .assertForwardedBy(sender, forwardedEpoch(request.headers.get(FORWARDED_EPOCH_HEADER)))
            .catch((error: unknown) => {
              if (!(error instanceof StagegraphError)) throw error;
              setResult(refused(error));
            });
        return;
      }
      const document = parsed(params.query);
      if (!document) return;
      const caller = { authorization: request.headers.get('authorization'), signal: request.signal };
      const owners = await answer(schema, document, params, caller);
      if (owners) setResult(owners);
    },
  };
}

function parsed(query: string | undefined): DocumentNode | null {
  if (!query) return null;
  try {
    return parse(query);
  } catch {
    // Answered by yoga's own parse, in the registry's form.
    return null;
  }
}

/** The replica one root field runs on: undefined when any will do, null for this one. */
async function targetOf(
  cluster: Cluster,
  field: FieldNode,
  definition: Parameters<typeof governedOperationOf>[0] | undefined,
  params: OperationParams,
): Promise<ReplicaRecord | null | undefined> {
  if (!definition) return undefined;
  const argument = (name: string) => {
    const node = field.arguments?.find((candidate) => candidate.name.value === name);
    return node ? valueFromASTUntyped(node.value, params.variables ?? undefined) : undefined;
  };
  if (definition.args.some((arg) => arg.name === 'replica')) {
    const replica = argument('replica');
    return typeof replica === 'string' ? cluster.replicaElsewhere(replica) : null;
  }
  const name = sessionArgumentOf(definition);
  if (name === null) return undefined;
  const id = argument(name);
  // Omitted: the registry's own choice, which is this replica's.
  return typeof id === 'string' ? cluster.ownerElsewhere(id) : null;
}

/** The argument naming the session a root field acts on or reads: as its governance declares, else `session` or `id` of a Session. */
export function sessionArgumentOf(definition: Parameters<typeof governedOperationOf>[0]): string | null {
  const governed = governedOperationOf(definition);
  if (governed) return governed.answersApproval ? null : governed.session;
  if (definition.args.some((arg) => arg.name === 'session')) return 'session';
  const type = definition.type.toString().replace(/[![\]]/g, '');
  return type === 'Session' && definition.args.some((arg) => arg.name === 'id') ? 'id' : null;
}

/**
 * The forwarding a resolver is given (ForwardToReplica): requests sent as owner routing sends them, with
 * this caller's `authorization` and the cluster secret.
 */
export function replicaForwarder(
  cluster: Cluster,
  secret: string | null,
  authorization: string | null,
): ForwardToReplica {
  return (replica, request, signal) =>
    forward(cluster, replica, secret, request, { authorization, signal }) as Promise<ForwardedAnswer>;
}

/**
 * Sends the document to its owner and answers what the owner answered; rejects with why when the owner did
 * not answer. Bound by `signal` (the caller's own request or connection: an action waiting on an approval waits as long
 * there as it would here) and by the owner's lease: a paused owner accepts the connection and never
 * answers, so the call is given up once the owner is reaped, and the session then reads LOST here.
 */
async function forward(
  cluster: Cluster,
  owner: ReplicaRecord,
  secret: string | null,
  params: OperationParams,
  caller: Caller,
): Promise<ExecutionResult> {
  const { query, variables, operationName, extensions } = params;
  const watch = watchOwner(cluster, owner);
  try {
    return (await postJson(
      owner.url,
      forwardingHeaders(cluster, secret, caller.authorization),
      JSON.stringify({ query, variables, operationName, extensions }),
      AbortSignal.any([caller.signal, watch.gone]),
    )) as ExecutionResult;
  } finally {
    watch.stop();
  }
}

/** The headers of a call forwarded from this replica, JSON in and out, for the caller `authorization` names. */
export function forwardingHeaders(
  cluster: Cluster,
  secret: string | null,
  authorization: string | null,
  accept = 'application/json',
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept,
    [FORWARDED_BY_HEADER]: cluster.replicaId,
    [FORWARDED_EPOCH_HEADER]: String(cluster.epoch),
  };
  if (authorization) headers.authorization = authorization;
  if (secret) headers[CLUSTER_SECRET_HEADER] = secret;
  return headers;
}

/**
 * A paused owner accepts the connection and never answers: `gone` aborts once the store no longer holds
 * the owner's boot UP (checked every renewal), so the forward is given up and the session reads LOST here.
 */
export function watchOwner(cluster: Cluster, owner: ReplicaRecord): { gone: AbortSignal; stop(): void } {
  const gone = new AbortController();
  const timer = setInterval(() => {
    void cluster
      .stillUp(owner)
      .then((up) => up || gone.abort(new Error(`replica ${owner.id} lost its lease while it was asked`)));
  }, cluster.settings.renewMs);
  return { gone: gone.signal, stop: () => clearInterval(timer) };
}

export function refused(error: StagegraphError): ExecutionResult {
  return { errors: [toGraphQLError(error)] };
}

/** The epoch a forwarded call's sender named; null when it named none (or not a number). */
export function forwardedEpoch(header: string | null | undefined): number | null {
  const epoch = header ? Number(header) : Number.NaN;
  return Number.isSafeInteger(epoch) ? epoch : null;
}

/** In constant time, over digests so unequal lengths take the same path. Without a secret, loopback replicas trust each other. */
export function secretMatches(expected: string | null, presented: string | null): boolean {
  if (expected === null) return true;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(presented ?? ''));
}
