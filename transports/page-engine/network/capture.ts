import type { BrowserContext, Page } from 'playwright-core';
import type {
  NetworkCaptureSpec,
  NetworkControl,
  NetworkProblemRead,
  NetworkRecord,
  StubInfo,
  StubSpec,
} from '../../contract/renderer-control.js';
import { CdpRequestTracker } from './cdp-requests.js';
import { enabledInTime, followedPageSession, PageFollowing } from './page-following.js';
import { PlaywrightRequestEvents } from './playwright-requests.js';
import { NetworkProblems } from './problems.js';
import { ArmedCapture, captureRecord, type FinishedRequest, type RequestIdentity } from './record.js';
import { PlaywrightStubs } from './stubs.js';

/**
 * Network capture and stubs for every page of one Playwright BrowserContext. Capture reads each page's
 * Network domain on its shared raw CDP session (cdp-requests.ts), enabled only while a capture is
 * armed, on the pages open then and those that open later; a page without such a session falls back to
 * Playwright's request events. Stubs are answered on the same sessions' Fetch domain (stubs.ts).
 */
export class PlaywrightNetwork implements NetworkControl {
  readonly #windowIdOf: (page: Page) => string | undefined;
  readonly #record: (record: NetworkRecord) => void;
  readonly #captures = new Map<string, ArmedCapture>();
  readonly #stubs: PlaywrightStubs;
  /** Each followed page's tracker; null for a page on the fallback. */
  readonly #trackers = new Map<Page, CdpRequestTracker | null>();
  readonly #fallback: PlaywrightRequestEvents;
  /** Arming, disarming and following pages run one at a time, so Network is enabled and disabled in order. */
  readonly #pages: PageFollowing;
  #bodies = false;
  /** Always on, unlike capture: what failed is worth knowing without having armed anything first. */
  readonly #problems: NetworkProblems;
  /** What trackers no longer followed (their page closed, or capture was disarmed) had dropped. */
  #droppedByFormerTrackers = 0;
  readonly #onFinished = (request: FinishedRequest) => void this.#capture(request).catch(() => undefined);

  constructor(
    context: BrowserContext,
    windowIdOf: (page: Page) => string | undefined,
    record: (record: NetworkRecord) => void,
  ) {
    this.#windowIdOf = windowIdOf;
    this.#record = record;
    this.#problems = new NetworkProblems(context, windowIdOf);
    this.#pages = new PageFollowing(context, (page) => this.#follow(page, false));
    this.#stubs = new PlaywrightStubs(context, (request) => this.#wanting(request).length > 0);
    this.#fallback = new PlaywrightRequestEvents(
      context,
      (page) => this.#trackers.get(page) instanceof CdpRequestTracker,
      this.#onFinished,
    );
  }

  /** Requests forgotten in flight (each page keeps at most MAX_IN_FLIGHT), on pages followed now or before. */
  get droppedInFlight(): number {
    let dropped = this.#droppedByFormerTrackers;
    for (const tracker of this.#trackers.values()) dropped += tracker?.droppedInFlight ?? 0;
    return dropped;
  }

  async arm(id: string, spec: NetworkCaptureSpec): Promise<void> {
    this.#captures.set(id, new ArmedCapture(spec));
    await this.#pages.serially(() => this.#sync());
  }

  async disarm(id: string): Promise<void> {
    if (!this.#captures.delete(id)) return;
    await this.#pages.serially(() => this.#sync());
  }

  stub(id: string, spec: StubSpec): Promise<StubInfo> {
    return this.#stubs.stub(id, spec);
  }

  unstub(id: string): Promise<StubInfo | undefined> {
    return this.#stubs.unstub(id);
  }

  stubs(): StubInfo[] {
    return this.#stubs.stubs();
  }

  problems(): NetworkProblemRead {
    return this.#problems.read();
  }

  /** Brings listening in line with the armed captures: every page followed while any is, none after. */
  async #sync(): Promise<void> {
    if (this.#captures.size === 0) {
      this.#pages.stopListening();
      this.#fallback.stop();
      const trackers = [...this.#trackers.values()];
      for (const tracker of trackers) this.#droppedByFormerTrackers += tracker?.droppedInFlight ?? 0;
      this.#trackers.clear();
      await Promise.all(trackers.map((tracker) => tracker?.stop()));
      return;
    }
    const pages = this.#pages.listen();
    const bodies = [...this.#captures.values()].some(({ spec }) => spec.bodies);
    const bodiesChanged = bodies !== this.#bodies;
    this.#bodies = bodies;
    await Promise.all(pages.map((page) => this.#follow(page, bodiesChanged)));
  }

  async #follow(page: Page, bodiesChanged: boolean): Promise<void> {
    if (this.#captures.size === 0 || page.isClosed()) return;
    const known = this.#trackers.get(page);
    if (known !== undefined) {
      if (known && bodiesChanged) await this.#enable(known);
      return;
    }
    const session = await followedPageSession(page);
    const tracker = session && new CdpRequestTracker(page, session, this.#onFinished);
    this.#trackers.set(page, tracker);
    page.once('close', () => {
      if (this.#trackers.get(page) !== tracker) return;
      this.#droppedByFormerTrackers += tracker?.droppedInFlight ?? 0;
      this.#trackers.delete(page);
    });
    if (tracker && (await this.#enable(tracker))) return;
    // A session that cannot enable Network (a relay that refuses it) is no better than none.
    void tracker?.stop();
    this.#trackers.set(page, null);
    this.#fallback.start();
  }

  #enable(tracker: CdpRequestTracker): Promise<boolean> {
    return enabledInTime(tracker.start(this.#bodies));
  }

  #wanting(request: RequestIdentity): ArmedCapture[] {
    return [...this.#captures.values()].filter((capture) => capture.wants(request));
  }

  async #capture(request: FinishedRequest): Promise<void> {
    const wanting = this.#wanting(request);
    if (wanting.length === 0) return;
    const stubId = this.#stubs.answeredBy(request);
    const windowId = (request.page && this.#windowIdOf(request.page)) ?? null;
    this.#record(await captureRecord(request, wanting, windowId, stubId));
  }
}
