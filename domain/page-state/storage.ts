import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  Cookie,
  CookieToSet,
  StorageArea,
  StorageControl,
  StorageOperation,
} from '../../transports/contract/renderer-control.js';
import { REDACTED_VALUE } from '../../transports/contract/window-driver.js';
import { checkedCookie } from './cookie-input.js';
import { pageStateActions } from './next-actions.js';

/** Filters on cookies; absent or null means "any". */
export interface CookieQuery {
  readonly urls?: readonly string[] | null;
  readonly name?: string | null;
  readonly domain?: string | null;
  /** Values are redacted unless asked for: cookies are sessions and tokens. */
  readonly reveal?: boolean | null;
}

export interface StorageItem {
  readonly key: string;
  readonly value: string;
}

export interface OriginStorage {
  readonly origin: string;
  readonly cookies: Cookie[];
  readonly localStorage: StorageItem[];
  readonly sessionStorage: StorageItem[];
}

/** Cookies and web storage of a session's renderers, redacted unless the caller reveals them. */
export class SessionWebStorage {
  readonly #sessionId: string;
  readonly #control: () => StorageControl;

  constructor(sessionId: string, control: () => StorageControl) {
    this.#sessionId = sessionId;
    this.#control = control;
  }

  async cookies(query: CookieQuery): Promise<Cookie[]> {
    const notUrl = query.urls?.find((url) => !URL.canParse(url));
    if (notUrl !== undefined) {
      throw new StagegraphError('BAD_INPUT', `Cookies are read by URL, and "${notUrl}" is not one.`, {
        hint: 'Pass absolute URLs such as http://127.0.0.1:8080/, or leave `urls` out for every cookie.',
        nextActions: [pageStateActions.storageOrigins(this.#sessionId)],
      });
    }
    const cookies = await this.#control().cookies(query.urls ?? []);
    return cookies
      .filter((cookie) => query.name == null || cookie.name === query.name)
      .filter((cookie) => query.domain == null || domainMatches(cookie.domain, query.domain))
      .map((cookie) => (query.reveal ? cookie : { ...cookie, value: REDACTED_VALUE }));
  }

  async setCookie(cookie: CookieToSet): Promise<void> {
    await this.#control().setCookies([checkedCookie(cookie)]);
  }

  async clearCookies(filter: {
    readonly name?: string | null;
    readonly domain?: string | null;
  }): Promise<void> {
    await this.#control().clearCookies({
      ...(filter.name == null ? {} : { name: filter.name }),
      ...(filter.domain == null ? {} : { domain: filter.domain }),
    });
  }

  async webStorage(
    origin: string,
    area: StorageArea,
    operation: StorageOperation,
    reveal: boolean,
  ): Promise<StorageItem[]> {
    const control = this.#control();
    const items = await control.webStorage(origin, area, operation);
    if (!items) {
      const openOrigins = await control.origins();
      throw new StagegraphError(
        'STORAGE_ORIGIN_NOT_OPEN',
        `No open window of session ${this.#sessionId} has the origin ${origin}.`,
        {
          nextActions: openOrigins.map((open) => pageStateActions.localStorageKeys(this.#sessionId, open)),
          details: { openOrigins },
        },
      );
    }
    return items.map(([key, value]) => ({ key, value: reveal ? value : REDACTED_VALUE }));
  }

  origins(): Promise<string[]> {
    return this.#control().origins();
  }

  /**
   * Web storage first: it fails as STORAGE_ORIGIN_NOT_OPEN for an origin no window has. An opaque
   * origin ("null": file://, data:, about:blank pages) has storage but no cookies to ask for.
   */
  async snapshot(origin: string, reveal: boolean): Promise<OriginStorage> {
    const items = { op: 'items' } as const;
    const localStorage = await this.webStorage(origin, 'local', items, reveal);
    const sessionStorage = await this.webStorage(origin, 'session', items, reveal);
    const cookies = origin === 'null' ? [] : await this.cookies({ urls: [origin], reveal });
    return { origin, cookies, localStorage, sessionStorage };
  }
}

/** A cookie's domain matches `example.com` whether it was set for the host or as `.example.com`. */
function domainMatches(cookieDomain: string, wanted: string): boolean {
  return cookieDomain.replace(/^\./, '') === wanted.replace(/^\./, '');
}
