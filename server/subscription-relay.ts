import type { IncomingHttpHeaders } from 'node:http';
import {
  type DocumentNode,
  type GraphQLFormattedError,
  getOperationAST,
  Kind,
  valueFromASTUntyped,
} from 'graphql';
import { createClient, type FormattedExecutionResult, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import type { Cluster } from '../domain/cluster/cluster.js';
import type { ReplicaRecord } from '../domain/cluster/cluster-store.js';
import { unreachable } from '../domain/cluster/remote-session.js';
import { isErrorCode } from '../errors/registry.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import {
  CLUSTER_SECRET_HEADER,
  FORWARDED_BY_HEADER,
  FORWARDED_EPOCH_HEADER,
  forwardedEpoch,
  secretMatches,
} from './owner-routing.js';

/**
 * Subscriptions whose events stay on the owner (a screencast's frames are too large for a stream; a
 * window's diffs are computed from the owner's live window), so a replica that does not own the session
 * relays the subscription to the owner instead of reading a stream.
 */
export const RELAYED_FIELDS: ReadonlySet<string> = new Set(['screencast', 'snapshotChanges']);
/** How long the owner may take to accept the relay (TCP, upgrade, connection_ack), on a loaded machine too. */
export const RELAY_CONNECT_MS = 15_000;
/**
 * Results read from the owner and not yet taken by this replica's subscriber. Past it the relay stops
 * reading its socket: the owner's sends wait and its own bounded queue for this subscriber drops or
 * merges (fewer frames, larger diffs), as it does for any slow reader; nothing piles up here.
 */
const RELAY_HIGH_WATER = 4;

/** One result of the owner's, as it sent it. */
type OwnerResult = FormattedExecutionResult<Record<string, unknown>, unknown>;

/** Where a relayed subscription runs: the session it names and that session's live owner. */
export interface RelayRoute {
  readonly session: string;
  readonly owner: ReplicaRecord;
}

/** The owner's `error` message for the subscription, to be sent on unchanged. */
export class RelayedErrors extends Error {
  readonly errors: readonly GraphQLFormattedError[];

  constructor(errors: readonly GraphQLFormattedError[]) {
    super(errors[0]?.message ?? 'the owner ended the subscription with an error');
    this.errors = errors;
  }
}

/**
 * The session a subscription must be relayed for: its operation's only root field is one whose events
 * stay on the owner, and names its session. Null: it runs here (any other subscription, a session
 * left to the registry's choice, a fragment at the root).
 */
export function relayedSession(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): string | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'subscription') return null;
  const [field, ...others] = operation.selectionSet.selections;
  if (others.length > 0 || field?.kind !== Kind.FIELD || !RELAYED_FIELDS.has(field.name.value)) return null;
  const argument = field.arguments?.find((candidate) => candidate.name.value === 'session');
  const session = argument ? valueFromASTUntyped(argument.value, variables ?? undefined) : undefined;
  return typeof session === 'string' ? session : null;
}

export type RelayCluster = Pick<
  Cluster,
  'replicaId' | 'epoch' | 'settings' | 'ownerElsewhere' | 'stillUp' | 'assertForwardedBy'
>;

/** One replica's side of relayed subscriptions: which to relay, and the relays themselves. */
export class SubscriptionRelay {
  readonly #cluster: () => RelayCluster | null;
  readonly #secret: string | null;

  constructor(cluster: () => RelayCluster | null, secret: string | null) {
    this.#cluster = cluster;
    this.#secret = secret;
  }

