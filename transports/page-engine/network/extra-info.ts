/**
 * How long a finished hop waits for ExtraInfo events the browser said it would send. They come from the
 * network service, apart from the renderer's events, so they may trail the response (they seldom do).
 */
const EXTRA_INFO_WAIT_MS = 500;

type Headers = Record<string, string>;

/** What the hop's ExtraInfo events said, when they came: the headers on the wire, cookies included. */
export interface HopExtraInfo {
  readonly request: Headers | undefined;
  readonly response: Headers | undefined;
}

/**
 * How a hop takes its ExtraInfo: `wait` when the browser announced them (hasExtraInfo), `none` when it said
 * there are none, `peek` when it did not say (a hop that failed before any response): take what came.
 */
export type ExtraInfoExpectation = 'wait' | 'none' | 'peek';

/**
 * The ExtraInfo events of one request id, in order. They carry no hop number: the n-th pair belongs to the
 * n-th hop that has any, as Chromium sends one request and one response ExtraInfo per such hop.
 */
export class NetworkExtraInfo {
  readonly #requests: Headers[] = [];
  readonly #responses: Headers[] = [];
  readonly #waiters = new Set<{ readonly check: () => void; readonly wake: () => void }>();
  #hopsTaken = 0;

  request(headers: Headers): void {
    this.#requests.push(headers);
    this.#notify();
  }

  response(headers: Headers): void {
    this.#responses.push(headers);
    this.#notify();
  }

  /** The next hop's ExtraInfo; called in hop order, synchronously, so each hop gets its own pair. */
  async nextHop(expectation: ExtraInfoExpectation): Promise<HopExtraInfo> {
    if (expectation === 'none') return { request: undefined, response: undefined };
    const index = this.#hopsTaken;
    this.#hopsTaken += 1;
    if (expectation === 'wait') await this.#arrived(index);
    return { request: this.#requests[index], response: this.#responses[index] };
  }

  /** Lets every waiting hop go on with what came; nothing waits on a request that is gone. */
  release(): void {
    for (const waiter of [...this.#waiters]) waiter.wake();
  }

  #arrived(index: number): Promise<void> {
    const complete = () => this.#requests.length > index && this.#responses.length > index;
    if (complete()) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        check: () => {
          if (complete()) waiter.wake();
        },
        wake: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, EXTRA_INFO_WAIT_MS);
      this.#waiters.add(waiter);
    });
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter.check();
  }
}
