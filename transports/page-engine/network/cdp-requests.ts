import type { CDPSession, Page } from 'playwright-core';
import { type ExtraInfoExpectation, NetworkExtraInfo } from './extra-info.js';
import { type FinishedRequest, lowerCaseHeaders } from './record.js';

/**
 * Requests followed at once on one page. A page that starts requests which never finish (long polls, a
 * server that hangs) must not grow memory without limit: past this many the oldest is forgotten and counted.
 */
export const MAX_IN_FLIGHT = 1_000;
/**
 * Ids of requests already finished, forgotten or never seen, so that an ExtraInfo event arriving after its
 * request finished is not taken for the start of a new one.
 */
const SETTLED_IDS_KEPT = 1_000;
/**
 * The browser keeps response bodies for `Network.getResponseBody` in buffers of each session's own; they
 * cost the browser, not the gateway, and are sized to what captures ask for: nothing unless one wants
 * bodies, then Chromium's own defaults (100 MB in all, 10 MB a resource). Post data never rides in the
 * events, where in-flight requests would hold it: it is asked for with `Network.getRequestPostData` once a
 * finished request turns out to be wanted with its body. (A maxPostDataSize of 0 means Chromium's default,
 * which puts it in every event; 1 byte is as good as none.)
 */
const NO_POST_DATA_IN_EVENTS = 1;
const NO_BODY_BUFFERS = {
  maxTotalBufferSize: 0,
  maxResourceBufferSize: 0,
  maxPostDataSize: NO_POST_DATA_IN_EVENTS,
};
const BODY_BUFFERS = {
  maxTotalBufferSize: 100 * 1024 * 1024,
  maxResourceBufferSize: 10 * 1024 * 1024,
  maxPostDataSize: NO_POST_DATA_IN_EVENTS,
};

type Headers = Record<string, string>;

/** The fields of the CDP payloads this tracker reads (Network domain, Chromium 12x+). */
interface CdpRequest {
  readonly url: string;
  readonly urlFragment?: string;
  readonly method: string;
  readonly headers: Headers;
  readonly hasPostData?: boolean;
}
interface CdpResponse {
  readonly status: number;
  readonly headers: Headers;
}
interface RequestWillBeSent {
  readonly requestId: string;
  readonly request: CdpRequest;
  readonly timestamp: number;
  readonly type?: string;
  readonly redirectResponse?: CdpResponse;
  readonly redirectHasExtraInfo: boolean;
}
interface ExtraInfoEvent {
  readonly requestId: string;
  readonly headers: Headers;
}
interface ResponseReceived {
  readonly requestId: string;
  readonly type: string;
  readonly response: CdpResponse;
  readonly hasExtraInfo: boolean;
}
interface LoadingFinished {
  readonly requestId: string;
  readonly timestamp: number;
}
interface LoadingFailed extends LoadingFinished {
  readonly errorText: string;
}

/** One hop of a request (a redirect starts the next), as far as its events have told. */
interface Hop {
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
  /** Monotonic seconds, as CDP stamps its events. */
  readonly startedAt: number;
  readonly requestHeaders: Headers;
  readonly hasPostData: boolean;
  response: CdpResponse | undefined;
  /** Unknown until a response came: a hop that failed before one takes whatever ExtraInfo arrived. */
  hasExtraInfo: boolean | undefined;
}

interface Tracked {
  hop: Hop | undefined;
  readonly extraInfo: NetworkExtraInfo;
}

/**
 * Assembles the requests of one page from the Network domain of its shared raw CDP session: one plain
 * object per request in flight, released when it finishes — none of the per-request client objects
 * Playwright's request events keep until the page closes. Each hop of a redirect is a request of its own.
 * Sees what the page's own target loads: not its out-of-process iframes' or workers' requests, and a page
 * opened while capture runs only from the moment its session is enabled (its first document may be missed).
 */
