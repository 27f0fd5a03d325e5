import type { Page } from 'playwright-core';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  ExpectationResult,
  ExpectKind,
  Matcher,
  RawSnapshot,
  ResolvedNode,
  Screenshot,
  ScreenshotOptions,
  SnapshotRequest,
  TargetedAction,
  TargetQuery,
  WindowDriver,
} from '../window-driver.js';
import { type Action, perform } from './actions.js';
import { changeCount, nextChange } from './change-signal.js';
import { type Expectation, waitForExpectation } from './expectation.js';
import { imageSize } from './image-size.js';
import { describeElement, elementForKey, markSecret, snapshotDocument } from './snapshot/snapshot.js';
import { describeSpec, isHandle, type KeyResolver, NOW_MS, type Resolved, resolveTarget } from './target.js';

/** Everything the gateway does inside one renderer page, whatever transport reached the page. */
export class PageDriver implements WindowDriver {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  snapshot(request: SnapshotRequest): Promise<RawSnapshot> {
    return snapshotDocument(this.page, request);
  }

  async locate(target: TargetQuery, timeoutMs: number): Promise<ResolvedNode> {
    const resolved = await this.#resolve(target, timeoutMs);
    const handle = isHandle(resolved) ? resolved : await resolved.elementHandle({ timeout: timeoutMs });
    if (!handle) throw staleTarget(target);
    return describeElement(this.page, handle);
  }

  async act(target: TargetQuery, action: TargetedAction, timeoutMs: number): Promise<void> {
    const element = await this.#resolve(target, timeoutMs);
    const resolvedAction: Action =
      action.type === 'dragTo' ? { type: 'dragTo', to: await this.#resolve(action.to, timeoutMs) } : action;
    await perform(this.page, element, resolvedAction, timeoutMs, describeSpec(target.spec));
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async scrollBy(target: TargetQuery | undefined, dx: number, dy: number, timeoutMs: number): Promise<void> {
    if (!target) {
      await this.page.evaluate(([x, y]) => window.scrollBy(x, y), [dx, dy] as const);
      return;
    }
    const element = await this.#resolve(target, timeoutMs);
    const scroll = (node: Element, [x, y]: readonly [number, number]) => node.scrollBy(x, y);
    await (isHandle(element)
      ? element.evaluate(scroll, [dx, dy] as const)
      : element.evaluate(scroll, [dx, dy] as const));
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
      ? await (await this.#resolve(options.target, timeoutMs)).screenshot(shot)
      : await this.page.screenshot({ ...shot, fullPage: options.fullPage ?? false });
    return { bytes, format: options.format, ...imageSize(bytes) };
  }

  markSecret(key: number): Promise<void> {
    return markSecret(this.page, key);
  }

  nextChange(after: number | null, timeoutMs: number): Promise<number> {
    if (after === null) return changeCount(this.page).catch(() => -1);
    return nextChange(this.page, after, timeoutMs);
  }

  #resolve(target: TargetQuery, timeoutMs: number): Promise<Resolved> {
    return resolveTarget(this.page, target, timeoutMs, this.#keyResolver);
  }

  /** Keys are only meaningful in the document that issued them: a reloaded page makes them stale. */
  readonly #keyResolver: KeyResolver = (page, spec) => elementForKey(page, spec.key, spec.documentId);

  /** The target's element and match count right now, without waiting: expectations do their own waiting. */
  async #findNow(target: TargetQuery): Promise<{ element: Resolved | null; count: number }> {
    try {
      const element = await this.#resolve(target, NOW_MS);
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

function staleTarget(target: TargetQuery): StagegraphError {
  return new StagegraphError('REF_STALE', `The element of ${describeSpec(target.spec)} left the document.`);
}