  /**
   * A connection another replica opened to relay a subscription must carry the cluster secret, and neither
   * that replica nor this one may be fenced (REPLICA_FENCED).
   */
  async assertForwardedFrom(headers: IncomingHttpHeaders): Promise<void> {
    const sender = headers[FORWARDED_BY_HEADER];
    if (sender === undefined) return;
    const presented = headers[CLUSTER_SECRET_HEADER];
    if (!secretMatches(this.#secret, typeof presented === 'string' ? presented : null))
      throw new StagegraphError('UNAUTHENTICATED', 'A relayed subscription carried a wrong cluster secret.');
    const epoch = headers[FORWARDED_EPOCH_HEADER];
    await this.#cluster()?.assertForwardedBy(
      String(sender),
      forwardedEpoch(typeof epoch === 'string' ? epoch : null),
    );
  }

  /**
   * The owner to relay this subscription to; null: it runs here (no cluster, a subscription another
   * replica relayed, `forwarded`, which is never relayed again, or a session this replica holds, or one
   * the directory answers for: LOST). Over graphql-ws and SSE alike.
   */
  async route(
    document: DocumentNode,
    payload: SubscribePayload,
    forwarded: boolean,
  ): Promise<RelayRoute | null> {
    const cluster = this.#cluster();
    if (!cluster || forwarded) return null;
    const session = relayedSession(document, payload.operationName, payload.variables);
    const owner = session === null ? null : await cluster.ownerElsewhere(session);
    return owner && session !== null ? { session, owner } : null;
  }

  /** The subscription run on the owner, with the caller's `authorization`; `ended` runs once when it ends. */
  open(
    route: RelayRoute,
    payload: SubscribePayload,
    authorization: string | undefined,
    ended: () => void,
  ): AsyncIterableIterator<OwnerResult> {
    const cluster = this.#cluster();
    if (!cluster) throw new Error('a relay opened without a cluster');
    const { session, owner } = route;
    return relayStream({
      url: owner.url.replace(/^http/, 'ws'),
      headers: {
        [FORWARDED_BY_HEADER]: cluster.replicaId,
        [FORWARDED_EPOCH_HEADER]: String(cluster.epoch),
        ...(this.#secret ? { [CLUSTER_SECRET_HEADER]: this.#secret } : {}),
      },
      authorization,
      payload,
      connectMs: RELAY_CONNECT_MS,
      checkEveryMs: cluster.settings.renewMs,
      // The lease outlives a killed owner by up to its length; past twice that, the owner is up but unreachable.
      droppedForMs: 2 * cluster.settings.leaseMs,
      ownerUp: () => cluster.stillUp(owner),
      lost: () => unreachable(session, 'LOST', owner.id, owner.url),
      unanswered: (why) =>
        new StagegraphError(
          'SESSION_REMOTE',
          `Session ${session} is owned by replica ${owner.id} (${owner.url}), which ${why}.`,
          { details: { session, replica: owner.id, url: owner.url } },
        ),
      ended,
    });
  }
}

export interface RelayStreamOptions {
  /** The owner's graphql-ws URL. */
  readonly url: string;
  /** Sent with the upgrade: who relays, and the cluster secret. */
  readonly headers: Readonly<Record<string, string>>;
  /** The caller's credential, presented to the owner as the caller presented it here. */
  readonly authorization: string | undefined;
  readonly payload: SubscribePayload;
  /** The deadline for the owner to accept the relay. */
  readonly connectMs: number;
  /** How often the owner's lease is checked while the relay runs. */
  readonly checkEveryMs: number;
  /** How long a dropped connection waits for the owner's lease to end before the relay gives up. */
  readonly droppedForMs: number;
  /** Whether the owner still holds its lease. */
  readonly ownerUp: () => Promise<boolean>;
  /** The error that ends the relay once the owner lost its lease. */
  readonly lost: () => StagegraphError;
  /** The error that ends the relay when the owner, still up, did not accept it or dropped it. */
  readonly unanswered: (why: string) => StagegraphError;
  readonly ended: () => void;
}

/**
 * A graphql-ws client of the owner with one subscription, as an async iterator of the owner's results,
 * unchanged. It always ends: with the owner's complete or error; with `lost()` once the owner's lease is
 * gone (killed, paused, cut off) whether or not its socket said so; with `unanswered()` when the owner
 * did not accept it in time, or dropped it and kept its lease. Returning it (the subscriber left)
 * closes the socket, and the owner ends its side.
 */
export function relayStream(options: RelayStreamOptions): AsyncIterableIterator<OwnerResult> {
  const queue: OwnerResult[] = [];
  let end: { readonly error: unknown } | null = null;
  let wake: (() => void) | undefined;
  let socket: WebSocket | undefined;
  let connected = false;
  let droppedAt: number | null = null;
  const { headers, connectMs } = options;
  class OwnerSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers, handshakeTimeout: connectMs });
      socket = this;
    }
  }
  const client = createClient({
    url: options.url,
    webSocketImpl: OwnerSocket,
    lazy: true,
    retryAttempts: 0,
    connectionAckWaitTimeout: connectMs,
    ...(options.authorization ? { connectionParams: { authorization: options.authorization } } : {}),
    on: {
      connected: () => {
        connected = true;
      },
    },
  });
  const finish = (error: unknown) => {
    if (end) return;
    end = { error };
    clearTimeout(connectDeadline);
    clearInterval(watch);
    unsubscribe();
    // It rejects when the connection it waits for failed, which is how this relay may have ended.
    Promise.resolve(client.dispose()).catch(() => undefined);
    // An owner that is gone or never answered completes no close handshake, nor does a paused socket read
    // the owner's half of it: such a socket is let go of at once.
    if (error !== null || socket?.readyState !== WebSocket.OPEN || socket.isPaused) socket?.terminate();
    options.ended();
    wake?.();
  };
  const connectDeadline = setTimeout(() => {
    if (!connected) finish(options.unanswered(`did not accept the relay within ${connectMs} ms`));
  }, connectMs);
  const watch = setInterval(() => {
    void options.ownerUp().then((up) => {
      if (!up) finish(options.lost());
      else if (droppedAt !== null && Date.now() - droppedAt >= options.droppedForMs)
        finish(options.unanswered('dropped the relay and still holds its lease'));
    });
  }, options.checkEveryMs);
  const unsubscribe = client.subscribe(options.payload, {
    next: (result) => {
      queue.push(result);
      if (queue.length >= RELAY_HIGH_WATER) socket?.pause();
      wake?.();
    },
    complete: () => finish(null),
    error: (error) => {
      const refusal = refusalOf(error, options.unanswered);
      if (refusal) finish(refusal);
      // Killed, or cut off: the lease watch says which (SESSION_LOST) or gives up (SESSION_REMOTE).
      else droppedAt ??= Date.now();
    },
  });
  const iterator: AsyncIterableIterator<OwnerResult> = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    async next() {
      for (;;) {
        const value = queue.shift();
        if (value) {
          if (queue.length === 0) socket?.resume();
          return { value, done: false };
        }
        if (end) {
          const { error } = end;
          // Thrown once; later calls read the end.
          end = { error: null };
          if (error !== null) throw error;
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
    async return() {
      queue.length = 0;
      finish(null);
      return { value: undefined, done: true };
    },
  };
  return iterator;
}

/**
 * What the owner answered instead of running the subscription: its `error` message, sent on as it is,
 * or a refused connection (graphql-ws's 4xxx close, its reason `CODE: message` as the owner writes it).
 * Null for a dropped connection.
 */
function refusalOf(error: unknown, unanswered: (why: string) => StagegraphError): Error | null {
  if (Array.isArray(error)) return new RelayedErrors(error as GraphQLFormattedError[]);
  const { code, reason } = (error ?? {}) as { code?: unknown; reason?: unknown };
  if (typeof code !== 'number' || code < 4000 || code > 4999) return null;
  const text = typeof reason === 'string' ? reason : '';
  const [, registered, message] = /^([A-Z_]+): (.*)$/s.exec(text) ?? [];
  return registered && isErrorCode(registered)
    ? new StagegraphError(registered, `The owner refused the relay: ${message}`)
    : unanswered(`closed the relay (${code}${text ? `: ${text}` : ''})`);
}
