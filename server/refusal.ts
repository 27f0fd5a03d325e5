import type { IncomingMessage, ServerResponse } from 'node:http';
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
