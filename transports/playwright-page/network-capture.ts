import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import type {
  NetworkBody,
  NetworkCaptureSpec,
  NetworkControl,
  NetworkRecord,
  StubInfo,
  StubSpec,
} from '../renderer-control.js';
import { urlGlob } from './url-glob.js';

/** Content types whose bodies are kept as text; anything else is base64, and only when asked for. */
const TEXT_CONTENT_TYPE = /^text\/|json|xml|javascript|x-www-form-urlencoded|graphql/i;

interface ArmedCapture {
  readonly spec: NetworkCaptureSpec;
  readonly patterns: readonly RegExp[];
}

interface LiveStub {
  info: StubInfo;
  readonly matches: (url: URL) => boolean;
  readonly handler: (route: Route) => Promise<void>;
}

/**
 * Network capture and stubs for every page of one Playwright BrowserContext, through Playwright's own
 * request events and `context.route` (which work on Electron windows, stand-in or real). Listening is
 * refcounted: the context's request events are subscribed to only while a capture is armed.
 */
export class PlaywrightNetwork implements NetworkControl {
  readonly #context: BrowserContext;
  readonly #windowIdOf: (page: Page) => string | undefined;
  readonly #record: (record: NetworkRecord) => void;
  readonly #captures = new Map<string, ArmedCapture>();
  readonly #stubs = new Map<string, LiveStub>();
  /** Which stub answered a request, so its capture entry can say so. */
  readonly #answeredBy = new WeakMap<Request, string>();
  readonly #onFinished = (request: Request) => void this.#capture(request, null);
  readonly #onFailed = (request: Request) =>
    void this.#capture(request, request.failure()?.errorText ?? 'failed');

  constructor(
    context: BrowserContext,
    windowIdOf: (page: Page) => string | undefined,
    record: (record: NetworkRecord) => void,
  ) {
    this.#context = context;
    this.#windowIdOf = windowIdOf;
    this.#record = record;
  }

  async arm(id: string, spec: NetworkCaptureSpec): Promise<void> {
    if (this.#captures.size === 0) {
      this.#context.on('requestfinished', this.#onFinished);
      this.#context.on('requestfailed', this.#onFailed);
    }
    this.#captures.set(id, { spec, patterns: (spec.filter.urlPatterns ?? []).map(urlGlob) });
  }

