import type { BrowserContext, Page } from 'playwright-core';
import type {
  Cookie,
  CookieToSet,
  StorageArea,
  StorageControl,
  StorageOperation,
} from '../contract/renderer-control.js';
import { CDP_CALL_TIMEOUT_MS } from '../protocol/cdp-connection.js';
import { withinContextDeadline } from './context-deadline.js';
import { healthOf, RENDERER_READ_MS } from './renderer-health.js';

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
    );
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
