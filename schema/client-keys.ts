import type { ClientKey } from '../domain/bounded/client-shares.js';
import type { GatewayContext } from './context.js';

/** The context of an operation on a graphql-ws connection: server/graphql-ws.ts puts the socket in it. */
interface ConnectionContext extends GatewayContext {
  readonly socket?: object;
}

/**
 * Who an operation's client is, for its share of what the server holds for its subscribers (their
 * subscriptions, the screencasts they start and watch):
 * - over graphql-ws, its connection: one socket cannot hold it all, whoever it is;
 * - and its token, over any transport: a token holder cannot escape its share by opening more sockets
 *   or SSE streams.
 * Without tokens (the loopback default) every client is `anonymous-loopback`, so the token says nothing
 * about who is who: a graphql-ws connection is then a client of its own, and anonymous HTTP requests
 * (an SSE stream is one), which cannot be told apart, share one share between them. So one socket cannot
 * lock out another, and SSE cannot take what WebSocket clients need.
 */
export function clientKeys(context: GatewayContext): ClientKey[] {
  const { client, socket } = context as ConnectionContext;
  const anonymous = client === undefined || client.role === 'anonymous-loopback';
  if (socket === undefined) return [anonymous ? 'anonymous-loopback' : client.id];
  return anonymous ? [socket] : [socket, client.id];
}
