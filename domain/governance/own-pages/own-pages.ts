import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { isLoopbackHost } from '../../../transports/process/loopback.js';
import { pageStateActions } from '../../page-state/next-actions.js';
import { sessionActions } from '../../sessions/next-actions.js';

/** Binds that accept connections for any host name on their port. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);
/** Names for "every interface", which a browser on Linux connects to this machine through. */
const THIS_MACHINE = new Set(['0.0.0.0', '[::]', '::']);
/** An IPv4-mapped IPv6 address as a URL normalises it (`[::ffff:127.0.0.1]` → `[::ffff:7f00:1]`). */
/**
 * What a browser loads to show the gateway's pages: the observer page, its script and style
 * (server/observer-page.ts) and GraphiQL (server/graphiql-page.ts). A stub answering one of them would
 * put an agent's script on the gateway's origin, where an approver signs in.
 */
const PAGE_PATHS = ['/', '/index.html', '/observer/app.js', '/observer/app.css', '/graphql', '/graphql/'];
/** The loopback host forms a page URL is spelled with when a stub pattern is tried against them. */
const LOOPBACK_FORMS = ['127.0.0.1', 'localhost', '[::1]', 'stagegraph.localhost'];
const MAPPED_IPV4 = /^\[?::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]?$/;

/**
 * The built-in rule every refusal on the gateway's own pages names, read or act: one id to branch on,
 * whatever the operation was.
 */
export const NOT_ON_OWN_PAGES_RULE = {
  id: 'built-in:not-on-own-pages',
  index: null,
  description:
    "the gateway's own pages (observer console, GraphiQL) are never read or acted on: an approver may be signed in there",
} as const;

/** A window as the refusal names it. */
export interface OwnPageWindow {
  readonly id: string;
  readonly url: string;
}

/**
 * The gateway's own pages (the observer console, GraphiQL), as windows of a browser an agent attached to
 * (the user's own browser, where an approver may be signed in). No operation reads or acts on them: a
 * click on "Approve" there would let an agent answer its own request, and a read of the page (its
 * storage, a snapshot, a screenshot, its requests) would hand over what the approver sees or holds.
 *
 * Which URLs are ours: on the port the gateway serves, every name the request guard lets through for
 * this machine (loopback names, `*.localhost`, 127.0.0.0/8, ::1 and its IPv4-mapped form, the wildcard
 * addresses a browser on Linux also reaches it by) and the address it binds; and the names given with
 * `--allowed-host` on any port, as the guard accepts them, since they name the gateway behind a proxy.
 * Loopback on another port is another local server (an app under test), and stays readable.
 */
export class OwnPages {
  #port: number | null = null;
  #bound = new Set<string>();
  #proxied = new Set<string>();
  #anyHost = false;

  /**
   * Called once the server listens: its port, the address it binds, and the host names it answers to on
   * any port (`--allowed-host`).
   */
  serveAt(port: number, bind: string, allowedHosts: readonly string[] = []): void {
    this.#port = port;
    this.#bound = new Set([normalHost(bind)]);
    this.#proxied = new Set(allowedHosts.map(normalHost));
    this.#anyHost = WILDCARD_BINDS.has(bind);
  }

