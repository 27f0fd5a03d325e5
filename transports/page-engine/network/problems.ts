import type { BrowserContext, CDPSession, Page, Request, Response } from 'playwright-core';
import type { NetworkProblem, NetworkProblemRead } from '../../contract/renderer-control.js';
import { rawSessionsHear } from '../page/page-cdp.js';
import { enabledInTime } from './page-following.js';

/**
 * Problems kept per session: a page that fails one request usually fails a few; two hundred is many
 * screens of failures, and each entry is a URL and a few words.
 */
export const NETWORK_PROBLEMS_KEPT = 200;
/**
 * Requests remembered between their start and their end, per page, only to name the URL and method of one
 * that fails; past this the oldest is forgotten (a failure of it then reads with what the failure says).
 */
const REQUESTS_REMEMBERED = 1_000;
/** Status codes from here on are errors (client and server errors, RFC 9110 §15). */
const ERROR_STATUS = 400;
/** No buffers in the browser for bodies: the summary never reads one (see cdp-requests.ts). */
const NO_BODY_BUFFERS = { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 1 };

interface Started {
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
}

/**
 * The always-on record of failed requests and error responses of every page of one context, kept apart
 * from capture (which listens only while armed): each page gets a raw CDP session of its own with Network
 * enabled and no body buffers, so arming and disarming capture on the shared session cannot silence it.
 * Where raw sessions hear no events (the inject relay) Playwright's own request events are used instead,
 * which keep a request object per request until its page closes.
 */
export class NetworkProblems {
  readonly #windowIdOf: (page: Page) => string | undefined;
  readonly #kept: NetworkProblem[] = [];
  #overflowed = 0;

  constructor(context: BrowserContext, windowIdOf: (page: Page) => string | undefined) {
    this.#windowIdOf = windowIdOf;
    if (!rawSessionsHear(context)) {
      context.on('requestfailed', (request) => this.#playwrightFailure(request));
      context.on('response', (response) => this.#playwrightResponse(response));
      return;
    }
    for (const page of context.pages()) void this.#follow(context, page);
    context.on('page', (page) => void this.#follow(context, page));
  }

  read(): NetworkProblemRead {
    return { problems: [...this.#kept], overflowed: this.#overflowed };
  }

  #keep(problem: NetworkProblem): void {
    this.#kept.push(problem);
    if (this.#kept.length > NETWORK_PROBLEMS_KEPT) {
      this.#kept.shift();
      this.#overflowed += 1;
    }
  }

  async #follow(context: BrowserContext, page: Page): Promise<void> {
    const session = await context.newCDPSession(page).catch(() => null);
    if (!session) return;
    const started = new Map<string, Started>();
    const windowId = () => this.#windowIdOf(page) ?? null;
    session.on('Network.requestWillBeSent', (event) => {
      started.delete(event.requestId);
      started.set(event.requestId, {
        method: event.request.method,
        url: event.request.url,
        resourceType: lowerCase(event.type),
      });
      if (started.size > REQUESTS_REMEMBERED) started.delete(started.keys().next().value as string);
    });
    session.on('Network.responseReceived', (event) => {
      if (event.response.status < ERROR_STATUS) return;
      const request = started.get(event.requestId);
      this.#keep({
        time: new Date(),
        windowId: windowId(),
        method: request?.method ?? 'GET',
        url: event.response.url,
        resourceType: lowerCase(event.type),
        status: event.response.status,
        failure: null,
      });
    });
    session.on('Network.loadingFinished', (event) => started.delete(event.requestId));
    session.on('Network.loadingFailed', (event) => {
      const request = started.get(event.requestId);
      started.delete(event.requestId);
      this.#keep({
        time: new Date(),
        windowId: windowId(),
        method: request?.method ?? '',
        url: request?.url ?? '',
        resourceType: request?.resourceType ?? lowerCase(event.type),
        status: null,
        failure: event.errorText,
      });
    });
    // A page whose session cannot enable Network in time records nothing; the page works as before.
    if (!(await enabledInTime(enableNetwork(session)))) await session.detach().catch(() => undefined);
  }

  #playwrightFailure(request: Request): void {
    this.#keep({
      time: new Date(),
      windowId: this.#windowOf(request),
      method: request.method(),
      url: request.url(),
      resourceType: request.resourceType(),
      status: null,
      failure: request.failure()?.errorText ?? 'failed',
    });
  }

  /** A service worker's request has no frame, so no window. */
  #windowOf(request: Request): string | null {
    try {
      return this.#windowIdOf(request.frame().page()) ?? null;
    } catch {
      return null;
    }
  }

  #playwrightResponse(response: Response): void {
    if (response.status() < ERROR_STATUS) return;
    const request = response.request();
    this.#keep({
      time: new Date(),
      windowId: this.#windowOf(request),
      method: request.method(),
      url: response.url(),
      resourceType: request.resourceType(),
      status: response.status(),
      failure: null,
    });
  }
}

async function enableNetwork(session: CDPSession): Promise<void> {
  await session.send('Network.enable', NO_BODY_BUFFERS);
}

/** CDP names resource types `Fetch`, `XHR`, `Document`; captures and Playwright say `fetch`, `xhr`, `document`. */
function lowerCase(type: string | undefined): string {
  return (type ?? 'other').toLowerCase();
}
