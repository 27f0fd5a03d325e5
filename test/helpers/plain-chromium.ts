import type { Browser, Page } from 'playwright-core';
import { capabilityMatrix } from '../../transports/contract/capabilities.js';
import { EventRelay } from '../../transports/contract/event-relay.js';
import type { LaunchTransport, TransportSession } from '../../transports/contract/transport-contract.js';
import type { EventPort, ExitInfo, TransportEvent } from '../../transports/contract/transport-events.js';
import { PageDriver } from '../../transports/page-engine/page/page-driver.js';
import { launchChromium } from './browser.js';

/**
 * A test-only transport whose "app" is one page of a plain headless Chromium: the snapshot, action and
 * expectation suites run through the whole gateway against it as well, proving that nothing of the
 * engine depends on Electron. It speaks for the launch transport's id because launches name no other.
 */
export function plainChromiumTransport(url: string, initScript = ''): LaunchTransport {
  return {
    id: 'playwright-electron',
    description: 'Test fixture: one page of a plain headless Chromium.',
    capabilities: capabilityMatrix(['LAUNCH', 'WINDOWS', 'SNAPSHOT', 'INTERACTION', 'SCREENSHOT']),
    async launch() {
      const browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      if (initScript) await page.addInitScript(initScript);
      await page.goto(url);
      return new PlainChromiumSession(browser, page);
    },
  };
}

class PlainChromiumSession implements TransportSession {
  readonly pid = undefined;
  readonly app = {
    name: 'plain Chromium page',
    version: null,
    executablePath: 'chromium',
    versions: {},
    standIn: false,
  };
  readonly #browser: Browser;
  readonly #page: Page;
  readonly #driver: PageDriver;
  readonly #relay = new EventRelay();
  readonly events: EventPort = this.#relay;
  #exit: ExitInfo | undefined;

  constructor(browser: Browser, page: Page) {
    this.#browser = browser;
    this.#page = page;
    this.#driver = new PageDriver(page);
    // The session registry waits for a first window; this one is open and loaded already.
    queueMicrotask(() =>
      this.#emit({ type: 'window-opened', window: { id: 'w1', title: '', url: page.url() } }),
    );
  }

  async windows() {
    return this.#exit ? [] : [{ id: 'w1', title: await this.#page.title(), url: this.#page.url() }];
  }

  async bounds() {
    return null;
  }

  async focusedWindowId() {
    return 'w1';
  }

  async bringToFront() {
    await this.#page.bringToFront();
  }

  window(windowId: string) {
    return windowId === 'w1' && !this.#exit ? this.#driver : undefined;
  }

  async stop(): Promise<ExitInfo> {
    if (!this.#exit) {
      await this.#browser.close();
      this.#exit = { code: 0, signal: null };
      this.#emit({ type: 'exited', exit: this.#exit });
    }
    return this.#exit;
  }

  forceKill(): Promise<ExitInfo> {
    return this.stop();
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.#relay.close();
  }

  #emit(event: TransportEvent): void {
    this.#relay.emit(event);
  }
}
