import type { Page } from 'playwright-core';
import type {
  ExpectationResult,
  ExpectKind,
  Matcher,
  Screenshot,
  ScreenshotOptions,
  TargetedAction,
  TargetQuery,
} from '../window-driver.js';
import { type Action, perform } from './actions.js';
import { type Expectation, waitForExpectation } from './expectation.js';
import { imageSize } from './image-size.js';
import { describeSpec, type KeyResolver, type Resolved, resolveTarget } from './target.js';

/** Everything the gateway does inside one renderer page, whatever transport reached the page. */
export class PageDriver {
  readonly page: Page;
  readonly #keyResolver: KeyResolver;

  constructor(page: Page, keyResolver: KeyResolver) {
    this.page = page;
    this.#keyResolver = keyResolver;
  }

  resolve(target: TargetQuery, timeoutMs: number): Promise<Resolved> {
    return resolveTarget(this.page, target, timeoutMs, this.#keyResolver);
  }

  async act(target: TargetQuery, action: TargetedAction, timeoutMs: number): Promise<void> {
    const element = await this.resolve(target, timeoutMs);
    const resolvedAction: Action =
      action.type === 'dragTo' ? { type: 'dragTo', to: await this.resolve(action.to, timeoutMs) } : action;
    await perform(this.page, element, resolvedAction, timeoutMs, describeSpec(target.spec));
  }

  /** Keyboard input with no target: goes to whatever has focus. */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  expect(
    kind: ExpectKind,
    matcher: Matcher,
    target: TargetQuery | undefined,
    timeoutMs: number,
  ): Promise<ExpectationResult> {
    const expectation: Expectation = {
      kind,
      matcher,
      ...(target ? { find: () => this.#findNow(target) } : {}),
    };
    return waitForExpectation(this.page, expectation, timeoutMs);
  }

  async screenshot(options: ScreenshotOptions, timeoutMs: number): Promise<Screenshot> {
    const shot = {
      type: options.format,
      timeout: timeoutMs,
      ...(options.format === 'jpeg' ? { quality: options.quality ?? 80 } : {}),
    };
    const bytes = options.target
      ? await (await this.resolve(options.target, timeoutMs)).screenshot(shot)
      : await this.page.screenshot({ ...shot, fullPage: options.fullPage ?? false });
    return { bytes, format: options.format, ...imageSize(bytes) };
  }

  /** The target's element and match count right now, without waiting: expectations do their own waiting. */
  async #findNow(target: TargetQuery): Promise<{ element: Resolved | null; count: number }> {
    try {
      // Playwright reads a timeout of 0 as "no timeout"; 1 ms means "as it is now".
      const element = await this.resolve(target, 1);
      const count = 'count' in element && target.nth === undefined ? await element.count() : 1;
      return { element, count };
    } catch (error) {
      const ambiguous =
        (error as { code?: string; details?: { count?: number } }).code === 'AMBIGUOUS_TARGET';
      return {
        element: null,
        count: ambiguous ? ((error as { details: { count: number } }).details.count ?? 0) : 0,
      };
    }
  }
}
