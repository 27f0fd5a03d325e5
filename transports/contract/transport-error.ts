import type { ErrorCode } from '../../errors/registry.js';
import { StagegraphError, type StagegraphErrorOptions } from '../../errors/stagegraph-error.js';

/**
 * How a call to the app failed at the transport, in the few ways a caller can tell apart (after
 * Playwright's ProtocolError: error / closed / crashed):
 * - `unreachable`: the DevTools endpoint or inspector could not be connected to;
 * - `protocol`: the other end answered the method with an error, or the source it evaluated threw;
 * - `closed`: the connection closed before the method was answered, or was closed when it was called;
 * - `crashed`: the window's renderer process is gone;
 * - `timeout`: the method got no answer within its deadline.
 */
export type TransportErrorKind = 'unreachable' | 'protocol' | 'closed' | 'crashed' | 'timeout';

/**
 * The registry code each kind reaches a client with: the one place transport failures become codes.
 * A step that knows more (inject) may say it in its own terms, as INJECT_TIMEOUT does for a timeout.
 */
export const TRANSPORT_ERROR_CODES = {
  unreachable: 'ATTACH_FAILED',
  protocol: 'PROTOCOL_ERROR',
  closed: 'SESSION_NOT_RUNNING',
  crashed: 'RENDERER_CRASHED',
  timeout: 'CDP_TIMEOUT',
} as const satisfies Record<TransportErrorKind, ErrorCode>;

export interface TransportErrorOptions extends Omit<StagegraphErrorOptions, 'details'> {
  /** The protocol method the failure belongs to (`Runtime.evaluate`), when there is one. */
  method?: string;
}

/**
 * A protocol failure, thrown by transports. It is a StagegraphError whose code follows from its kind,
 * so it reaches a client (and the audit trail) with a registered code and hint wherever it surfaces.
 * With a method, the message is `<method>: <what happened>` — Playwright's form (`page.evaluate: …`),
 * so both read alike — and the method is also in `details.method`.
 */
export class TransportError extends StagegraphError {
  readonly kind: TransportErrorKind;
  readonly method: string | undefined;

  constructor(kind: TransportErrorKind, what: string, options: TransportErrorOptions = {}) {
    const { method, ...rest } = options;
    super(TRANSPORT_ERROR_CODES[kind], method === undefined ? what : `${method}: ${what}`, {
      ...rest,
      ...(method === undefined ? {} : { details: { method } }),
    });
    this.name = 'TransportError';
    this.kind = kind;
    this.method = method;
  }
}
