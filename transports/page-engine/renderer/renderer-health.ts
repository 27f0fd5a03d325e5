import { errors, type Page } from 'playwright-core';
import { causeChain } from '../../../errors/cause-chain.js';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { TransportError } from '../../contract/transport-error.js';
import {
  CRASHED,
  livenessOf,
  RENDERER_ANSWER_MARGIN_MS,
  RENDERER_ASK_AFTER_MS,
  type RendererLiveness,
  rendererNotResponding,
  within,
} from './renderer-liveness.js';

/** Reads that take no timeout of their own (a snapshot, a secret mark) give up after this. */
export const RENDERER_READ_MS = 30_000;
/**
 * The least time a call has on a renderer that answers, whatever its bound: a bound of 0 or 1 ms means
 * "read it now, do not wait for an element to appear", and a loaded machine's renderer may take a second
 * to read even so. A stopped renderer's call is answered on its own bound (RENDERER_NOT_RESPONDING).
 */
export const RENDERER_SLOW_CALL_MS = 2_000;

/** Playwright's words for a page, context or browser that closed under the call (its TargetClosedError). */
const CLOSED = /Target page, context or browser has been closed|Target closed|Browser has been closed/;

/** Pages whose renderer has crashed, noted from the moment a transport tracks the page. */
const crashedPages = new WeakSet<Page>();
const watchedPages = new WeakSet<Page>();
const healths = new WeakMap<Page, RendererHealth>();

/**
 * Notes the page's crash from now on. Transports call it as they track a window (relayRendererEvents), so
 * a crash is known even when the window's driver is first made afterwards: Playwright replays no event.
 */
export function watchRenderer(page: Page): void {
  if (watchedPages.has(page)) return;
  watchedPages.add(page);
  page.once('crash', () => crashedPages.add(page));
}

/** The one health of a page's renderer, for every part of the engine that waits on the page. */
export function healthOf(page: Page): RendererHealth {
  let health = healths.get(page);
  if (!health) {
    health = new RendererHealth(page);
    healths.set(page, health);
  }
  return health;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * One page's renderer as the page engine sees it: crashed (an event, after which every call fails with
 * RENDERER_CRASHED at once) or not answering (a stopped, paused or hung process, which Playwright would
 * wait on forever). Every call answers by its own deadline plus RENDERER_ANSWER_MARGIN_MS (at least
 * RENDERER_SLOW_CALL_MS while the renderer answers), whatever the renderer or the CDP connection does.
 */
export class RendererHealth {
  readonly #page: Page;
  readonly #liveness: RendererLiveness;
  /**
   * How each call in flight is failed when the renderer crashes, held only while it runs. A call raced
   * against one promise of the page's crash instead left its reaction on that promise, which stays pending
   * as long as the renderer lives: every answered call's result stayed reachable from the page (some 2,300
   * calls' in a 10,000-request fuzz run, issue 31). So this set holds the calls in flight, no more.
   */
  readonly #inFlight = new Set<(error: unknown) => void>();

