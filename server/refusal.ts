import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * Node alone would send a bare 431 or 400. Anything else (a reset, a request timeout) only closes it.
 */
export function answerUnreadableRequest(error: Error & { code?: string }, socket: Duplex): void {
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
