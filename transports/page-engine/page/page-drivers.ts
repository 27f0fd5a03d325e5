import type { Page } from 'playwright-core';
import { PageDriver } from './page-driver.js';

/** One PageDriver per page, made when first asked for and gone with the page. */
export class PageDrivers {
  readonly #drivers = new WeakMap<Page, PageDriver>();

  of(page: Page | undefined): PageDriver | undefined {
    if (!page) return undefined;
    let driver = this.#drivers.get(page);
    if (!driver) {
      driver = new PageDriver(page);
      this.#drivers.set(page, driver);
    }
    return driver;
  }
}
