import { expect } from 'vitest';
import { http } from './gateway.js';

/**
 * Responses as end-to-end tests read them: any path may be followed, and a wrong one fails the assertion
 * that reads it. The typed documents of test/operations cover the foundation; these suites favour
 * inline operations so each test shows the exact GraphQL an agent would send.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Loose = any;

export interface LooseResponse {
  /** The HTTP status: 200 for GraphQL answers, 401 without a token the server requires. */
  readonly status: number;
  readonly data?: Loose;
  readonly errors?: readonly { message: string; extensions?: Loose }[];
}

export interface GatewayClient {
  /** Sends one operation over HTTP and returns the whole response. */
  send(query: string, variables?: Record<string, unknown>): Promise<LooseResponse>;
  /** Sends one operation and returns its data, failing the test on any error. */
  data(query: string, variables?: Record<string, unknown>): Promise<Loose>;
  /** Sends one operation that must fail, and returns its first error's extensions with the message. */
  failure(query: string, variables?: Record<string, unknown>): Promise<Loose>;
}

/** Inline operations against a running gateway, as the end-to-end suites send them. */
export function gatewayClient(url: string, headers: Record<string, string> = {}): GatewayClient {
  const send = (query: string, variables?: Record<string, unknown>) =>
    http<Loose, Record<string, unknown> | undefined>(
      url,
      query,
      variables,
      headers,
    ) as Promise<LooseResponse>;
  return {
    send,
    async data(query, variables) {
      const response = await send(query, variables);
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      return response.data;
    },
    async failure(query, variables) {
      const response = await send(query, variables);
      expect(
        response.errors?.length,
        `expected an error, got ${JSON.stringify(response.data)}`,
      ).toBeGreaterThan(0);
      return { message: response.errors?.[0]?.message, ...response.errors?.[0]?.extensions };
    },
  };
}
