import WebSocket from 'ws';

/** One operation of the mix: what it sends and over which way in. */
export interface MixedOperation {
  readonly kind: string;
  readonly via: 'POST' | 'GET' | 'WS';
  readonly query: string;
  readonly variables?: unknown;
  /** A body that is not the JSON of query and variables (a client's own mistake). */
  readonly rawBody?: string;
  /** A GET's variables parameter as sent, possibly not JSON. */
  readonly rawVariables?: string;
}

/**
 * The mix an agent and its mistakes send, each document new: a valid read with its own alias and
 * operation name, a syntax error, an unknown field, a wrong variable type, a body that is not JSON, and
 * the same over GET and graphql-ws. Every document is distinct, as a careless agent's retries are: a cache
 * keyed by document holds one entry per operation unless it is bounded.
 */
export function mixedOperation(n: number): MixedOperation {
  const kinds: (() => MixedOperation)[] = [
    () => ({
      kind: 'valid',
      via: 'POST',
      query: `query Read${n} { sessions { id status } t${n}: transports { id capabilities { LAUNCH ATTACH } } errorCodes { code retryable } }`,
    }),
    () => ({ kind: 'syntax', via: 'POST', query: `{ sessions { id s${n}` }),
    () => ({ kind: 'unknown-field', via: 'POST', query: `{ sessions { id } nope${n} { id } }` }),
    () => ({
      kind: 'wrong-type',
      via: 'POST',
      query: `query Wrong${n}($id: ID!) { session(id: $id) { id } }`,
      variables: { id: { n } },
    }),
    () => ({ kind: 'bad-json', via: 'POST', query: '', rawBody: `{"query": "{ sessions { id } }", ${n}` }),
    () => ({ kind: 'valid', via: 'GET', query: `{ sessions { id } g${n}: __typename }` }),
    () => ({
      kind: 'bad-variables',
      via: 'GET',
      query: `{ sessions { id } v${n}: __typename }`,
      rawVariables: 'notjson',
    }),
    () => ({ kind: 'syntax', via: 'GET', query: `{ sessions { id g${n}` }),
    () => ({
      kind: 'valid',
      via: 'WS',
      query: `query Ws${n} { sessions { id } w${n}: errorCodes { code } }`,
    }),
    () => ({ kind: 'unknown-field', via: 'WS', query: `{ nope${n} }` }),
    () => ({ kind: 'large', via: 'POST', query: `{ session(id: "${longLiteral(n)}") { id } }` }),
    () => ({ kind: 'large-syntax', via: 'POST', query: `{ session(id: "${longLiteral(n)}") { id ` }),
  ];
  return (kinds[n % kinds.length] as () => MixedOperation)();
}

/**
 * A string argument as long as an agent's pasted text: within the request size limit, and long enough
 * that a cache keyed by document text, bounded only by its count, holds tens of megabytes of them.
 */
const LONG_LITERAL_CHARS = 100_000;

function longLiteral(n: number): string {
  return `${n} `.padEnd(LONG_LITERAL_CHARS, 'x');
}

/**
 * Sends one operation over HTTP; answers the status (the body is read and dropped, as a client would).
 * A request sent on a keep-alive connection just as the server closes it for idleness is reset unread
 * (after a heap snapshot stopped this process, see heap-growth.ts): it is sent once more.
 */
export async function sendOverHttp(url: string, operation: MixedOperation): Promise<number> {
  try {
    return await sendOnce(url, operation);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return sendOnce(url, operation);
  }
}

async function sendOnce(url: string, operation: MixedOperation): Promise<number> {
  if (operation.via === 'GET') {
    const target = new URL(url);
    target.searchParams.set('query', operation.query);
    if (operation.rawVariables !== undefined) target.searchParams.set('variables', operation.rawVariables);
    const response = await fetch(target, { headers: { accept: 'application/json' } });
    await response.arrayBuffer();
    return response.status;
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body:
      operation.rawBody ??
      JSON.stringify({
        query: operation.query,
        ...(operation.variables ? { variables: operation.variables } : {}),
      }),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * A graphql-ws connection spoken by hand: `subscribe` answers with how the operation ended. A socket the
 * server closes (today's answer to some bad documents) is reopened for the next operation, so the mix goes
 * on whatever the server does with one.
 */
export function rawGraphqlWs(wsUrl: string) {
  let socket: Promise<WebSocket> | undefined;
  let nextId = 1;
  const waiting = new Map<string, (outcome: string) => void>();
  const open = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(wsUrl, 'graphql-transport-ws');
      const failAll = (outcome: string) => {
        for (const settle of waiting.values()) settle(outcome);
        waiting.clear();
        socket = undefined;
      };
      ws.once('error', (error) => {
        reject(error);
        failAll('socket-error');
      });
      ws.once('close', (code) => failAll(`closed ${code}`));
      ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string };
        if (message.type === 'connection_ack') resolve(ws);
        else if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
        else if (message.id !== undefined && (message.type === 'complete' || message.type === 'error')) {
          waiting.get(message.id)?.(message.type);
          waiting.delete(message.id);
        }
      });
    });
  return {
    async send(query: string): Promise<string> {
      socket ??= open();
      const ws = await socket;
      const id = String(nextId);
      nextId += 1;
      return new Promise<string>((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
      });
    },
    async close(): Promise<void> {
      const ws = await socket?.catch(() => undefined);
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise((resolve) => {
        ws.once('close', resolve);
        ws.close();
      });
    },
  };
}
