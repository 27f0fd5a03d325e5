import type { CDPSession, Page, Request } from 'playwright-core';
import type { PendingRequest, RequestWatch } from '../../contract/window-driver.js';
import { withDeadline } from '../../protocol/deadline.js';
import { rawSessionsHear } from '../page/page-cdp.js';

/**
 * Kinds of request that stay open by design (an event stream, a socket, a playing video): an action that
 * opens one is done without it finishing, so no watch waits for them.
 */
const LONG_LIVED = new Set(['eventsource', 'websocket', 'media']);
/**
 * Requests one watch follows at most: a page that starts thousands during one action (a flood) does not
 * grow the watch past this; the ones after it are not waited for.
 */
const MAX_WATCHED = 1_000;
/** How long the page's own session may take to open and enable Network before the page's events are used. */
const LISTEN_TIMEOUT_MS = 5_000;
/**
 * How long listening stays on after the last watch ends. Every action opens a watch, and enabling Network
 * is a round trip to the renderer: an agent's next action, a moment later, finds it on and pays nothing.
 */
const LINGER_MS = 2_000;
/** The watch reads request starts and ends only: no bodies buffered for it, no post data in its events. */
const NO_BODY_BUFFERS = { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 1 };

interface RequestWillBeSent {
  readonly requestId: string;
  readonly request: { readonly url: string; readonly method: string };
  readonly type?: string;
}

class Watch implements RequestWatch {
  readonly #pending = new Map<unknown, PendingRequest>();
  readonly #waiters = new Set<() => void>();
  readonly #release: (watch: Watch) => void;
  #finished = 0;
  #ended = false;
  /** Until armed, a start heard is one begun before this watch: its event was still on the way. */
  #armed = false;

  constructor(release: (watch: Watch) => void) {
    this.#release = release;
  }

  get finished(): number {
    return this.#finished;
  }