  async disarm(id: string): Promise<void> {
    if (!this.#captures.delete(id) || this.#captures.size > 0) return;
    this.#context.off('requestfinished', this.#onFinished);
    this.#context.off('requestfailed', this.#onFailed);
  }

  async stub(id: string, spec: StubSpec): Promise<StubInfo> {
    const pattern = urlGlob(spec.pattern);
    const stub: LiveStub = {
      info: { ...spec, id, hits: 0, active: true },
      matches: (url) => pattern.test(url.href),
      handler: (route) => this.#answer(stub, route),
    };
    this.#stubs.set(id, stub);
    await this.#context.route(stub.matches, stub.handler);
    return stub.info;
  }

  async unstub(id: string): Promise<StubInfo | undefined> {
    const stub = this.#stubs.get(id);
    if (!stub) return undefined;
    this.#stubs.delete(id);
    await this.#retire(stub);
    return stub.info;
  }

  stubs(): StubInfo[] {
    return [...this.#stubs.values()].map((stub) => stub.info);
  }

  async #answer(stub: LiveStub, route: Route): Promise<void> {
    const request = route.request();
    const { info } = stub;
    const methodMatches = info.methods.length === 0 || info.methods.includes(request.method());
    if (!info.active || !methodMatches) return route.fallback();
    const hits = info.hits + 1;
    // Retired at once so concurrent requests fall through, but unrouted only after answering: unrouting
    // while this handler runs would let the request go to the network unanswered.
    const spent = info.times !== null && hits >= info.times;
    stub.info = { ...info, hits, active: !spent };
    this.#answeredBy.set(request, info.id);
    await this.#respond(info, route);
    if (spent) await this.#context.unroute(stub.matches, stub.handler).catch(() => undefined);
  }

  async #respond(info: StubInfo, route: Route): Promise<void> {
    if (info.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, info.delayMs));
    // The page may have gone away during the delay; a route of a closed page has nobody to answer.
    if (info.abort) return route.abort('failed').catch(() => undefined);
    if (info.status === null && info.body === null) return route.continue().catch(() => undefined);
    return route
      .fulfill({ status: info.status ?? 200, headers: { ...info.headers }, body: info.body ?? '' })
      .catch(() => undefined);
  }

  async #retire(stub: LiveStub): Promise<void> {
    if (!stub.info.active) return;
    stub.info = { ...stub.info, active: false };
    await this.#context.unroute(stub.matches, stub.handler).catch(() => undefined);
  }

  async #capture(request: Request, failure: string | null): Promise<void> {
    const url = request.url();
    const method = request.method();
    const resourceType = request.resourceType();
    const wanted = [...this.#captures.values()].filter(({ spec, patterns }) => {
      const { methods, resourceTypes } = spec.filter;
      if (patterns.length > 0 && !patterns.some((pattern) => pattern.test(url))) return false;
      if (methods && methods.length > 0 && !methods.includes(method)) return false;
      return !(resourceTypes && resourceTypes.length > 0 && !resourceTypes.includes(resourceType));
    });
    if (wanted.length === 0) return;
    const bodies = wanted.filter(({ spec }) => spec.bodies).map(({ spec }) => spec);
    const response = failure === null ? await request.response().catch(() => null) : null;
    const timing = request.timing();
    // allHeaders, not headers: the latter leaves out cookies, which a capture must show (redacted).
    const [requestHeaders, responseHeaders] = await Promise.all([
      request.allHeaders().catch(() => request.headers()),
      response ? response.allHeaders().catch(() => response.headers()) : ({} as Record<string, string>),
    ]);
    let page: Page | undefined;
    try {
      page = request.frame().page();
    } catch {
      // A service worker's request has no frame, so no window.
    }
    const keep = (type: string | undefined, read: () => Promise<Buffer | null>) =>
      bodies.length === 0 ? Promise.resolve(null) : bodyOf(bodies, type, read);
    const [requestBody, responseBody] = await Promise.all([
      keep(requestHeaders['content-type'], async () => request.postDataBuffer()),
      keep(responseHeaders['content-type'], async () => (response ? response.body() : null)),
    ]);
    this.#record({
      time: new Date(),
      windowId: (page && this.#windowIdOf(page)) ?? null,
      method,
      url,
      resourceType,
      status: response?.status() ?? null,
      requestHeaders,
      responseHeaders,
      durationMs: timing.responseEnd >= 0 ? Math.round(timing.responseEnd) : null,
      failure,
      stubId: this.#answeredBy.get(request) ?? null,
      requestBody,
      responseBody,
    });
  }
}

/** The most generous of the captures that asked for bodies decides what is kept. */
async function bodyOf(
  specs: readonly NetworkCaptureSpec[],
  contentType: string | undefined,
  read: () => Promise<Buffer | null>,
): Promise<NetworkBody | null> {
  const text = contentType === undefined || TEXT_CONTENT_TYPE.test(contentType);
  if (!text && !specs.some((spec) => spec.binaryBodies)) return null;
  const bytes = await read().catch(() => null);
  if (!bytes || bytes.length === 0) return null;
  const limit = Math.max(...specs.map((spec) => spec.maxBodyBytes));
  const kept = bytes.subarray(0, limit);
  return {
    encoding: text ? 'TEXT' : 'BASE64',
    data: kept.toString(text ? 'utf8' : 'base64'),
    size: bytes.length,
    truncated: kept.length < bytes.length,
  };
}
