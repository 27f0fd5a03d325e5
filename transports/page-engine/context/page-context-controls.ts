import type { BrowserContext, Page } from 'playwright-core';
import type { TransportEvent } from '../../contract/transport-events.js';
import type { WindowDriver } from '../../contract/window-driver.js';
import { PlaywrightDialogs } from '../events/page-dialogs.js';
import { relayPageEvents, relayRendererEvents } from '../events/page-events.js';
import { PlaywrightNetwork } from '../network/capture.js';
import { rawSessionsAreDeaf } from '../page/page-cdp.js';
import { PageDrivers } from '../page/page-drivers.js';
import { PlaywrightClock } from './context-clock.js';
import { PlaywrightStorage } from './context-storage.js';

/** What a session tells its page-context controls: its context, its windows' pages and its event stream. */
export interface PageContextSetup {
  /** Every window is a page of this one context, so capture, stubs, cookies and the clock span them all. */
  readonly context: BrowserContext;
  /** The session's window pages now, for web storage origins and the clock's reading. */
  pages(): readonly Page[];
  /** The session's window id of a page, for the requests it captures. */
  windowIdOf(page: Page): string | undefined;
  /** The session's event stream: network records, dialogs and each window's renderer events go there. */
  emit(event: TransportEvent): void;
  /**
   * Set where extra raw CDP sessions on these pages send commands but hear no events (the inject relay),
   * so the console and network feeds use Playwright's own events instead (see `rawSessionsAreDeaf`).
   */
  readonly rawSessionsDeaf?: boolean;
}

/**
 * The renderer-side controls of one Playwright BrowserContext, as every transport that drives pages through
 * Playwright has them: network capture and stubs, the JS dialog policy, cookies and web storage, the fake
 * clock, one PageDriver per window, and the relay of each window's renderer events.
 */
export class PageContextControls {
  readonly network: PlaywrightNetwork;
  readonly dialogs: PlaywrightDialogs;
  readonly storage: PlaywrightStorage;
  readonly clock: PlaywrightClock;
  readonly #drivers = new PageDrivers();
  readonly #emit: (event: TransportEvent) => void;

  constructor(setup: PageContextSetup) {
    const { context, emit } = setup;
    if (setup.rawSessionsDeaf) rawSessionsAreDeaf(context);
    this.#emit = emit;
    const pages = () => setup.pages();
    this.network = new PlaywrightNetwork(
      context,
      (page) => setup.windowIdOf(page),
      (record) => emit({ type: 'network', record }),
    );
    this.dialogs = new PlaywrightDialogs((dialog, decision) => emit({ type: 'dialog', dialog, decision }));
    this.storage = new PlaywrightStorage(context, pages);
    this.clock = new PlaywrightClock(context, pages);
  }

  /** The driver of a window's page; undefined when there is no such page. */
  driver(page: Page | undefined): WindowDriver | undefined {
    return this.#drivers.of(page);
  }

  /** Relays a window whose page is the window: its console, dialogs, errors, crash, and its closing. */
  relayWindow(page: Page, windowId: string, forget: (closed: Page) => void): void {
    relayPageEvents(page, windowId, { emit: this.#emit, dialogs: this.dialogs, forget });
  }

  /** Relays a window's renderer events only: its closing is for whoever owns the window to tell. */
  relayRenderer(page: Page, windowId: string): void {
    relayRendererEvents(page, windowId, { emit: this.#emit, dialogs: this.dialogs });
  }
}
