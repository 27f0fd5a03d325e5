import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** One GraphQL error as the gateway sends it: extensions carry the registry code, hint and next actions. */
export interface WireError {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: {
    readonly code?: string;
    readonly hint?: string;
    readonly retryable?: boolean;
    readonly nextActions?: readonly string[];
    readonly [key: string]: unknown;
  };
}

export interface WireResult {
  // biome-ignore lint/suspicious/noExplicitAny: answers are read by the tool that chose the selection
  readonly data?: Record<string, any> | null;
  readonly errors?: readonly WireError[];
}

/**
 * How the bridge reaches the gateway. The bridge is a client of the GraphQL schema: every tool is a
 * document sent through one of these, never a call into the domain.
 */
export interface GraphqlLink {
  execute(query: string, variables?: Record<string, unknown>): Promise<WireResult>;
  /** Holds a subscription open; the returned function ends it. */
  subscribe(
    query: string,
    variables: Record<string, unknown>,
    sink: { next(result: WireResult): void; error(error: unknown): void },
  ): () => void;
  close(): Promise<void>;
}

/** Speaks to a running gateway: queries and mutations over HTTP, subscriptions over graphql-ws. */
export function httpLink(url: string, token?: string): GraphqlLink {
  const authorization = token ? { authorization: `Bearer ${token}` } : undefined;
  let ws: Client | undefined;
  const socket = () => {
    ws ??= createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 5,
      ...(authorization ? { connectionParams: authorization } : {}),
    });
    return ws;
  };
  return {
    async execute(query, variables) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...authorization },
        body: JSON.stringify({ query, variables: variables ?? {} }),
      });
      return readAnswer(response);
    },
    subscribe(query, variables, sink) {
      return socket().subscribe(
        { query, variables },
        { next: (value) => sink.next(value as WireResult), error: sink.error, complete: () => {} },
      );
    },
    async close() {
      await ws?.dispose();
    },
  };
}

/**
 * Executes through a fetch-shaped handler in the same process (the gateway's own yoga), each request
 * carrying the caller's Authorization header so the gateway identifies the caller as it would over HTTP.
 */
export function fetchLink(
  handle: (body: string, authorization: string | undefined) => Promise<Response>,
  authorization: string | undefined,
): GraphqlLink {
  return {
    async execute(query, variables) {
      return readAnswer(await handle(JSON.stringify({ query, variables: variables ?? {} }), authorization));
    },
    subscribe(_query, _variables, sink) {
      sink.error(new Error('subscriptions are not offered over this link'));
      return () => {};
    },
    async close() {},
  };
}

async function readAnswer(response: Response): Promise<WireResult> {
  const text = await response.text();
  try {
    return JSON.parse(text) as WireResult;
  } catch {
    return { errors: [{ message: `The gateway answered ${response.status}: ${text.slice(0, 200)}` }] };
  }
}
