import CDP from 'chrome-remote-interface';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { withDeadline } from './deadline.js';

/** A DevTools call that takes longer than this is stuck: the browser answers in milliseconds when well. */
export const CDP_CALL_TIMEOUT_MS = 10_000;

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

/**
 * One chrome-remote-interface client on a DevTools websocket (a browser's, or a Node inspector's):
 * requests are matched by id, each has a deadline (CDP_TIMEOUT naming the method), and when the socket
 * closes every pending call is rejected at once and `onClose` listeners run, once.
 */
export class CdpConnection {
  readonly url: string;
  readonly #client: CDP.Client;
  readonly #closeListeners = new Set<(reason: string) => void>();
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
        new StagegraphError(
          'CDP_TIMEOUT',
          `The DevTools websocket ${url} did not open within ${timeoutMs} ms.`,
        ),
    ).catch((error: unknown) => {
      // A late open is closed at once, or its socket would keep the endpoint's session alive.
      void connecting.then((late) => late.close()).catch(() => undefined);
      if (error instanceof StagegraphError) throw error;
      throw new StagegraphError(
        'ATTACH_FAILED',
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
      throw new StagegraphError(
        'SESSION_NOT_RUNNING',
        `The DevTools connection is closed; ${method} was not sent.`,
      );
    }
    const call = (this.#client.send as (m: string, p: object, s?: string) => Promise<unknown>)(
      method,
      params,
      sessionId,
    );
    return (await withDeadline(
      call,
      timeoutMs,
      () => new StagegraphError('CDP_TIMEOUT', `${method} got no answer within ${timeoutMs} ms.`),
    )) as T;
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
    await this.#client.close().catch(() => undefined);
  }

  #markClosed(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#closeListeners) listener(reason);
    this.#closeListeners.clear();
  }
}
