import type { Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type {
  ScreencastHandle,
  ScreencastImage,
  ScreencastOptions,
} from '../../contract/screencast-contract.js';
import {
  describeSpec,
  type ExpectationResult,
  type ExpectedElement,
  type ExpectKind,
  type HtmlRead,
  type LoadState,
  type Matcher,
  type NavigationHistory,
  type NavigationResult,
  type NavigationTarget,
  type RawSnapshot,
  type RequestWatch,
  type ResolvedNode,
  type Screenshot,
  type ScreenshotOptions,
  type SnapshotRequest,
  type TargetedAction,
  type TargetQuery,
  type WindowDriver,
} from '../../contract/window-driver.js';
import { actionError } from '../actions/action-errors.js';
import { performGuarded } from '../actions/approved-guard.js';
import { type Action, perform as performAction } from '../actions/page-actions.js';
import { changeCount, nextChange } from '../expectation/change-signal.js';
import { type Expectation, waitForExpectation } from '../expectation/page-expectation.js';
import { RequestActivity } from '../network/request-activity.js';
import { healthOf, RENDERER_READ_MS, type RendererHealth } from '../renderer/renderer-health.js';
import {
  describeElement,
  describeKey,
  describeLocated,
  elementForKey,
  markSecret,
  snapshotDocument,
} from '../snapshot/page-snapshot.js';
import { keyFailure, keyLocator } from '../targets/key-selector.js';
import {
  directLocator,
  isHandle,
  type KeyResolver,
  locatorFailure,
  NOW_MS,
  type Resolved,
  refAlone,
  resolveTarget,
} from '../targets/target-resolution.js';
import { imageSize } from './image-size.js';
import { readHtml, readTestIds, readTextContents } from './page-markup.js';
import { navigatePage, pageHistory, waitForLoad } from './page-navigation.js';
import { startPageScreencast, watchPageRepaints } from './page-screencast.js';

/** Everything the gateway does inside one renderer page, whatever transport reached the page. */
export class PageDriver implements WindowDriver {
  readonly page: Page;
  /** Every call below goes through it: a crashed renderer fails at once, a stopped one within bounds. */
  readonly #health: RendererHealth;
  readonly #requests: RequestActivity;
  /** Whether the page's context knows the key selector engine; false once it said it does not. */
  #keyEngine = true;

  constructor(page: Page) {
    this.page = page;
    this.#health = healthOf(page);
    this.#requests = new RequestActivity(page);
  }

  snapshot(request: SnapshotRequest): Promise<RawSnapshot> {
    return this.#health.guard('snapshot', RENDERER_READ_MS, () => snapshotDocument(this.page, request));
  }

  locate(target: TargetQuery, timeoutMs: number): Promise<ResolvedNode> {
    return this.#health.guard(`finding ${describeSpec(target.spec)}`, timeoutMs, async (ms) => {
      // A ref's element is described by its key, in one round trip; its action finds it by its key again
      // (key-selector.ts). A ref the engine cannot describe goes through resolution, which says REF_STALE.
      const ref = refAlone(target);
      const describedByKey = ref
        ? await describeKey(this.page, ref.key, ref.documentId).catch(() => null)
        : null;
      if (describedByKey) return describedByKey;
      // A locator's element is only described, in the call that finds it: no action takes it (it resolves
      // its target afresh). One there right now needs nothing else; any other goes through resolution,
      // which waits for it or says why it cannot be had.
      const direct = directLocator(this.page, target);
      const describedNow = direct ? await describeLocated(direct) : null;
      if (describedNow) return describedNow;
      const resolved = await this.#resolve(target, ms);
      const describedByLocator = isHandle(resolved) ? null : await describeLocated(resolved);
      if (describedByLocator) return describedByLocator;
      const handle = isHandle(resolved) ? resolved : await resolved.elementHandle({ timeout: ms });
      if (!handle) throw staleTarget(target);
      try {
        return await describeElement(this.page, handle);
      } finally {
        void handle.dispose().catch(() => undefined);
      }
    });
  }

  act(
    target: TargetQuery,
    action: TargetedAction,
    timeoutMs: number,
    expected?: ExpectedElement,
  ): Promise<void> {
    const what = `${action.type} on ${describeSpec(target.spec)}`;
    const perform = (element: Resolved, act: Action, ms: number, on: string) =>
      expected
        ? performGuarded(this.page, element, act, ms, on, expected)
        : performAction(this.page, element, act, ms, on);
    return this.#health.guard(what, timeoutMs, async (ms) => {
      const resolvedAction: Action =
        action.type === 'dragTo' ? { type: 'dragTo', to: await this.#resolve(action.to, ms) } : action;
      const ref = refAlone(target);
      const byKey = ref && this.#keyEngine ? await keyLocator(this.page, ref.documentId, ref.key) : null;
      if (byKey) {
        try {
          await perform(byKey, resolvedAction, ms, describeSpec(target.spec));
          return;
        } catch (error) {
          const failure = keyFailure(error);
          if (failure === 'gone') throw staleTarget(target);
          if (failure === 'no-engine') this.#keyEngine = false;
          // An element in an iframe's document is acted on through a handle from its own frame.
          else if (failure !== 'elsewhere') throw error;
        }
      }
      // A locator acts on its element strictly and waits for it: counting it first (resolveTarget) would
      // be one round trip more, and what a failure means is asked once it failed.
      const direct = directLocator(this.page, target);
      if (direct) {
        await perform(direct, resolvedAction, ms, describeSpec(target.spec)).catch(async (error: unknown) => {
          throw await locatorFailure(this.page, direct, target, error);
        });
        return;
      }
      const element = await this.#resolve(target, ms);
      await perform(element, resolvedAction, ms, describeSpec(target.spec));
    });
  }

  press(key: string, timeoutMs: number): Promise<void> {
    // A key Playwright does not know ("", "Hyper") is the caller's to correct: actionError says BAD_INPUT.
    return this.#health.guard(`press ${key}`, timeoutMs, () =>
      this.page.keyboard.press(key).catch((error: unknown) => {
        throw actionError(error, `press ${JSON.stringify(key)}`, 'the focused element', timeoutMs);
      }),
    );
  }

  scrollBy(target: TargetQuery | undefined, dx: number, dy: number, timeoutMs: number): Promise<void> {
    return this.#health.guard('scroll', timeoutMs, async (ms) => {
      if (!target) {
        await this.page.evaluate(([x, y]) => window.scrollBy(x, y), [dx, dy] as const);
        return;
      }
      const element = await this.#resolve(target, ms);
      const scroll = (node: Element, [x, y]: readonly [number, number]) => node.scrollBy(x, y);
      await (isHandle(element)
        ? element.evaluate(scroll, [dx, dy] as const)
        : element.evaluate(scroll, [dx, dy] as const));
    });
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
      ...(target ? { find: () => this.#findNow(target), target } : {}),
    };
    return this.#health.guard(`expect ${kind}`, timeoutMs, (ms) =>
      waitForExpectation(this.page, expectation, ms),
    );
  }

  screenshot(options: ScreenshotOptions, timeoutMs: number): Promise<Screenshot> {
    return this.#health.guard('screenshot', timeoutMs, async (ms) => {
      const shot = {
        type: options.format,
        timeout: ms,
        ...(options.format === 'jpeg' ? { quality: options.quality ?? 80 } : {}),
      };
      const bytes = options.target
        ? await (await this.#resolve(options.target, ms)).screenshot(shot)
        : await this.page.screenshot({ ...shot, fullPage: options.fullPage ?? false });
      return { bytes, format: options.format, ...imageSize(bytes) };
    });
  }

  startScreencast(
    options: ScreencastOptions,
    onFrame: (frame: ScreencastImage) => void,
  ): Promise<ScreencastHandle> {
    const starting = startPageScreencast(this.page, options, onFrame);
    return this.#health
      .guard('starting a screencast', RENDERER_READ_MS, () => starting)
      .catch((error) => {
        // The guard gave up on a renderer that may still answer: a screencast that starts late must not run on.
        starting.then((late) => late.stop()).catch(() => undefined);
        throw error;
      });
  }

  watchRepaints(onRepaint: () => void): Promise<ScreencastHandle | null> {
    const starting = watchPageRepaints(this.page, onRepaint);
    return this.#health
      .guard('watching for repaints', RENDERER_READ_MS, () => starting)
      .catch((error) => {
        starting.then((late) => late?.stop()).catch(() => undefined);
        throw error;
      });
  }

  markSecret(key: number): Promise<void> {
    return this.#health.guard('marking a secret', RENDERER_READ_MS, () => markSecret(this.page, key));
  }

  /** -1 when the page cannot tell (crashed, not answering, navigated away): a change for every waiter. */
  nextChange(after: number | null, timeoutMs: number): Promise<number> {
    const read = (ms: number) => (after === null ? changeCount(this.page) : nextChange(this.page, after, ms));
    return this.#health.guard('waiting for a change', after === null ? 0 : timeoutMs, read).catch(() => -1);
  }

  watchRequests(): Promise<RequestWatch> {
    return this.#requests.watch();
  }

  navigate(target: NavigationTarget, waitUntil: LoadState, timeoutMs: number): Promise<NavigationResult> {
    return this.#health.guard(`navigate ${target.kind}`, timeoutMs, (ms) =>
      navigatePage(this.page, target, waitUntil, ms),
    );
  }

  waitForLoad(state: LoadState, timeoutMs: number): Promise<boolean> {
    return this.#health.guard(`waiting for ${state}`, timeoutMs, (ms) => waitForLoad(this.page, state, ms));
  }

  history(): Promise<NavigationHistory | null> {
    return this.#health.guard('reading history', RENDERER_READ_MS, () => pageHistory(this.page));
  }

  html(
    target: TargetQuery | undefined,
    outer: boolean,
    maxChars: number,
    timeoutMs: number,
  ): Promise<HtmlRead> {
    return this.#health.guard('reading html', timeoutMs, async (ms) =>
      readHtml(this.page, target && (await this.#resolve(target, ms)), outer, maxChars, ms),
    );
  }

  textContents(documentId: string, keys: readonly number[], maxChars: number): Promise<(string | null)[]> {
    return this.#health.guard('reading text', RENDERER_READ_MS, () =>
      readTextContents(this.page, documentId, keys, maxChars),
    );
  }

  testIds(limit: number): Promise<string[]> {
    return this.#health.guard('reading test ids', RENDERER_READ_MS, () => readTestIds(this.page, limit));
  }

  countMatches(targets: readonly TargetQuery[]): Promise<number[]> {
    return this.#health.guard('counting matches', RENDERER_READ_MS, () =>
      Promise.all(targets.map(async (target) => (await this.#findNow(target)).count)),
    );
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
