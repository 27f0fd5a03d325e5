import type { BrowserContext, Page } from 'playwright-core';
import type { WindowInfo } from '../contract/transport.js';
import { WindowRegistry } from '../page-engine/window-registry.js';
import type { CdpConnection } from '../protocol/cdp-connection.js';

/** A page asked for its title answers within this, or is described by the browser's last report. */
const TITLE_WAIT_MS = 250;

/** What the browser last said of a page target: kept live by Target events, read without a round trip. */
interface TargetInfo {
  readonly type: string;
  readonly title: string;
  readonly url: string;
}

/**
 * The windows of a browser reached over CDP: every page target is a window. Playwright's pages are what
 * the gateway drives; the browser's Target events (through chrome-remote-interface) track every target
 * live, and each page is tied to its target id for window-level calls (bounds).
 */
export class PageWindows {
  readonly registry = new WindowRegistry();
  readonly #targets = new Map<string, TargetInfo>();
  readonly #targetIds = new WeakMap<Page, string>();
  readonly #connection: CdpConnection;

  constructor(connection: CdpConnection) {
    this.#connection = connection;
  }

  /** Follows the browser's targets; the existing ones are reported at once. */
  async follow(): Promise<void> {
    const update = (params: Record<string, unknown>) => {
      const info = params.targetInfo as { targetId: string; type: string; title: string; url: string };
      this.#targets.set(info.targetId, { type: info.type, title: info.title, url: info.url });
    };
    this.#connection.on('Target.targetCreated', update);
    this.#connection.on('Target.targetInfoChanged', update);
    this.#connection.on('Target.targetDestroyed', (params) =>
      this.#targets.delete(params.targetId as string),
    );
    await this.#connection.send('Target.setDiscoverTargets', { discover: true });
  }

  /** Registers a page as a window (once); undefined for pages that are not app windows (DevTools). */
  async add(context: BrowserContext, page: Page): Promise<{ id: string; isNew: boolean } | undefined> {
    if (page.url().startsWith('devtools://')) return undefined;
    const added = this.registry.add(page);
    if (added.isNew) {
      const targetId = await targetIdOf(context, page);
      if (targetId) this.#targetIds.set(page, targetId);
    }
    return added;
  }

  remove(page: Page): string | undefined {
    return this.registry.remove(page);
  }

  targetIdOf(windowId: string): string | undefined {
    const page = this.registry.page(windowId);
    return page && this.#targetIds.get(page);
  }

  /**
   * Open windows in opening order. Titles are asked of each page (the browser's Target events report a
   * new title a moment after the document has it); a page that does not answer at once is described
   * by what the browser last reported, so a busy renderer never stalls a listing.
   */
  describe(): Promise<WindowInfo[]> {
    return Promise.all(
      this.registry.entries().map(async ([id, page]) => {
        const targetId = this.#targetIds.get(page);
        const reported = (targetId === undefined ? undefined : this.#targets.get(targetId))?.title ?? '';
        const title = await Promise.race([
          page.title().catch(() => reported),
          new Promise<string>((resolve) => setTimeout(() => resolve(reported), TITLE_WAIT_MS)),
        ]);
        return { id, title, url: page.url() };
      }),
    );
  }

  pages(): Page[] {
    return this.registry.entries().map(([, page]) => page);
  }
}

/** The page's target id, asked of the page itself; null when it closed meanwhile. */
async function targetIdOf(context: BrowserContext, page: Page): Promise<string | null> {
  try {
    const session = await context.newCDPSession(page);
    try {
      const { targetInfo } = await session.send('Target.getTargetInfo');
      return targetInfo.targetId;
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    return null;
  }
}
