/** What the gateway answered one fuzz request, as send.ts and ws-exchange.ts read it. */
export interface Answer {
  readonly status?: number;
  /** Every GraphQL result read: a JSON body, each SSE `next`, each graphql-ws `next`, `{ errors }` of an `error`. */
  readonly results: unknown[];
  /** Bodies that should have been GraphQL results and were not JSON. */
  readonly unparsed: string[];
  /** Everything received as text (bodies, frames, close reasons): what is searched for stacks and paths. */
  readonly texts: string[];
  /** How the gateway closed the graphql-ws connection, when it did. */
  readonly closed?: { readonly code: number; readonly reason: string };
  /** What went wrong on the client's side of the exchange: no answer by the deadline, a reset, a dead socket. */
  readonly failure?: string;
}

/**
 * How long a request may go unanswered. Waits are clamped at 30 s (actions, expectations) and the fuzz keeps
 * launch and navigation timeouts small; past this, the gateway has stopped answering.
 */
export const REQUEST_DEADLINE_MS = 90_000;
/** How long a subscription (SSE or graphql-ws) is read before the fuzz ends it itself. */
export const STREAM_WINDOW_MS = 600;
