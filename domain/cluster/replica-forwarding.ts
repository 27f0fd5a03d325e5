import type { ReplicaRecord } from './cluster-store.js';

/** A GraphQL request as one replica sends it to another. */
export interface ForwardedRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
}

/** The other replica's answer, as it sent it. */
export interface ForwardedAnswer {
  readonly data?: Readonly<Record<string, unknown>> | null;
  readonly errors?: readonly {
    readonly message: string;
    readonly extensions?: Readonly<Record<string, unknown>>;
  }[];
}

/**
 * Sends a request to another replica with the caller's credential and the cluster secret, as owner routing
 * forwards an operation (server/owner-routing.ts), so the other replica authenticates and decides it as if
 * it had been sent there. Gives up when `signal` aborts or the replica's lease lapses, rejecting with why.
 */
export type ForwardToReplica = (
  replica: ReplicaRecord,
  request: ForwardedRequest,
  signal: AbortSignal,
) => Promise<ForwardedAnswer>;
