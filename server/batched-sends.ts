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
 * How long a streaming connection's frames may wait for others to leave with them. Events reach the
 * gateway one per turn of the event loop (a few hundred a second under a flood), so flushing every turn is
 * still one write syscall per frame per subscriber; a few milliseconds gather several frames into one write.
 */
export const FLUSH_DELAY_MS = 5;
/**
 * Frames within FLUSH_DELAY_MS that make a connection a stream, whose `next` frames wait for the timer.
 * Below it, and for every frame that ends an answer (a query's `complete`), frames leave at the end of
 * the turn that sent them, so no answer waits on a timer however fast a client asks.
 */
export const STREAMING_FRAMES = 8;

type SendCallback = (error?: Error) => void;
type SendOptions = Exclude<Parameters<WebSocket['send']>[1], SendCallback | undefined>;

/** A connection's recent pace: frames sent since `since`, a window of FLUSH_DELAY_MS. */
interface Pace {
  since: number;
  frames: number;
}

const paces = new WeakMap<Socket, Pace>();
/** Connections corked together and uncorked by one scheduled flush. */
class CorkGroup {
  readonly #members = new Set<Socket>();
  readonly #schedule: (flush: () => void) => void;
  #scheduled = false;

  constructor(schedule: (flush: () => void) => void) {
    this.#schedule = schedule;
  }

  has(tcp: Socket): boolean {
    return this.#members.has(tcp);
  }

  delete(tcp: Socket): void {
    this.#members.delete(tcp);
  }

  add(tcp: Socket): void {
    this.#members.add(tcp);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => {
      this.#scheduled = false;
      for (const member of this.#members) member.uncork();
      this.#members.clear();
    });
  }
}

/** Connections holding frames until the end of this turn, and streams holding them until the timer. */
const untilTurnEnds = new CorkGroup((flush) => setImmediate(flush));
const untilTimer = new CorkGroup((flush) => setTimeout(flush, FLUSH_DELAY_MS));

function isStreaming(tcp: Socket): boolean {
  const now = performance.now();
  const pace = paces.get(tcp) ?? { since: now, frames: 0 };
  if (now - pace.since > FLUSH_DELAY_MS) {
    pace.since = now;
    pace.frames = 0;
  }
  pace.frames += 1;
  paces.set(tcp, pace);
  return pace.frames > STREAMING_FRAMES;
}

/** graphql-ws writes `type` right after `id`: a `next` frame says so within its first bytes. */
const NEXT_FRAME_PREFIX_LENGTH = 64;
const isNextFrame = (data: unknown) =>
  typeof data === 'string' && data.slice(0, NEXT_FRAME_PREFIX_LENGTH).includes('"type":"next"');

/**
 * Corks a connection until the end of this turn, or, for the `next` frames of a streaming connection,
 * until the next timer flush. Any other frame (`complete`, `error`, `pong`) ends an answer or a protocol
 * step that someone waits for, so it takes its connection's frames out at the end of the turn.
 */
function batch(tcp: Socket, data: unknown): void {
  const streaming = isStreaming(tcp) && isNextFrame(data);
  if (untilTurnEnds.has(tcp)) return;
  if (untilTimer.has(tcp)) {
    if (streaming) return;
    untilTimer.delete(tcp);
  } else {
    tcp.cork();
  }
  (streaming ? untilTimer : untilTurnEnds).add(tcp);
}

/**
 * ws's WebSocket (set as the server's `WebSocket` class) whose frames leave together. graphql-ws awaits
 * each frame's write callback before sending the next, and ws writes every frame on its own: one syscall
 * per delivery. Here the TCP socket is corked until the end of the turn (or, for a streaming connection,
 * for up to FLUSH_DELAY_MS) and the callback runs at once while the connection holds less than
 * UNSENT_BYTES_LIMIT unsent, so a subscriber's frames go out several to a write and an answer without delay.
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
    if (this.#tcp) batch(this.#tcp, data);
    if (callback === undefined || this.bufferedAmount >= UNSENT_BYTES_LIMIT) {
      super.send(data, options, callback);
      return;
    }
    // A failed write closes the socket, which ends its subscriptions: nothing is left to tell.
    super.send(data, options, () => {});
    callback();
  }
}
