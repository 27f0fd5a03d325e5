import CDP from 'chrome-remote-interface';
import { TransportError } from '../contract/transport-error.js';
import { withDeadline } from './deadline.js';

/** A DevTools call that takes longer than this is stuck: the browser answers in milliseconds when well. */
export const CDP_CALL_TIMEOUT_MS = 10_000;

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

/** A call sent and not yet answered: what to reject when the connection goes. */
interface PendingCall {
  readonly method: string;
  readonly reject: (error: TransportError) => void;
}

/**
 * One chrome-remote-interface client on a DevTools websocket (a browser's, or a Node inspector's):
 * requests are matched by id, each has a deadline, and every failure is a TransportError naming the
 * method — `protocol` when the other end answers with an error, `timeout` past the deadline, `closed`
 * when the socket goes: then every pending call is rejected at once and `onClose` listeners run, once.
 */
export class CdpConnection {
  readonly url: string;
  readonly #client: CDP.Client;
  readonly #closeListeners = new Set<(reason: string) => void>();
  readonly #pending = new Set<PendingCall>();
  #closed = false;
  #closing = false;

  private constructor(url: string, client: CDP.Client) {
    this.url = url;
    this.#client = client;
    client.on('disconnect', () => this.#markClosed('the DevTools connection closed'));
  }

  static async open(url: string, timeoutMs: number): Promise<CdpConnection> {
    // `local`: use the protocol description bundled with the client; a Node inspector serves none.
    const connecting = CDP({ target: url, local: true });
    const client = await withDeadline(
      connecting,
      timeoutMs,
      () =>
        new TransportError('timeout', `The DevTools websocket ${url} did not open within ${timeoutMs} ms.`),
    ).catch((error: unknown) => {
      // A late open is closed at once, or its socket would keep the endpoint's session alive.
      void connecting.then((late) => late.close()).catch(() => undefined);
      if (error instanceof TransportError) throw error;
      throw new TransportError(
        'unreachable',
        `Cannot open the DevTools websocket ${url}: ${String(error)}.`,
        {
          cause: error,
        },
      );
    });
    return new CdpConnection(url, client);
  }

  get closed(): boolean {
    return this.#closed;
  }

  async send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs = CDP_CALL_TIMEOUT_MS,
    sessionId?: string,
  ): Promise<T> {
    if (this.#closed) {
      throw new TransportError('closed', 'the DevTools connection is closed, so it was not sent.', {
        method,
      });
    }
    const sent = (this.#client.send as (m: string, p: object, s?: string) => Promise<unknown>)(
      method,
      params,
      sessionId,
    );
    let pending: PendingCall | undefined;
    const call = new Promise<unknown>((resolve, reject) => {
      pending = { method, reject };
      this.#pending.add(pending);
      sent.then(resolve, (error: unknown) => reject(this.#failure(method, error)));
    });
    try {
      return (await withDeadline(
        call,
        timeoutMs,
        () => new TransportError('timeout', `no answer within ${timeoutMs} ms.`, { method }),
      )) as T;
    } finally {
      this.#pending.delete(pending as PendingCall);
    }
  }

  /** Subscribes to one event; returns the unsubscribe. */
  on(event: string, listener: Listener): () => void {
    const client = this.#client as unknown as NodeJS.EventEmitter;
    client.on(event, listener);
    return () => client.off(event, listener);
  }

  /** Runs once when the socket closes for any reason other than close(). */
  onClose(listener: (reason: string) => void): () => void {
    if (this.#closed && !this.#closing) {
      queueMicrotask(() => listener('the DevTools connection closed'));
      return () => undefined;
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    this.#closed = true;
    this.#rejectPending('the DevTools connection was closed before it answered.');
    await this.#client.close().catch(() => undefined);
  }

  /** Closes the socket as if the other end had: `onClose` listeners run with `reason`. */
  async leave(reason: string): Promise<void> {
    if (this.#closed) return;
    this.#markClosed(reason);
    await this.#client.close().catch(() => undefined);
  }

  #markClosed(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#rejectPending(`${reason} before it answered.`);
    for (const listener of this.#closeListeners) listener(reason);
    this.#closeListeners.clear();
  }

  #rejectPending(what: string): void {
    for (const { method, reject } of this.#pending) reject(new TransportError('closed', what, { method }));
    this.#pending.clear();
  }

  /**
   * What a rejected call means: the client rejects with its ProtocolError (carrying the endpoint's answer)
   * when the other end refused the method, and with a plain Error only when the socket failed under it.
   */
  #failure(method: string, error: unknown): TransportError {
    if (error instanceof Error && 'response' in error) {
      return new TransportError('protocol', error.message, { method, cause: error });
    }
    return new TransportError('closed', `the DevTools connection failed: ${String(error)}.`, {
      method,
      cause: error,
    });
  }
}
