import type { CDPSession } from 'playwright-core';
import type { StubInfo } from '../../contract/renderer-control.js';
import { answerAsStub, type PausedRequest, type StubAnswering } from './stub-table.js';

/** The fields of `Fetch.requestPaused` this answerer reads (request stage). */
interface RequestPaused {
  readonly requestId: string;
  readonly request: { readonly url: string; readonly urlFragment?: string; readonly method: string };
  readonly resourceType: string;
  /** The Network domain's id of the same request, which capture entries carry. */
  readonly networkId?: string;
}

/**
 * Stubs answered with the Fetch domain of one page's shared raw CDP session: the browser pauses only the
 * requests whose URL fits an active stub's pattern, and hands each to this process as one plain event —
 * none of the Route and Request objects Playwright keeps per routed request until the page closes, and
 * none of the pausing of every request that any Playwright route brings.
 */
export class FetchStubs {
  readonly #session: CDPSession;
  readonly #answering: StubAnswering;
  #listening = false;

  constructor(session: CDPSession, answering: StubAnswering) {
    this.#session = session;
    this.#answering = answering;
  }

  /** Pauses the requests these stubs may answer (and no others). */
  async update(stubs: readonly StubInfo[]): Promise<void> {
    if (!this.#listening) this.#session.on('Fetch.requestPaused', this.#onPaused);
    this.#listening = true;
    const patterns = stubs.map((stub) => ({
      urlPattern: cdpUrlPattern(stub.pattern),
      requestStage: 'Request' as const,
    }));
    await this.#session.send('Fetch.enable', { patterns });
  }

  /** Stops pausing (only Fetch: the session is shared, its other domains are not ours). */
  async stop(): Promise<void> {
    if (!this.#listening) return;
    this.#listening = false;
    this.#session.off('Fetch.requestPaused', this.#onPaused);
    await this.#session.send('Fetch.disable').catch(() => undefined);
  }

  readonly #onPaused = (event: RequestPaused): void => void this.#answer(event).catch(() => undefined);

  async #answer(event: RequestPaused): Promise<void> {
    const { requestId } = event;
    const method = event.request.method;
    const url = event.request.url + (event.request.urlFragment ?? '');
    const claim = this.#answering.claim(method, url);
    if (!claim) return this.#session.send('Fetch.continueRequest', { requestId }).then(() => undefined);
    const resourceType = event.resourceType.toLowerCase();
    if (event.networkId && this.#answering.captured({ method, url, resourceType }))
      this.#answering.answers.byNetworkId(event.networkId, claim.stub.id);
    await answerAsStub(claim.stub, this.#paused(requestId));
    if (claim.spent) this.#answering.spent();
  }

  #paused(requestId: string): PausedRequest {
    const session = this.#session;
    return {
      // `Failed` is net::ERR_FAILED, what Playwright's route.abort() gave a stubbed request before.
      fail: () =>
        session.send('Fetch.failRequest', { requestId, errorReason: 'Failed' }).then(() => undefined),
      proceed: () => session.send('Fetch.continueRequest', { requestId }).then(() => undefined),
      fulfill: (status, headers, body) =>
        session
          .send('Fetch.fulfillRequest', {
            requestId,
            responseCode: status,
            responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
            body: Buffer.from(body).toString('base64'),
          })
          .then(() => undefined),
    };
  }
}

/**
 * A stub's URL glob as a CDP urlPattern. Both take `*` for any run; CDP also takes `?` for one character and
 * `\` as its escape, which are literal in a glob, so each becomes `?` — a pattern at least as broad. The
 * browser only narrows what is paused: the stub table matches each paused URL exactly against the glob and
 * lets the others continue.
 */
export function cdpUrlPattern(glob: string): string {
  return glob.replace(/[?\\]/g, '?');
}
