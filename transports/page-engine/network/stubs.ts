import type { BrowserContext, Page } from 'playwright-core';
import type { StubInfo, StubSpec } from '../../contract/renderer-control.js';
import { FetchStubs } from './fetch-stubs.js';
import { enabledInTime, followedPageSession, PageFollowing } from './page-following.js';
import type { FinishedRequest, RequestIdentity } from './record.js';
import { RouteStubs } from './route-stubs.js';
import { StubAnswers } from './stub-answers.js';
import { type StubAnswering, StubTable } from './stub-table.js';

/**
 * The stubs of one Playwright BrowserContext, answered on every page of it — those open when a stub is added
 * and those that open later — while any stub is active: with the Fetch domain of the page's shared raw CDP
 * session (fetch-stubs.ts), or on Playwright routes for a page without a usable one
 * (route-stubs.ts). Remembers which stub answered a request for its capture entry.
 */
export class PlaywrightStubs {
  readonly #table = new StubTable();
  readonly #answering: StubAnswering;
  /** Each followed page's answerer. */
  readonly #pages = new Map<Page, FetchStubs | RouteStubs>();
  /** Adding, removing and following pages run one at a time, so Fetch is enabled and disabled in order. */
  readonly #following: PageFollowing;

  constructor(context: BrowserContext, captured: (request: RequestIdentity) => boolean) {
    this.#following = new PageFollowing(context, (page) => this.#follow(page));
    this.#answering = {
      claim: (method, url) => this.#table.claim(method, url),
      spent: () => void this.#following.serially(() => this.#sync()),
      answers: new StubAnswers(),
      captured,
    };
  }

  async stub(id: string, spec: StubSpec): Promise<StubInfo> {
    const info = this.#table.add(id, spec);
    await this.#following.serially(() => this.#sync());
    return info;
  }

  async unstub(id: string): Promise<StubInfo | undefined> {
    const info = this.#table.remove(id);
    if (info) await this.#following.serially(() => this.#sync());
    return info;
  }

  stubs(): StubInfo[] {
    return this.#table.list();
  }

  /** The stub that answered this finished request, taken so that it names one entry only. */
  answeredBy(request: FinishedRequest): string | null {
    return this.#answering.answers.take(request);
  }

  /** Brings every page in line with the active stubs: all pages followed while any is, none after. */
  async #sync(): Promise<void> {
    if (this.#table.active().length === 0) {
      this.#following.stopListening();
      const answerers = [...this.#pages.values()];
      this.#pages.clear();
      await Promise.all(answerers.map((answerer) => answerer.stop()));
      return;
    }
    await Promise.all(this.#following.listen().map((page) => this.#follow(page)));
  }

  async #follow(page: Page): Promise<void> {
    const active = this.#table.active();
    if (active.length === 0 || page.isClosed()) return;
    const known = this.#pages.get(page);
    if (known) return known.update(active).catch(() => undefined);
    const answerer = await this.#answererFor(page, active);
    this.#pages.set(page, answerer);
    page.once('close', () => {
      if (this.#pages.get(page) === answerer) this.#pages.delete(page);
    });
    if (page.isClosed()) this.#pages.delete(page);
  }

  /** Fetch on the page's raw session when it has one that enables Fetch in time, else Playwright routes. */
  async #answererFor(page: Page, active: readonly StubInfo[]): Promise<FetchStubs | RouteStubs> {
    const session = await followedPageSession(page);
    if (session) {
      const fetch = new FetchStubs(session, this.#answering);
      if (await enabledInTime(fetch.update(active))) return fetch;
      void fetch.stop();
    }
    const routes = new RouteStubs(page, this.#answering);
    await routes.update(active).catch(() => undefined);
    return routes;
  }
}
