import { EventRelay } from './event-relay.js';
import type { EventPort, TransportEvent } from './transport-events.js';

/**
 * Whether events the transport observes while a session releases what it holds still reach the domain:
 * `delivered` where the release itself ends an owned app (its exit says how the session ended), `dropped`
 * where the release tears down what would report (a desktop's windows closing with its display).
 */
export type EventsDuringRelease = 'delivered' | 'dropped';

/**
 * The life every transport session shares between its start and its end: it publishes on its event port
 * until disposed; it knows once it has ended (let go or lost), so a later disconnect is its own doing and
 * not news; and it releases what it holds once, however many times and however concurrently disposed.
 */
export class SessionLifecycle {
  readonly #relay = new EventRelay();
  readonly events: EventPort = this.#relay;
  readonly #eventsDuringRelease: EventsDuringRelease;
  #ended = false;
  #disposal: Promise<void> | undefined;
  #silenced = false;

  constructor(eventsDuringRelease: EventsDuringRelease) {
    this.#eventsDuringRelease = eventsDuringRelease;
  }

  /** Let go of or lost: nothing the app does afterwards is reported as its loss. */
  get ended(): boolean {
    return this.#ended;
  }

  get disposed(): boolean {
    return this.#disposal !== undefined;
  }

  emit(event: TransportEvent): void {
    if (!this.#silenced) this.#relay.emit(event);
  }

  /** Marks the session ended; false when it already was. */
  end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    return true;
  }

  /** Reports the app lost, once, unless the session had already ended. */
  lost(reason: string): void {
    if (this.end()) this.emit({ type: 'disconnected', reason });
  }

  /** Ends the session and runs `release` once; every call answers when that one release is done. */
  dispose(release: () => Promise<void>): Promise<void> {
    this.#disposal ??= this.#release(release);
    return this.#disposal;
  }

  async #release(release: () => Promise<void>): Promise<void> {
    this.#ended = true;
    if (this.#eventsDuringRelease === 'dropped') this.#silenced = true;
    try {
      await release();
    } finally {
      this.#silenced = true;
      this.#relay.close();
    }
  }
}
