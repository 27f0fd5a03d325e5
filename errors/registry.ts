/**
 * The closed registry of error codes. Clients branch on `code`, never on prose, so a code is added here
 * (with its meaning, whether retrying can help, and a hint) before any code path may raise it; the type
 * `ErrorCode` makes an unregistered code a compile error and `registry.test.ts` scans the sources too.
 */
export interface ErrorCodeInfo {
  readonly meaning: string;
  readonly retryable: boolean;
  readonly hint: string;
}

export const ERROR_CODES = {
  BAD_INPUT: {
    meaning: 'An argument was well-typed but unusable (empty, out of range, contradictory).',
    retryable: false,
    hint: 'Correct the argument named in the message and send the operation again.',
  },
  SESSION_NOT_FOUND: {
    meaning: 'No session has that id (it never existed or was removed).',
    retryable: false,
    hint: 'List the live sessions with `sessions { id status }` and use one of their ids.',
  },
  SESSION_AMBIGUOUS: {
    meaning: 'The session id was omitted but more than one session exists.',
    retryable: false,
    hint: 'Pass `id` explicitly; `sessions { id status app { name } }` lists the candidates.',
  },
  SESSION_NOT_RUNNING: {
    meaning: 'The session has stopped, exited or crashed, so it cannot act; its buffers stay readable.',
    retryable: false,
    hint: 'Read its post-mortem fields (status, exit, console) or launch a new session.',
  },
  WINDOW_NOT_FOUND: {
    meaning: 'No open window of the session matches the given id, title, url or index.',
    retryable: true,
    hint: 'List the windows with `session { windows { id title url } }`; a window may still be opening.',
  },
  LAUNCH_FAILED: {
    meaning:
      'The app could not be started: no executable resolved, the entry script is missing, or the process died during start-up.',
    retryable: false,
    hint: 'Check `main` / `executablePath`; set ELECTRON_PATH or start the server with --electron to name an Electron binary.',
  },
  LAUNCH_TIMEOUT: {
    meaning:
      'The app started but did not become drivable (no CDP endpoint or first window) within the timeout.',
    retryable: true,
    hint: 'Raise `timeoutMs` (clamped to 120000) or check the app opens a window at start-up.',
  },
  CAPABILITY_UNSUPPORTED: {
    meaning: "The session's transport cannot do this; the field was refused before any transport call.",
    retryable: false,
    hint: 'Use a session on a transport whose capability matrix has this capability (see `transports`).',
  },
  EVAL_DISABLED: {
    meaning: 'Arbitrary JavaScript evaluation is disabled on this server.',
    retryable: false,
    hint: 'Restart the server with --allow-eval (or --allow-eval=main / =renderer) if you accept the risk.',
  },
  UNAUTHENTICATED: {
    meaning: 'The request carried no valid token and this server requires one.',
    retryable: false,
    hint: 'Send `Authorization: Bearer <token>` over HTTP, or `{ authorization: "Bearer <token>" }` in connection_init over WebSocket.',
  },
  SUBSCRIPTION_LIMIT: {
    meaning: 'The server holds the maximum number of subscriptions it allows.',
    retryable: true,
    hint: 'Close a subscription you no longer read, then subscribe again.',
  },
  INTERNAL: {
    meaning: 'An unexpected error; details are in the server log, never in the response.',
    retryable: true,
    hint: 'Retry once; if it persists, report it with the time and the operation.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