export class CdpRequestTracker {
  readonly #page: Page;
  readonly #session: CDPSession;
  readonly #finished: (request: FinishedRequest) => void;
  readonly #maxInFlight: number;
  readonly #inFlight = new Map<string, Tracked>();
  /** Ended, and waiting for trailing ExtraInfo events (bounded in time by the wait for them). */
  readonly #finishing = new Map<string, Tracked>();
  readonly #settled = new Set<string>();
  #droppedInFlight = 0;
  #enabled = false;

  constructor(
    page: Page,
    session: CDPSession,
    finished: (request: FinishedRequest) => void,
    maxInFlight = MAX_IN_FLIGHT,
  ) {
    this.#page = page;
    this.#session = session;
    this.#finished = finished;
    this.#maxInFlight = maxInFlight;
  }

  /** Started requests forgotten while in flight because MAX_IN_FLIGHT others were newer. */
  get droppedInFlight(): number {
    return this.#droppedInFlight;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Listens and enables the Network domain, with browser-side body buffers only when bodies are wanted. */
  async start(bodies: boolean): Promise<void> {
    if (!this.#enabled) {
      this.#enabled = true;
      this.#session.on('Network.requestWillBeSent', this.#onRequest);
      this.#session.on('Network.requestWillBeSentExtraInfo', this.#onRequestExtraInfo);
      this.#session.on('Network.responseReceived', this.#onResponse);
      this.#session.on('Network.responseReceivedExtraInfo', this.#onResponseExtraInfo);
      this.#session.on('Network.loadingFinished', this.#onFinished);
      this.#session.on('Network.loadingFailed', this.#onFailed);
    }
    // Sent again when the wish for bodies changes: a second enable only resizes the buffers.
    await this.#session.send('Network.enable', bodies ? BODY_BUFFERS : NO_BODY_BUFFERS);
  }

  /** Stops listening and disables Network (only it: the session is shared, its other domains are not ours). */
  async stop(): Promise<void> {
    if (!this.#enabled) return;
    this.#enabled = false;
    this.#session.off('Network.requestWillBeSent', this.#onRequest);
    this.#session.off('Network.requestWillBeSentExtraInfo', this.#onRequestExtraInfo);
    this.#session.off('Network.responseReceived', this.#onResponse);
    this.#session.off('Network.responseReceivedExtraInfo', this.#onResponseExtraInfo);
    this.#session.off('Network.loadingFinished', this.#onFinished);
    this.#session.off('Network.loadingFailed', this.#onFailed);
    for (const tracked of [...this.#inFlight.values(), ...this.#finishing.values()])
      tracked.extraInfo.release();
    this.#inFlight.clear();
    this.#finishing.clear();
    this.#settled.clear();
    await this.#session.send('Network.disable').catch(() => undefined);
  }

  readonly #onRequest = (event: RequestWillBeSent): void => {
    const tracked = this.#track(event.requestId);
    const previous = tracked.hop;
    if (previous && event.redirectResponse) {
      previous.response = event.redirectResponse;
      const extraInfo = event.redirectHasExtraInfo ? 'wait' : 'none';
      void this.#finish(tracked, previous, event.requestId, event.timestamp, null, extraInfo, false);
    }
    const { request } = event;
    tracked.hop = {
      method: request.method,
      url: request.url + (request.urlFragment ?? ''),
      resourceType: (event.type ?? 'other').toLowerCase(),
      startedAt: event.timestamp,
      requestHeaders: request.headers,
      hasPostData: request.hasPostData === true,
      response: undefined,
      hasExtraInfo: undefined,
    };
  };

  readonly #onRequestExtraInfo = (event: ExtraInfoEvent): void =>
    this.#extraInfoOf(event.requestId)?.request(event.headers);

  readonly #onResponseExtraInfo = (event: ExtraInfoEvent): void =>
    this.#extraInfoOf(event.requestId)?.response(event.headers);

  readonly #onResponse = (event: ResponseReceived): void => {
    const hop = this.#inFlight.get(event.requestId)?.hop;
    if (!hop) return;
    hop.response = event.response;
    hop.hasExtraInfo = event.hasExtraInfo;
  };

  readonly #onFinished = (event: LoadingFinished): void => this.#end(event, null);

  readonly #onFailed = (event: LoadingFailed): void => this.#end(event, event.errorText || 'failed');

  #end(event: LoadingFinished, failure: string | null): void {
    const { requestId } = event;
    const tracked = this.#inFlight.get(requestId);
    this.#inFlight.delete(requestId);
    if (!tracked?.hop) {
      tracked?.extraInfo.release();
      this.#settle(requestId);
      return;
    }
    this.#finishing.set(requestId, tracked);
    const { hop } = tracked;
    const extraInfo: ExtraInfoExpectation =
      hop.hasExtraInfo === undefined ? 'peek' : hop.hasExtraInfo ? 'wait' : 'none';
    void this.#finish(tracked, hop, requestId, event.timestamp, failure, extraInfo, true).finally(() => {
      tracked.extraInfo.release();
      if (this.#finishing.get(requestId) === tracked) this.#finishing.delete(requestId);
      this.#settle(requestId);
    });
  }

