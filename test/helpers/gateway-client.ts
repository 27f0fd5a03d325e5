import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { expect } from 'vitest';
import { type GraphqlResponse, http } from './gateway.js';

/**
 * Responses to inline operations as end-to-end tests read them: any path may be followed, and a wrong one
 * fails the assertion that reads it. The stable operations (launch, stop, click, fill, snapshot, console,
 * windows) are typed documents in test/operations; a test writes the rest inline, so it shows the exact
 * GraphQL an agent would send for what it tests.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Loose = any;

export interface LooseResponse {
  /** The HTTP status: 200 for GraphQL answers, 401 without a token the server requires. */
  readonly status: number;
  readonly data?: Loose;
  readonly errors?: readonly { message: string; extensions?: Loose }[];
}

type Variables = Record<string, unknown>;

/** The one client every end-to-end suite sends its queries and mutations with, over HTTP. */
export interface GatewayClient {
  /** Sends one operation and returns the whole response. */
  send<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<GraphqlResponse<T>>;
  send(query: string, variables?: Variables): Promise<LooseResponse>;
  /** Sends one operation and returns its data, failing the test on any error. */
  data<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<T>;
  data(query: string, variables?: Variables): Promise<Loose>;
  /** Sends one operation that must fail, and returns its first error's extensions with the message. */
  failure<T, V>(document: TypedDocumentNode<T, V>, variables?: V): Promise<Loose>;
  failure(query: string, variables?: Variables): Promise<Loose>;
}

/** A client of a running gateway; `headers` go with every request (a token, a cross-site Origin). */
export function gatewayClient(url: string, headers: Record<string, string> = {}): GatewayClient {
  const send = (document: TypedDocumentNode<Loose, Loose> | string, variables?: Loose) =>
    http(url, document, variables, headers) as Promise<LooseResponse>;
  return {
    send,
    async data(document: TypedDocumentNode<Loose, Loose> | string, variables?: Loose) {
      const response = await send(document, variables);
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      return response.data;
    },
    async failure(document: TypedDocumentNode<Loose, Loose> | string, variables?: Loose) {
      const response = await send(document, variables);
      expect(
        response.errors?.length,
        `expected an error, got ${JSON.stringify(response.data)}`,
      ).toBeGreaterThan(0);
      return { message: response.errors?.[0]?.message, ...response.errors?.[0]?.extensions };
    },
  };
}