  constructor(page: Page) {
    this.#page = page;
    this.#liveness = livenessOf(page);
    watchRenderer(page);
    // Nobody may be waiting when the renderer crashes; the next call reads the flag instead.
    page.once('crash', () => {
      for (const fail of this.#inFlight) fail(rendererCrashed());
      this.#inFlight.clear();
    });
  }

  /**
   * Runs one operation of the page engine within `boundMs`, handing `work` the time it has (to set its own
   * timeouts to). It fails at once when the renderer has crashed or crashes meanwhile. While it runs the
   * renderer is asked, in parallel, whether it answers. Once the time is over, the operation has the
   * margin to report its own timeout (an action's says whether its input reached the page); failing that,
   * a renderer that left the question unanswered fails it with RENDERER_NOT_RESPONDING, a live one with
   * ACTION_TIMEOUT. A timeout the operation reports itself is checked the same way, so a stopped renderer
   * is named as the cause rather than a missing element. A call that completes in time is never failed.
   */
  async guard<T>(what: string, boundMs: number, work: (timeoutMs: number) => Promise<T>): Promise<T> {
    if (this.#crashed) throw rendererCrashed();
    const started = Date.now();
    const silentSince = this.#liveness.silentSince();
    const answersBefore = this.#liveness.answers;
    // A renderer silent since before the call (the governed preview of the same click, say) has had part
    // of the call's time already: the call gets the rest, at least the margin for one just continued. Its
    // own timeouts are set to it too, so an action given up on cannot still be performed afterwards.
    const timeoutMs =
      silentSince === null
        ? boundMs
        : Math.min(boundMs, Math.max(silentSince + boundMs - started, RENDERER_ANSWER_MARGIN_MS));
    let failOnCrash: (error: unknown) => void = () => undefined;
    const crash = new Promise<never>((_, reject) => {
      failOnCrash = reject;
    });
    this.#inFlight.add(failOnCrash);
    const outcome: Promise<Outcome<T>> = Promise.race([work(timeoutMs), crash]).then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    );
    const asking = setTimeout(() => void this.#liveness.ask(), RENDERER_ASK_AFTER_MS);
    try {
      // A call with a shorter time than RENDERER_ASK_AFTER_MS (a change count, bound 0) is not asked about
      // before then: a live renderer answers it sooner, and a question per call would double its trips.
      const end = started + Math.max(timeoutMs, RENDERER_ASK_AFTER_MS);
      // Silent since before the call and still: nothing the call sent can have been taken in (an action
      // is dispatched only once the page has answered its checks), so no time is left to its own report.
      const silentThroughout = () => silentSince !== null && this.#liveness.silentSinceMark(answersBefore);
      const ended = await this.#outcomeBy(what, outcome, { started, end, timeoutMs }, silentThroughout);
      if (ended.ok) {
        this.#liveness.noteAnswer();
        return ended.value;
      }
      throw await this.#explain(ended.error, what, answersBefore);
    } finally {
      clearTimeout(asking);
      this.#inFlight.delete(failOnCrash);
    }
  }

  /**
   * The operation's outcome by `end` and the margin; past them, the verdict on the renderer as an error.
   * A renderer that answers has a slow operation: it gets at least RENDERER_SLOW_CALL_MS.
   */
  async #outcomeBy<T>(
    what: string,
    outcome: Promise<Outcome<T>>,
    time: { readonly started: number; readonly end: number; readonly timeoutMs: number },
    silentThroughout: () => boolean,
  ): Promise<Outcome<T>> {
    const inTime = await within(outcome, time.end - Date.now());
    if (inTime) return inTime;
    if (silentThroughout()) throw this.#notResponding(what);
    const verdict = this.#liveness.verdict(RENDERER_ANSWER_MARGIN_MS);
    const late = await within(outcome, RENDERER_ANSWER_MARGIN_MS);
    if (late) return late;
    const answer = await verdict;
    if (answer === 'crashed') throw rendererCrashed();
    if (answer === 'silent') throw this.#notResponding(what);
    const slowEnd =
      time.started + Math.max(time.timeoutMs, RENDERER_SLOW_CALL_MS) + RENDERER_ANSWER_MARGIN_MS;
    const slow = slowEnd > Date.now() ? await within(outcome, slowEnd - Date.now()) : undefined;
    if (slow) return slow;
    throw new StagegraphError(
      'ACTION_TIMEOUT',
      `${what} did not complete within its timeout of ${time.timeoutMs} ms.`,
      { details: { rendererAnswering: true } },
    );
  }

  async #explain(error: unknown, what: string, answersBefore: number): Promise<unknown> {
    if (this.#crashed || isCrash(error)) return rendererCrashed(error);
    if (isClosed(error)) {
      return new TransportError('closed', `${what}: the window or its browser closed under the call.`, {
        cause: error,
      });
    }
    if (!isTimeout(error)) return error;
    // Answered during the call and nothing asked since: it is alive, and the timeout is the operation's own
    // (a loaded machine's renderer may take longer than the margin to answer a fresh question).
    const verdict = this.#liveness.answeredSince(answersBefore)
      ? 'answering'
      : await this.#liveness.verdict(RENDERER_ANSWER_MARGIN_MS);
    if (verdict === 'crashed') return rendererCrashed(error);
    if (verdict === 'silent') return this.#notResponding(what, error);
    // A Playwright timeout outside an action's own error mapping (an element handle taken on a loaded machine).
    if (error instanceof StagegraphError) return error;
    return new StagegraphError('ACTION_TIMEOUT', `${what} did not complete within its timeout.`, {
      cause: error,
    });
  }

  get #crashed(): boolean {
    return crashedPages.has(this.#page);
  }

  #notResponding(what: string, cause?: unknown): StagegraphError {
    return rendererNotResponding(what, this.#liveness, cause);
  }
}

/**
 * Failures a stopped renderer shows up as: the element never appeared or never became actionable, or the
 * operation ran out of time.
 */
const TIMEOUT_CODES: readonly string[] = [
  'SELECTOR_NO_MATCH',
  'ACTION_TIMEOUT',
  'EXPECTATION_FAILED',
  'CDP_TIMEOUT',
  'NAVIGATION_TIMEOUT',
  'ELEMENT_NOT_VISIBLE',
  'ELEMENT_DISABLED',
];

function isTimeout(error: unknown): boolean {
  if (error instanceof errors.TimeoutError) return true;
  return error instanceof StagegraphError && TIMEOUT_CODES.includes(error.code);
}

function isCrash(error: unknown): boolean {
  return causeChain(error).some((cause) => CRASHED.test(cause.message));
}

/** A raw Playwright failure of a closed page or browser; one already given a code keeps it. */
function isClosed(error: unknown): boolean {
  if (error instanceof StagegraphError || !(error instanceof Error)) return false;
  return error.name === 'TargetClosedError' || CLOSED.test(error.message);
}

function rendererCrashed(cause?: unknown): TransportError {
  return new TransportError('crashed', "This window's renderer process has crashed.", {
    ...(cause === undefined ? {} : { cause }),
  });
}
