import { fileURLToPath } from 'node:url';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type ExecutionResult, print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createGateway, type Gateway } from '../../server/app.js';
import type { ServeConfig } from '../../server/config.js';
import type { Transport } from '../../transports/contract/transport-contract.js';

export interface RunningGateway {
  readonly gateway: Gateway;
  readonly url: string;
  readonly wsUrl: string;
  stop(): Promise<void>;
}

/** Test gateways keep artifacts in the ignored .artifacts folder, apart from a developer's own runs. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../.artifacts/tests', import.meta.url));
/** Uploads in tests come from the fixtures folder only, so confinement is exercised for real. */
export const UPLOAD_ROOT = fileURLToPath(new URL('../../fixtures', import.meta.url));

/** A real gateway on a free loopback port; stop() ends its sessions and sockets. */
export async function startGateway(
  overrides: Partial<ServeConfig> = {},
  transports?: readonly Transport[],
): Promise<RunningGateway> {
  const gateway = createGateway({
    ...(transports ? { transports } : {}),
    config: {
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      allowEval: 'none',
      electron: undefined,
      demo: false,
      artifactsDir: ARTIFACTS_DIR,
      uploadRoots: [UPLOAD_ROOT],
      ...overrides,
    },
    log: () => {},
  });
  const url = await gateway.start();
  return { gateway, url, wsUrl: url.replace(/^http/, 'ws'), stop: () => gateway.stop() };
}

export interface GraphqlResponse<T> {
  readonly status: number;
  readonly data?: T | null;
  readonly errors?: readonly { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

/** POSTs one operation over HTTP, as any client would. */
export async function http<T, V>(
  url: string,
  document: TypedDocumentNode<T, V> | string,
  variables?: V,
  headers: Record<string, string> = {},
): Promise<GraphqlResponse<T>> {
  const query = typeof document === 'string' ? document : print(document);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as object) };
}

export function wsClient(wsUrl: string, connectionParams?: Record<string, unknown>): Client {
  return createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    ...(connectionParams ? { connectionParams } : {}),
  });
}

/** One query or mutation over graphql-ws. */
export function wsRequest<T, V>(
  client: Client,
  document: TypedDocumentNode<T, V>,
  variables?: V,
): Promise<ExecutionResult<T>> {
  return new Promise((resolve, reject) => {
    let result: ExecutionResult<T> | undefined;
    client.subscribe<T>(
      { query: print(document), variables: (variables ?? {}) as Record<string, unknown> },
      {
        next: (value) => {
          result = value as ExecutionResult<T>;
        },
        error: reject,
        complete: () => (result ? resolve(result) : reject(new Error('completed without a result'))),
      },
    );
  });
}

export interface Subscription<T> {
  readonly received: T[];
  readonly errors: unknown[];
  /**
   * Resolves with the first received value (past or future) that matches, or rejects after `timeoutMs`:
   * a safety net, 30 s by default since a loaded machine takes seconds to deliver what a quiet one does at once.
   */
  waitFor(predicate: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  dispose(): void;
}

/** Holds a subscription open and records everything it receives. */
export function subscribe<T, V>(
  client: Client,
  document: TypedDocumentNode<T, V>,
  variables?: V,
): Subscription<T> {
  const received: T[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  const dispose = client.subscribe<T>(
    { query: print(document), variables: (variables ?? {}) as Record<string, unknown> },
    {
      next: (value) => {
        if (value.errors) errors.push(...value.errors);
        if (value.data) received.push(value.data as T);
        for (const waiter of waiters) waiter();
      },
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  return {
    received,
    errors,
    dispose,
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${JSON.stringify(received).slice(0, 2000)}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}
