import type { Page } from 'playwright-core';
import type { WindowInfo } from '../../contract/transport-events.js';
import { lastKnownTitle, pageTitle } from './page-title.js';

/**
 * Gives each page a session-scoped id (`w1`, `w2`, ...) that never changes or gets reused, so a client can
 * hold on to a window id across navigations and other windows opening and closing.
 */
export class WindowRegistry {
  #ids = new Map<Page, string>();
  #pages = new Map<string, Page>();
  #next = 1;

  add(page: Page): { id: string; isNew: boolean } {
    const known = this.#ids.get(page);
    if (known) return { id: known, isNew: false };
    const id = `w${this.#next}`;
    this.#next += 1;
    this.#ids.set(page, id);
    this.#pages.set(id, page);
    return { id, isNew: true };
  }

  remove(page: Page): string | undefined {
    const id = this.#ids.get(page);
    if (!id) return undefined;
    this.#ids.delete(page);
    this.#pages.delete(id);
    return id;
  }

  idOf(page: Page): string | undefined {
    return this.#ids.get(page);
  }

  page(id: string): Page | undefined {
    return this.#pages.get(id);
  }

  /** Open pages in the order they opened. */
  entries(): [string, Page][] {
    return [...this.#pages.entries()];
  }

  /**
   * Open windows without a round trip to any renderer: ids and urls are current (Playwright follows every
   * navigation), titles are the last each page answered with. What picks a window for an operation.
   */
  known(): WindowInfo[] {
    return this.entries().map(([id, page]) => ({ id, title: lastKnownTitle(page), url: page.url() }));
  }

  /** One open window with its current title, asked of that page only; undefined when it is not open. */
  async describe(id: string): Promise<WindowInfo | undefined> {
    const page = this.#pages.get(id);
    return page && describePage(id, page);
  }
}

/** A page's title without waiting on a busy renderer forever: a closing page reports what we last knew. */
export async function describePage(id: string, page: Page): Promise<WindowInfo> {
  return { id, title: await pageTitle(page), url: page.url() };
}
