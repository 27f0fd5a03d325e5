import WebSocket from 'ws';
import { frameData, sseFrames } from './sse-frames.js';

/** What the server answered to a connection's or stream's subscriptions, counted. */
export interface SubscriptionTally {
  /** The subscriptions (graphql-ws ids; `sse` for a stream) that delivered data. */
  readonly delivering: Set<string>;
  /** Subscriptions answered with an error instead of a stream, by `extensions.code`. */
  readonly refused: Map<string, number>;
}

const tally = (): SubscriptionTally => ({ delivering: new Set(), refused: new Map() });

interface Payload {
  readonly data?: unknown;
  readonly errors?: readonly { readonly extensions?: { readonly code?: string } }[];
}

function count(into: SubscriptionTally, id: string, payload: Payload) {
  if (payload.data) into.delivering.add(id);
  for (const error of payload.errors ?? []) {
    const code = error.extensions?.code ?? 'NO_CODE';
    into.refused.set(code, (into.refused.get(code) ?? 0) + 1);
  }
}

/**
 * One graphql-ws connection spoken by hand, so that thousands of subscriptions cost one message each:
 * `subscribe` sends and returns at once, and every answer is counted in `tally`.
 */
export async function subscribingConnection(wsUrl: string, connectionParams: Record<string, unknown> = {}) {
  const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
  const counted = tally();
  let nextId = 1;
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: Payload };
    if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    else if (message.type === 'next' && message.id && message.payload)
      count(counted, message.id, message.payload);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', (code, reason) => reject(new Error(`closed before acknowledged: ${code} ${reason}`)));
    ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams })));
    ws.on('message', function acknowledged(data) {
      if ((JSON.parse(String(data)) as { type: string }).type !== 'connection_ack') return;
      ws.off('message', acknowledged);
      resolve();
    });
  });
  return {
    tally: counted,
    subscribe(query: string): void {
      ws.send(JSON.stringify({ id: String(nextId), type: 'subscribe', payload: { query } }));
      nextId += 1;
    },
    close(): Promise<void> {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        ws.once('close', () => resolve());
        ws.close();
      });
    },
  };
}

/** A subscription over SSE (a POST with `accept: text/event-stream`), its events counted. */
export function sseSubscription(url: string, query: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const counted = tally();
  let failure: unknown;
  const ended = fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  })
    .then(async (response) => {
      for await (const frame of sseFrames(response.body!)) {
        const data = frameData(frame);
        if (data) count(counted, 'sse', data as Payload);
      }
    })
    .catch((error: unknown) => {
      if (!controller.signal.aborted) failure = error;
    });
  return {
    tally: counted,
    /** Why the stream ended before it was closed, if it did. */
    failure: () => failure,
    async close(): Promise<void> {
      controller.abort();
      await ended;
    },
  };
}
