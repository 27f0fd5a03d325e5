import type { BrowserContext, Request, Route } from 'playwright-core';
import type { StubInfo, StubSpec } from '../renderer-control.js';
import { urlGlob } from './url-glob.js';

/**
 * Answers remembered for capture entries that have not finished yet. A request whose entry never comes (its
 * page closed first) would otherwise stay forever; past this many the oldest answers are forgotten.
 */
const MAX_PENDING_ANSWERS = 256;

interface LiveStub {
  info: StubInfo;
  /**
   * A RegExp, not a function: Playwright matches a RegExp in its server and pauses only the requests that
   * match, while for a function it must hand every request of the context to this process as Route and
   * Request objects (~20 KB each, kept until the page closes), stubbed or not.
   */
  readonly matches: RegExp;
  readonly handler: (route: Route) => Promise<void>;
}

interface Answer {
  readonly key: string;
  readonly stubId: string;
}

/**
 * Stubs on Playwright routes (`context.route`, which works on Electron windows, stand-in or real), and
 * which stub answered a request. Captures see requests as CDP events, which Playwright's Route does not link
 * to: an answer is remembered by method and URL, and the next finished capture entry with the same method
 * and URL takes it. So when a stub answers one of several identical requests in flight at once and another
 * of them finishes first, that other one is named as the stubbed one; the count of stubbed entries stays
 * right.
 */
export class PlaywrightStubs {
  readonly #context: BrowserContext;
  /** Whether an answered request will show as a capture entry, so that its answer is worth remembering. */
  readonly #captured: (request: Request) => boolean;
  readonly #stubs = new Map<string, LiveStub>();
  readonly #answers: Answer[] = [];

  constructor(context: BrowserContext, captured: (request: Request) => boolean) {
    this.#context = context;
    this.#captured = captured;
  }

  async stub(id: string, spec: StubSpec): Promise<StubInfo> {
    const stub: LiveStub = {
      info: { ...spec, id, hits: 0, active: true },
      matches: urlGlob(spec.pattern),
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

  /** The stub that answered a finished request with this method and URL, taken so it names one entry only. */
  answeredBy(method: string, url: string): string | null {
    const key = answerKey(method, url);
    const index = this.#answers.findIndex((answer) => answer.key === key);
    if (index < 0) return null;
    const [answer] = this.#answers.splice(index, 1);
    return answer?.stubId ?? null;
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
    if (this.#captured(request)) this.#remember(answerKey(request.method(), request.url()), info.id);
    await this.#respond(info, route);
    if (spent) await this.#context.unroute(stub.matches, stub.handler).catch(() => undefined);
  }

  #remember(key: string, stubId: string): void {
    if (this.#answers.length >= MAX_PENDING_ANSWERS) this.#answers.shift();
    this.#answers.push({ key, stubId });
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
}

function answerKey(method: string, url: string): string {
  return `${method} ${url}`;
}
