import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../errors/registry.js';
import type { Refusal } from './request-guard.js';

/** The refusal as the JSON body every client gets (browsers do not show it; agents and curl do). */
export function refusalBody(refusal: Refusal): string {
  return JSON.stringify({
    errors: [
      {
        message: refusal.message,
        extensions: {
          code: refusal.code,
          hint: ERROR_CODES[refusal.code].hint,
          retryable: false,
          nextActions: [],
        },
      },
    ],
  });
}

/** Answers a request the guard refused: its status, and that body. */
export function refuse(response: ServerResponse, refusal: Refusal): void {
  response.writeHead(refusal.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(refusalBody(refusal));
}

/** ws's verifyClient callback: a refused upgrade gets the same status and body, before any handshake. */
export type UpgradeGuard = (request: IncomingMessage) => Refusal | null;

export function verifyUpgrade(guard: UpgradeGuard) {
  return (
    info: { req: IncomingMessage },
    done: (ok: boolean, status?: number, message?: string, headers?: Record<string, string>) => void,
  ): void => {
    const refusal = guard(info.req);
    if (refusal) done(false, refusal.status, refusalBody(refusal), { 'content-type': 'application/json' });
    else done(true);
  };
}

/**
 * The server's `clientError`: what Node's HTTP parser refused before any route saw it (headers or query
 * string past maxHeaderBytes, or bytes that are not HTTP) is answered with a registered code too, where
 * Node alone would send a bare 400 or 431. Anything else (a reset, a request timeout) only closes it.
 *
 * Bytes the parser refuses while a request on the same connection is being answered are no request of
 * their own: they are that one's body sent without framing (Node's client sends a DELETE, GET, HEAD or
 * OPTIONS body with neither Content-Length nor chunking), or anything after its `Connection: close`. That
 * request gets its one answer, and then the connection closes — a second response after it was read by the
 * client as a corrupt stream ("Data after `Connection: close`"), and its first answer lost. Unreadable
 * bytes on an idle kept-alive connection are a request of their own, and get the refusal.
 */
export function answerUnreadableRequests(server: Server): void {
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    answering.set(socket, response);
    // 'finish' (its last byte handed to the socket) comes first; 'close' covers an answer cut short.
    const answered = () => {
      if (answering.get(socket) === response) answering.delete(socket);
    };
    response.once('finish', answered);
    response.once('close', answered);
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const inFlight = answering.get(socket);
    if (inFlight) closeAfter(inFlight, socket);
    else answerUnreadableRequest(error, socket);
  });
}

/** The parser is done with this connection: the answer in flight is its last. */
function closeAfter(response: ServerResponse, socket: Duplex): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
  if (response.writableFinished) socket.end();
  else response.once('finish', () => socket.end());
  response.once('close', () => {
    if (!response.writableFinished) socket.destroy();
  });
}

/** Answers bytes that are the first a connection sent and not HTTP: the refusal, then the close. */
function answerUnreadableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || !error.code?.startsWith('HPE_')) {
    socket.destroy();
    return;
  }
  const refusal: Refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? {
          status: 431,
          code: 'REQUEST_TOO_LARGE',
          message: 'The request line and headers are over the size the server reads (--max-request-bytes).',
        }
      : { status: 400, code: 'BAD_REQUEST', message: 'The request is not well-formed HTTP/1.1.' };
  const body = refusalBody(refusal);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json\r\nCache-Control: no-store\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
