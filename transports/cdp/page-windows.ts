import type { Page } from 'playwright-core';
import type { WindowInfo } from '../contract/transport-events.js';
import { pageCdpSession } from '../page-engine/page/page-cdp.js';
import { WindowRegistry } from '../page-engine/page/window-registry.js';
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
  /** Each page's target id, being learnt or learnt (null: the page closed first). */
  readonly #targetIds = new WeakMap<Page, Promise<string | null>>();
  readonly #knownTargetIds = new WeakMap<Page, string>();
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

  /**
   * Registers a page as a window (once); undefined for pages that are not app windows (DevTools). Its
   * target id is learnt in the background, over the page's shared raw session: only bounds() and a
   * listing of a page that does not answer need it, and an attach must not wait on a round trip per window.
   */
  add(page: Page): { id: string; isNew: boolean } | undefined {
    if (page.url().startsWith('devtools://')) return undefined;
    const added = this.registry.add(page);
    if (added.isNew) {
      const learnt = targetIdOf(page);
      this.#targetIds.set(page, learnt);
      void learnt.then((targetId) => targetId !== null && this.#knownTargetIds.set(page, targetId));
    }
    return added;
  }

  remove(page: Page): string | undefined {
    return this.registry.remove(page);
  }

  async targetIdOf(windowId: string): Promise<string | null> {
    const page = this.registry.page(windowId);
    return (page && (await this.#targetIds.get(page))) ?? null;
  }

  /**
   * Open windows in opening order. Titles are asked of each page (the browser's Target events report a
   * new title a moment after the document has it); a page that does not answer at once is described
   * by what the browser last reported, so a busy renderer never stalls a listing.
   */
  describe(): Promise<WindowInfo[]> {
    return Promise.all(
      this.registry.entries().map(async ([id, page]) => {
        const reported = () => {
          const targetId = this.#knownTargetIds.get(page);
          return (targetId === undefined ? undefined : this.#targets.get(targetId))?.title ?? '';
        };
        let timer: NodeJS.Timeout | undefined;
        const title = await Promise.race([
          page.title().catch(reported),
          new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve(reported()), TITLE_WAIT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        return { id, title, url: page.url() };
      }),
    );
  }

  pages(): Page[] {
    return this.registry.entries().map(([, page]) => page);
  }
}

/** The page's target id, asked of the page itself; null when it closed meanwhile (or has no raw session). */
async function targetIdOf(page: Page): Promise<string | null> {
  const session = await pageCdpSession(page);
  if (!session) return null;
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } catch {
    return null;
  }
}
