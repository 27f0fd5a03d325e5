import type {
  ClockControl,
  NetworkControl,
  StorageArea,
  StorageControl,
  StorageOperation,
} from '../../../transports/contract/renderer-control.js';
import type { TopicHandlers, WindowInfo } from '../../../transports/contract/transport-events.js';
import { OwnPages, type OwnPageWindow, stubRefusal } from './own-pages.js';

/**
 * A session's storage seam with the gateway's own origin cut out: its web storage is neither read nor
 * written (a write answers the items afterwards, so it is a read too), no cookie is read or set for one
 * of its URLs, and it is not listed among the origins. (Cookies carry no port: those of a loopback host
 * without a URL named are the app's as much as anyone's, and the gateway sets none.)
 */
export function fencedStorage(control: StorageControl, pages: OwnPages, sessionId: string): StorageControl {
  const refuse = (origin: string, what: string) => {
    const refusal = pages.originRefusal(sessionId, origin, what);
    if (refusal) throw refusal;
  };
  return {
    async cookies(urls) {
      for (const url of urls) refuse(url, 'read the cookies of');
      return control.cookies(urls);
    },
    async setCookies(cookies) {
      for (const cookie of cookies) if (cookie.url) refuse(cookie.url, 'set cookies on');
      return control.setCookies(cookies);
    },
    clearCookies: (filter) => control.clearCookies(filter),
    async origins() {
      return (await control.origins()).filter((origin) => !pages.holds(origin));
    },
    async webStorage(origin: string, area: StorageArea, operation: StorageOperation) {
      refuse(origin, operation.op === 'items' ? 'read the web storage of' : 'change the web storage of');
      return control.webStorage(origin, area, operation);
    },
  };
}

/**
 * A session's network seam that stubs nothing the gateway's pages load, and whose kept problems leave out
 * requests to the gateway. A stub answers every page of the browser it matches in, and one answering the
 * observer page's script would run an agent's code on the gateway's origin, where the approver signs in.
 */
export function fencedNetwork(control: NetworkControl, pages: OwnPages, sessionId: string): NetworkControl {
  return {
    arm: (id, spec) => control.arm(id, spec),
    disarm: (id) => control.disarm(id),
    async stub(id, spec) {
      const hit = ownUrlStubbed(pages, spec.pattern);
      if (hit !== undefined) throw stubRefusal(sessionId, spec.pattern, hit);
      return control.stub(id, spec);
    },
    unstub: (id) => control.unstub(id),
    stubs: () => control.stubs(),
    get droppedInFlight() {
      return control.droppedInFlight;
    },
    problems() {
      const read = control.problems();
      return { ...read, problems: read.problems.filter((problem) => !pages.holds(problem.url)) };
    },
  };
}

/**
 * A session's clock seam that leaves time alone while one of its windows shows a gateway page. Playwright's
 * fake clock spans the whole browser context, current documents and future ones, so installing it for the
 * app in a browser where the observer page is open would stop that page's timers and Date too: its
 * approval countdowns and live view would show a time the agent chose. Reading the time changes nothing.
 */
export function fencedClock(
  control: ClockControl,
  pages: OwnPages,
  sessionId: string,
  windows: () => Promise<readonly WindowInfo[]>,
): ClockControl {
  const changing = async <T>(change: () => Promise<T>): Promise<T> => {
    for (const window of await windows()) {
      const refusal = pages.refusal(sessionId, window, 'change the clock of');
      if (refusal) throw refusal;
    }
    return change();
  };
  return {
    install: (time) => changing(() => control.install(time)),
    setFixedTime: (time) => changing(() => control.setFixedTime(time)),
    setSystemTime: (time) => changing(() => control.setSystemTime(time)),
    advance: (ms) => changing(() => control.advance(ms)),
    runFor: (ms) => changing(() => control.runFor(ms)),
    pauseAt: (time) => changing(() => control.pauseAt(time)),
    resume: () => changing(() => control.resume()),
    now: () => control.now(),
  };
}

/** A URL of the gateway's that a stub pattern (`*` matches any run of characters) matches; undefined for none. */
function ownUrlStubbed(pages: OwnPages, pattern: string): string | undefined {
  // A concrete URL the pattern names on the gateway's origin; else one of its pages, in every host form.
  const named = pattern.replaceAll('*', 'x');
  return pages.holds(named) ? named : pages.pageUrls().find((url) => globMatches(pattern, url));
}

/**
 * Whether the glob matches all of `text`: the two-pointer match that returns to the last `*` on a miss,
 * at most |pattern| × |text| steps (`text` is a short URL).
 */
function globMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * One session's fence around the gateway's own pages. A window showing one is refused to every read and
 * action (`refuse`, where the session hands out a window's driver), and what it logs, requests or raises
 * is never recorded: not in the console, network or dialog logs, their streams or the run log. Which
 * windows show one is noted when a window opens and at every listing (every read of a window lists them
 * first); requests to the gateway and lines logged from its scripts are known by their URL wherever
 * they come from.
 */
export class OwnWindows {
  readonly #pages: OwnPages;
  readonly #own = new Set<string>();

  /** Without `pages` (a registry built without a server) nothing is the gateway's own. */
  constructor(pages: OwnPages = new OwnPages()) {
    this.#pages = pages;
  }

  /** Notes what each window shows now; answers the listing as it was given. */
  noted<Listing extends readonly WindowInfo[] | undefined>(windows: Listing): Listing {
    for (const window of windows ?? []) {
      if (this.#pages.holds(window.url)) this.#own.add(window.id);
      else this.#own.delete(window.id);
    }
    return windows;
  }

  /** Throws the refusal (POLICY_DENIED, built-in:not-on-own-pages) when `window` shows one of them. */
  refuse(sessionId: string, window: OwnPageWindow): void {
    const refusal = this.#pages.refusal(sessionId, window);
    if (refusal) throw refusal;
  }

  /**
   * Subscribers behind the fence: each window is looked at as it opens and closes (does it show one of the
   * gateway's own pages?) before they hear of it, and console lines, requests and dialogs from or about
   * the gateway's own pages reach none of them.
   */
  fenced(subscribers: readonly TopicHandlers[]): TopicHandlers[] {
    const windows: TopicHandlers = {
      'window-opened': (event) => this.noted([event.window]),
      'window-closed': (event) => this.#own.delete(event.window.id),
    };
    const behindFence = ({ console, network, dialog, ...rest }: TopicHandlers): TopicHandlers => ({
      ...rest,
      console:
        console &&
        ((event) => {
          if (this.#shown(event.message.windowId, event.message.location)) console(event);
        }),
      network:
        network &&
        ((event) => {
          if (this.#shown(event.record.windowId, event.record.url)) network(event);
        }),
      dialog:
        dialog &&
        ((event) => {
          if (this.#shown(event.dialog.windowId)) dialog(event);
        }),
    });
    return [windows, ...subscribers.map(behindFence)];
  }

  /** False for what came from one of the gateway's own windows, or names one of its pages. */
  #shown(windowId: string | null | undefined, url?: string | null): boolean {
    return !this.#fromOwn(windowId) && !this.#pages.holds(url);
  }

  #fromOwn(windowId: string | null | undefined): boolean {
    return windowId != null && this.#own.has(windowId);
  }
}