  pending(): readonly PendingRequest[] {
    return [...this.#pending.values()];
  }

  arm(): void {
    this.#armed = true;
  }

  started(id: unknown, request: PendingRequest): void {
    if (!this.#armed || this.#ended || LONG_LIVED.has(request.resourceType) || this.#pending.has(id)) return;
    if (this.#pending.size < MAX_WATCHED) this.#pending.set(id, request);
  }

  done(id: unknown): void {
    if (!this.#pending.delete(id)) return;
    this.#finished += 1;
    if (this.#pending.size === 0) this.wake();
  }

  /** Lets every waiter go: nothing is pending, or nothing will ever finish (the page closed). */
  wake(): void {
    for (const waiter of this.#waiters) waiter();
  }

  idle(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0 || this.#ended) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.wake();
    this.#release(this);
  }
}

/**
 * The requests one page starts while any watch is open. It listens only then: on its own CDP session's
 * Network domain, enabled for the first watch and disabled after the last (plain protocol events, nothing
 * kept per request), or — where extra sessions hear no events (the inject relay) — on Playwright's page
 * events for the same span. A request already running when Network was enabled is never reported to it,
 * and one begun before a watch started is not that watch's.
 */
export class RequestActivity {
  readonly #page: Page;
  readonly #watches = new Set<Watch>();
  /** Enabling and disabling run one at a time, in the order watches asked for them. */
  #lifecycle: Promise<void> = Promise.resolve();
  #session: Promise<CDPSession | null> | undefined;
  #listening: 'cdp' | 'events' | null = null;
  #lingering: NodeJS.Timeout | undefined;

  constructor(page: Page) {
    this.#page = page;
    page.once('close', () => {
      clearTimeout(this.#lingering);
      for (const watch of this.#watches) watch.wake();
    });
  }

  /** A watch of the requests begun from now on; listening is on before it is returned. */
  async watch(): Promise<RequestWatch> {
    const watch = new Watch((ended) => this.#release(ended));
    // Held from the start, so a lingering stop queued meanwhile sees a watch and keeps listening.
    this.#watches.add(watch);
    clearTimeout(this.#lingering);
    if (this.#listening) await this.#heardUpToNow();
    else await this.#serially(() => this.#start());
    watch.arm();
    return watch;
  }

  /**
   * Resolves once every event the page sent before now has been heard. A request the page began a moment
   * ago can reach its server before its start event reaches us; one round trip on the channel the events
   * come on orders them ahead of the answer. Cheaper than enabling Network again, which is what lingering
   * saves.
   */
  async #heardUpToNow(): Promise<void> {
    const session = this.#listening === 'cdp' ? await this.#session : null;
    const roundTrip = session
      ? session.send('Runtime.evaluate', { expression: '0', returnByValue: true, silent: true })
      : this.#page.mainFrame().evaluate('0');
    await withDeadline(roundTrip, LISTEN_TIMEOUT_MS, () => Error('no answer')).catch(() => undefined);
  }

  #release(watch: Watch): void {
    this.#watches.delete(watch);
    if (this.#watches.size > 0) return;
    clearTimeout(this.#lingering);
    this.#lingering = setTimeout(() => void this.#serially(() => this.#stop()), LINGER_MS);
    this.#lingering.unref();
  }

  #serially(step: () => Promise<void>): Promise<void> {
    const next = this.#lifecycle.then(step);
    this.#lifecycle = next.catch(() => undefined);
    return next;
  }

  async #start(): Promise<void> {
    if (this.#listening || this.#watches.size === 0) return;
    const session = await this.#cdpSession();
    if (session) {
      const enabling = session.send('Network.enable', NO_BODY_BUFFERS);
      const enabled = await withDeadline(enabling, LISTEN_TIMEOUT_MS, () =>
        Error('Network.enable did not answer'),
      ).then(
        () => true,
        () => false,
      );
      if (enabled) {
        this.#listening = 'cdp';
        return;
      }
      // A session that does not answer (a stopped renderer) is given up for good: should it enable late,
      // it is turned off again, so no request is ever counted from two sources.
      this.#session = Promise.resolve(null);
      void enabling.then(() => session.send('Network.disable')).catch(() => undefined);
    }
    this.#page.on('request', this.#onRequest);
    this.#page.on('requestfinished', this.#onRequestDone);
    this.#page.on('requestfailed', this.#onRequestDone);
    this.#listening = 'events';
  }

  async #stop(): Promise<void> {
    if (this.#watches.size > 0) return;
    const was = this.#listening;
    // Off before the renderer is told: a watch opened meanwhile queues a fresh start behind this stop.
    this.#listening = null;
    if (was === 'cdp') {
      const session = await this.#session;
      await session?.send('Network.disable').catch(() => undefined);
    } else if (was === 'events') {
      this.#page.off('request', this.#onRequest);
      this.#page.off('requestfinished', this.#onRequestDone);
      this.#page.off('requestfailed', this.#onRequestDone);
    }
  }

  /** The page's own session for this, opened once; null where it would hear nothing or cannot open. */
  #cdpSession(): Promise<CDPSession | null> {
    if (this.#session) return this.#session;
    const context = this.#page.context();
    this.#session = rawSessionsHear(context)
      ? withDeadline(context.newCDPSession(this.#page), LISTEN_TIMEOUT_MS, () =>
          Error('no CDP session'),
        ).then(
          (session) => {
            session.on('Network.requestWillBeSent', (event: RequestWillBeSent) =>
              this.#started(event.requestId, {
                method: event.request.method,
                url: event.request.url,
                resourceType: (event.type ?? 'other').toLowerCase(),
              }),
            );
            session.on('Network.loadingFinished', ({ requestId }) => this.#done(requestId));
            session.on('Network.loadingFailed', ({ requestId }) => this.#done(requestId));
            return session;
          },
          () => null,
        )
      : Promise.resolve(null);
    return this.#session;
  }

  readonly #onRequest = (request: Request) =>
    this.#started(request, {
      method: request.method(),
      url: request.url(),
      resourceType: request.resourceType(),
    });
  readonly #onRequestDone = (request: Request) => this.#done(request);

  #started(id: unknown, request: PendingRequest): void {
    for (const watch of this.#watches) watch.started(id, request);
  }

  #done(id: unknown): void {
    for (const watch of this.#watches) watch.done(id);
  }
}
