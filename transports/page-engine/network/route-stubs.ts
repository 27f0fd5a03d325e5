import type { Page, Route } from 'playwright-core';
import type { StubInfo } from '../../contract/renderer-control.js';
import { answerAsStub, type StubAnswering } from './stub-table.js';
import { urlGlob } from './url-glob.js';

interface PageRoute {
  /**
   * A RegExp, not a function: Playwright matches a RegExp in its server and pauses only the requests that
   * match, while for a function it must hand every request of the page to this process as Route and Request
   * objects (~20 KB each, kept until the page closes), stubbed or not.
   */
  readonly matches: RegExp;
  readonly handler: (route: Route) => Promise<void>;
}

/**
 * Stubs on Playwright routes of one page, for a page without a usable raw CDP session (the inject relay's).
 * Every route of a page makes Playwright pause all its requests, and keeps ~20 KB of Route and Request
 * objects per matched request until the page closes; the raw session's Fetch domain (fetch-stubs.ts)
 * is the path that costs neither.
 */
export class RouteStubs {
  readonly #page: Page;
  readonly #answering: StubAnswering;
  readonly #routes = new Map<string, PageRoute>();

  constructor(page: Page, answering: StubAnswering) {
    this.#page = page;
    this.#answering = answering;
  }

  /** One route per active stub: added for new stubs, removed for those no longer active. */
  async update(stubs: readonly StubInfo[]): Promise<void> {
    const active = new Set(stubs.map((stub) => stub.id));
    const removed = [...this.#routes.keys()].filter((id) => !active.has(id));
    await Promise.all(removed.map((id) => this.#unroute(id)));
    for (const stub of stubs) {
      if (this.#routes.has(stub.id)) continue;
      const route: PageRoute = { matches: urlGlob(stub.pattern), handler: (paused) => this.#answer(paused) };
      this.#routes.set(stub.id, route);
      await this.#page.route(route.matches, route.handler);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#routes.keys()].map((id) => this.#unroute(id)));
  }

  async #unroute(id: string): Promise<void> {
    const route = this.#routes.get(id);
    this.#routes.delete(id);
    if (route) await this.#page.unroute(route.matches, route.handler).catch(() => undefined);
  }

  async #answer(route: Route): Promise<void> {
    const request = route.request();
    const claim = this.#answering.claim(request.method(), request.url());
    if (!claim) return route.fallback();
    const identity = { method: request.method(), url: request.url(), resourceType: request.resourceType() };
    if (this.#answering.captured(identity))
      this.#answering.answers.byMethodAndUrl(identity.method, identity.url, claim.stub.id);
    await answerAsStub(claim.stub, {
      fail: () => route.abort('failed'),
      proceed: () => route.continue(),
      fulfill: (status, headers, body) => route.fulfill({ status, headers: { ...headers }, body }),
    });
    // Only after answering: unrouting while this handler runs would let the request go unanswered.
    if (claim.spent) this.#answering.spent();
  }
}