  /** Whether `url` is a page (or any other resource) this gateway serves. */
  holds(url: string | null | undefined): boolean {
    if (this.#port === null || !url) return false;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    const scheme = parsed.protocol;
    if (scheme !== 'http:' && scheme !== 'https:' && scheme !== 'ws:' && scheme !== 'wss:') return false;
    const host = normalHost(parsed.hostname);
    if (this.#proxied.has(host)) return true;
    const secure = scheme === 'https:' || scheme === 'wss:';
    const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port);
    if (port !== this.#port) return false;
    return this.#anyHost || this.#bound.has(host) || isThisMachine(host);
  }

  /**
   * The URLs a browser loads the gateway's pages from, in the host forms it answers to: what a stub
   * pattern must not match. (With a wildcard bind any name on the port is ours; `holds` covers a pattern
   * naming one.)
   */
  pageUrls(): string[] {
    if (this.#port === null) return [];
    const hosts = [...LOOPBACK_FORMS, ...this.#bound]
      .filter((host) => !WILDCARD_BINDS.has(host))
      .map((host) => `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${this.#port}`);
    for (const host of this.#proxied) hosts.push(host, `${host}:${this.#port}`);
    return [...new Set(hosts)].flatMap((host) =>
      ['http', 'https'].flatMap((scheme) => PAGE_PATHS.map((path) => `${scheme}://${host}${path}`)),
    );
  }

  /** The refusal when `window` shows one of these pages; null when it does not. */
  refusal(sessionId: string, window: OwnPageWindow, what = 'read or act on'): StagegraphError | null {
    if (!this.holds(window.url)) return null;
    return new StagegraphError(
      'POLICY_DENIED',
      `Window ${window.id} of session ${sessionId} shows ${window.url}, one of this gateway's own pages: no operation may ${what} it (${NOT_ON_OWN_PAGES_RULE.description}).`,
      {
        hint: "Use another window of the session (`windows { id url }` lists them); the gateway's own pages are off limits to every operation, whatever the policy says.",
        nextActions: [sessionActions.windows({ id: sessionId })],
        details: { rule: NOT_ON_OWN_PAGES_RULE, window: { id: window.id, url: window.url } },
      },
    );
  }

  /** The refusal when `origin` (a web-storage or cookie origin) is this gateway's; null otherwise. */
  originRefusal(sessionId: string, origin: string, what: string): StagegraphError | null {
    if (!this.holds(origin)) return null;
    return new StagegraphError(
      'POLICY_DENIED',
      `${origin} is this gateway's own origin: session ${sessionId} may not ${what} it (${NOT_ON_OWN_PAGES_RULE.description}).`,
      {
        hint: "Name the origin of the app's own pages (`storageOrigins` lists them); the gateway's own origin is off limits to every operation.",
        nextActions: [pageStateActions.storageOrigins(sessionId)],
        details: { rule: NOT_ON_OWN_PAGES_RULE, origin },
      },
    );
  }
}

/** The refusal of a stub pattern that matches `hit`, a URL the gateway serves its pages at. */
export function stubRefusal(sessionId: string, pattern: string, hit: string): StagegraphError {
  return new StagegraphError(
    'POLICY_DENIED',
    `The stub pattern ${JSON.stringify(pattern)} of session ${sessionId} matches ${hit}, which the gateway serves its own pages from: a stub answers every page of the browser, and no operation may act on those pages (${NOT_ON_OWN_PAGES_RULE.description}).`,
    {
      hint: "Name your app's origin in the pattern (`http://localhost:3000/api/*` rather than `*/api/*`).",
      details: { rule: NOT_ON_OWN_PAGES_RULE, pattern, matches: hit },
    },
  );
}

/** The window a refusal names, when `error` is the refusal of one of the gateway's own pages. */
export function refusedOwnPage(error: unknown): OwnPageWindow | null {
  if (!(error instanceof StagegraphError) || error.code !== 'POLICY_DENIED') return null;
  const details = error.details as { rule?: { id?: unknown }; window?: OwnPageWindow } | undefined;
  return details?.rule?.id === NOT_ON_OWN_PAGES_RULE.id && details.window ? details.window : null;
}

/** Lower case, without a fully qualified name's final dot (`localhost.` is `localhost`). */
function normalHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Every name for this machine a browser resolves without DNS, as a URL's hostname spells it. */
function isThisMachine(host: string): boolean {
  if (isLoopbackHost(host) || host.endsWith('.localhost') || THIS_MACHINE.has(host)) return true;
  const mapped = MAPPED_IPV4.exec(host);
  return mapped !== null && Number.parseInt(mapped[1] as string, 16) >> 8 === 127;
}
