import type { BrowserContext, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  Cookie,
  CookieToSet,
  StorageArea,
  StorageControl,
  StorageOperation,
} from '../../contract/renderer-control.js';
import { CDP_CALL_TIMEOUT_MS } from '../../protocol/cdp-connection.js';
import { healthOf, RENDERER_READ_MS } from '../renderer/renderer-health.js';
import { withinContextDeadline } from './context-deadline.js';

/**
 * Cookies through the BrowserContext; web storage through one fixed function run in a page of the
 * requested origin (a transport-owned serializer, not caller code, so it needs no eval opt-in).
 */
export class PlaywrightStorage implements StorageControl {
  readonly #context: BrowserContext;
  readonly #pages: () => readonly Page[];

  constructor(context: BrowserContext, pages: () => readonly Page[]) {
    this.#context = context;
    this.#pages = pages;
  }

  cookies(urls: readonly string[]): Promise<Cookie[]> {
    return this.#bounded('reading cookies', this.#context.cookies(urls.length > 0 ? [...urls] : undefined));
  }

  async setCookies(cookies: readonly CookieToSet[]): Promise<void> {
    await this.#bounded(
      'setting cookies',
      this.#context.addCookies(cookies.map((cookie) => ({ ...cookie }))),
    ).catch((error: unknown) => {
      throw refusedCookie(error);
    });
  }

  async clearCookies(filter: { readonly name?: string; readonly domain?: string }): Promise<void> {
    await this.#bounded('clearing cookies', this.#context.clearCookies({ ...filter }));
  }

  async origins(): Promise<string[]> {
    return [...new Set(this.#pages().map((page) => originOf(page.url())))];
  }

  async webStorage(
    origin: string,
    area: StorageArea,
    operation: StorageOperation,
  ): Promise<[string, string][] | undefined> {
    const page = this.#pages().find((candidate) => originOf(candidate.url()) === origin);
    if (!page) return undefined;
    const what = operation.op === 'items' ? 'reading web storage' : `web storage ${operation.op}`;
    return healthOf(page).guard(what, RENDERER_READ_MS, () =>
      page.evaluate(
        ({ area, operation }) => {
          const storage = area === 'local' ? window.localStorage : window.sessionStorage;
          if (operation.op === 'set') storage.setItem(operation.key, operation.value);
          if (operation.op === 'remove') storage.removeItem(operation.key);
          if (operation.op === 'clear') storage.clear();
          const items: [string, string][] = [];
          for (let i = 0; i < storage.length; i += 1) {
            const key = storage.key(i);
            if (key !== null) items.push([key, storage.getItem(key) ?? '']);
          }
          return items.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        },
        { area, operation },
      ),
    );
  }

  /** Cookies are the browser's, not a page's: a call it leaves unanswered is a stuck protocol call. */
  #bounded<T>(what: string, work: Promise<T>): Promise<T> {
    return withinContextDeadline(what, this.#pages(), CDP_CALL_TIMEOUT_MS, work);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/**
 * What the browser (Storage.setCookies) and Playwright say of a cookie they will not store: an empty name,
 * a url that cannot carry cookies, no url nor domain and path.
 */
const REFUSED_COOKIE = /Invalid cookie fields|Cookie should have|can not have cookie/;

/** A cookie the browser refuses is the caller's input to correct, not the gateway's fault. */
function refusedCookie(error: unknown): unknown {
  if (!(error instanceof Error) || !REFUSED_COOKIE.test(error.message)) return error;
  const reason = error.message.split('\n')[0]?.replace(/^browserContext\.addCookies: /, '');
  return new StagegraphError('BAD_INPUT', `The browser refused the cookie: ${reason}`, {
    hint: 'Give the cookie a non-empty name and an http(s) url (or a domain and path), as setCookie(cookie:) documents.',
    cause: error,
  });
}
