import type { BrowserContext, Page, Request } from 'playwright-core';
import type { FinishedRequest } from './record.js';

/**
 * Capture through Playwright's own context request events, for pages that cannot open a raw CDP session
 * (a relay that offers only one). It costs what those events cost: Playwright keeps each finished request's
 * objects (~25 KB) until its page closes. Requests of pages `skip` names are left to their CDP tracker.
 */
export class PlaywrightRequestEvents {
  readonly #context: BrowserContext;
  readonly #skip: (page: Page) => boolean;
  readonly #finished: (request: FinishedRequest) => void;
  #listening = false;
  readonly #onFinished = (request: Request) => void this.#capture(request, null);
  readonly #onFailed = (request: Request) =>
    void this.#capture(request, request.failure()?.errorText ?? 'failed');

  constructor(
    context: BrowserContext,
    skip: (page: Page) => boolean,
    finished: (request: FinishedRequest) => void,
  ) {
    this.#context = context;
    this.#skip = skip;
    this.#finished = finished;
  }

  get listening(): boolean {
    return this.#listening;
  }

  start(): void {
    if (this.#listening) return;
    this.#listening = true;
    this.#context.on('requestfinished', this.#onFinished);
    this.#context.on('requestfailed', this.#onFailed);
  }

  stop(): void {
    if (!this.#listening) return;
    this.#listening = false;
    this.#context.off('requestfinished', this.#onFinished);
    this.#context.off('requestfailed', this.#onFailed);
  }

  async #capture(request: Request, failure: string | null): Promise<void> {
    let page: Page | undefined;
    try {
      page = request.frame().page();
    } catch {
      // A service worker's request has no frame, so no window.
    }
    if (page && this.#skip(page)) return;
    const response = failure === null ? await request.response().catch(() => null) : null;
    const timing = request.timing();
    // allHeaders, not headers: the latter leaves out cookies, which a capture must show (redacted).
    const [requestHeaders, responseHeaders] = await Promise.all([
      request.allHeaders().catch(() => request.headers()),
      response ? response.allHeaders().catch(() => response.headers()) : ({} as Record<string, string>),
    ]);
    this.#finished({
      page,
      method: request.method(),
      url: request.url(),
      resourceType: request.resourceType(),
      status: response?.status() ?? null,
      requestHeaders,
      responseHeaders,
      durationMs: timing.responseEnd >= 0 ? Math.round(timing.responseEnd) : null,
      failure,
      cdpRequestId: null,
      readRequestBody: async () => request.postDataBuffer(),
      readResponseBody: async () => (response ? response.body() : null),
    });
  }
}
