import type { Socket } from 'node:net';
import WebSocket from 'ws';

/**
 * Bytes a connection may hold unsent before a send waits for the kernel again. Below it a send reports
 * done at once, so graphql-ws moves on to the subscriber's next event; above it the send waits as before,
 * a slow reader stops pulling from its queue, and that queue (bounded) drops its oldest events — the
 * server's memory never holds more than this per connection beyond one frame.
 */
export const UNSENT_BYTES_LIMIT = 64 * 1024;

type SendCallback = (error?: Error) => void;
type SendOptions = Exclude<Parameters<WebSocket['send']>[1], SendCallback | undefined>;

/**
 * ws's WebSocket (set as the server's `WebSocket` class) whose frames written in one turn of the event loop
 * leave in one write. graphql-ws awaits each frame's write callback before sending the next, and ws writes
 * every frame on its own: one syscall per delivery. Here the TCP socket is corked until the loop's check
 * phase (setImmediate: after every I/O callback of this turn, so events that came in several chunks of the
 * page's feed go out together) and the callback runs at once while the connection holds less than
 * UNSENT_BYTES_LIMIT unsent, so a subscriber's backlog goes out as one write per turn.
 */
export class BatchedSendWebSocket extends WebSocket {
  #tcp: Socket | undefined;

  /** The upgraded request's socket, the one ws writes to (from the server's `connection` event). */
  writesTo(tcp: Socket): void {
    this.#tcp = tcp;
  }

  override send(
    data: Parameters<WebSocket['send']>[0],
    optionsOrCallback?: SendOptions | SendCallback,
    maybeCallback?: SendCallback,
  ): void {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    const options = typeof optionsOrCallback === 'function' ? {} : (optionsOrCallback ?? {});
    this.#corkForThisTurn();
    if (callback === undefined || this.bufferedAmount >= UNSENT_BYTES_LIMIT) {
      super.send(data, options, callback);
      return;
    }
    // A failed write closes the socket, which ends its subscriptions: nothing is left to tell.
    super.send(data, options, () => {});
    callback();
  }

  #corkForThisTurn(): void {
    const tcp = this.#tcp;
    if (tcp === undefined || tcp.writableCorked > 0) return;
    tcp.cork();
    setImmediate(() => tcp.uncork());
  }
}
