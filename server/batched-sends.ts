import type { Socket } from 'node:net';
import WebSocket from 'ws';

/**
 * Bytes a connection may hold unsent before a send waits for the kernel again. Below it a send reports
 * done at once, so graphql-ws moves on to the subscriber's next event; above it the send waits as before,
 * a slow reader stops pulling from its queue, and that queue (bounded) drops its oldest events — the
 * server's memory never holds more than this per connection beyond one frame.
 */
export const UNSENT_BYTES_LIMIT = 64 * 1024;

/**
 * How long a frame may wait for others to leave with it. Events reach the gateway one per turn of the
 * event loop (a few hundred a second under a flood), so flushing every turn is still one write syscall
 * per frame per subscriber; a few milliseconds gather several frames into one write. Only frames that
 * follow another within this window wait: a lone frame (the answer to a query or mutation) leaves at once.
 */
export const FLUSH_DELAY_MS = 5;

type SendCallback = (error?: Error) => void;
type SendOptions = Exclude<Parameters<WebSocket['send']>[1], SendCallback | undefined>;

/** Connections holding frames until the next flush; one timer flushes them all. */
const corked = new Set<Socket>();
/** When each connection last wrote a frame uncorked: a frame soon after it starts a batch instead. */
const lastLoneFrameAt = new WeakMap<Socket, number>();
let flushScheduled = false;

function flush(): void {
  flushScheduled = false;
  for (const tcp of corked) tcp.uncork();
  corked.clear();
}

/** Corks a connection that wrote within the last FLUSH_DELAY_MS; one that was quiet writes at once. */
function batchIfBusy(tcp: Socket): void {
  if (corked.has(tcp)) return;
  const now = performance.now();
  if (now - (lastLoneFrameAt.get(tcp) ?? Number.NEGATIVE_INFINITY) > FLUSH_DELAY_MS) {
    lastLoneFrameAt.set(tcp, now);
    return;
  }
  tcp.cork();
  corked.add(tcp);
  if (flushScheduled) return;
  flushScheduled = true;
  setTimeout(flush, FLUSH_DELAY_MS);
}

/**
 * ws's WebSocket (set as the server's `WebSocket` class) whose frames leave together. graphql-ws awaits
 * each frame's write callback before sending the next, and ws writes every frame on its own: one syscall
 * per delivery. Here a frame that follows another within FLUSH_DELAY_MS corks the TCP socket until the
 * window ends, and the callback runs at once while the connection holds less than UNSENT_BYTES_LIMIT
 * unsent, so a busy subscriber's frames go out several to a write and a quiet one's without delay.
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
    if (this.#tcp) batchIfBusy(this.#tcp);
    if (callback === undefined || this.bufferedAmount >= UNSENT_BYTES_LIMIT) {
      super.send(data, options, callback);
      return;
    }
    // A failed write closes the socket, which ends its subscriptions: nothing is left to tell.
    super.send(data, options, () => {});
    callback();
  }
}