  /** Where an ExtraInfo event goes: its request, ending or in flight, or a new one it arrived before. */
  #extraInfoOf(requestId: string): NetworkExtraInfo | undefined {
    const known = this.#inFlight.get(requestId) ?? this.#finishing.get(requestId);
    if (known) return known.extraInfo;
    return this.#settled.has(requestId) ? undefined : this.#track(requestId).extraInfo;
  }

  #track(requestId: string): Tracked {
    let tracked = this.#inFlight.get(requestId);
    if (tracked) return tracked;
    this.#settled.delete(requestId);
    if (this.#inFlight.size >= this.#maxInFlight) {
      const [oldest] = this.#inFlight.entries();
      if (oldest) {
        const [oldestId, forgotten] = oldest;
        forgotten.extraInfo.release();
        this.#inFlight.delete(oldestId);
        this.#settle(oldestId);
        // Only a started request counts: ExtraInfo may come first, and its request then starts afresh.
        if (forgotten.hop) this.#droppedInFlight += 1;
      }
    }
    tracked = { hop: undefined, extraInfo: new NetworkExtraInfo() };
    this.#inFlight.set(requestId, tracked);
    return tracked;
  }

  #settle(requestId: string): void {
    this.#settled.add(requestId);
    if (this.#settled.size > SETTLED_IDS_KEPT) {
      const [oldest] = this.#settled;
      if (oldest !== undefined) this.#settled.delete(oldest);
    }
  }

  async #finish(
    tracked: Tracked,
    hop: Hop,
    requestId: string,
    endedAt: number,
    failure: string | null,
    extraInfo: ExtraInfoExpectation,
    last: boolean,
  ): Promise<void> {
    const { request, response } = await tracked.extraInfo.nextHop(extraInfo);
    const session = this.#session;
    const hopResponse = failure === null ? hop.response : undefined;
    this.#finished({
      page: this.#page,
      method: hop.method,
      url: hop.url,
      resourceType: hop.resourceType,
      status: hopResponse?.status ?? null,
      // The ExtraInfo headers are the ones on the wire, cookies included; the others leave cookies out.
      requestHeaders: lowerCaseHeaders(request ?? hop.requestHeaders),
      responseHeaders: hopResponse ? lowerCaseHeaders(response ?? hopResponse.headers) : {},
      durationMs: Math.max(0, Math.round((endedAt - hop.startedAt) * 1000)),
      failure,
      cdpRequestId: requestId,
      async readRequestBody() {
        if (!hop.hasPostData) return null;
        const read = await session.send('Network.getRequestPostData', { requestId });
        return Buffer.from(read.postData, read.base64Encoded ? 'base64' : 'utf8');
      },
      async readResponseBody() {
        // Only the last hop has a body; a redirect's is not kept by the browser.
        if (!last || failure !== null) return null;
        const read = await session.send('Network.getResponseBody', { requestId });
        return Buffer.from(read.body, read.base64Encoded ? 'base64' : 'utf8');
      },
    });
  }
}
