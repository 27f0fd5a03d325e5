import { errors, type Page } from 'playwright-core';
import { causeChain } from '../../errors/cause-chain.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { TransportError } from '../contract/transport-error.js';
import { withDeadline } from '../protocol/deadline.js';

/**
 * How long a renderer has to answer a trivial evaluation before it counts as not answering, and how far
 * past its own timeout an operation may run before nobody waits on it any more. Generous: a loaded
 * machine's renderer can be seconds late, and only a stopped, paused or hung one is this late.
 */
export const RENDERER_PROBE_MS = 5_000;
/** Reads that take no timeout of their own (a snapshot, a secret mark) give up after this. */
export const RENDERER_READ_MS = 30_000;

/** Playwright's words for a page whose renderer process has gone. */
const CRASHED = /Target crashed|Page crashed/i;

/** Pages whose renderer has crashed, noted from the moment a transport tracks the page. */
const crashedPages = new WeakSet<Page>();
const watchedPages = new WeakSet<Page>();

/**
 * Notes the page's crash from now on. Transports call it as they track a window (relayRendererEvents), so
 * a crash is known even when the window's driver is first made afterwards: Playwright replays no event.
 */
export function watchRenderer(page: Page): void {
  if (watchedPages.has(page)) return;
  watchedPages.add(page);
  page.once('crash', () => crashedPages.add(page));
}

/**
 * One page's renderer as the page engine sees it: crashed (an event, after which every call fails with
 * RENDERER_CRASHED at once) or not answering (a stopped or hung process, which Playwright would wait on
 * forever: calls are bounded, and a timeout says the renderer is the reason).
 */
export class RendererHealth {
  readonly #page: Page;
  readonly #crash: Promise<never>;

  constructor(page: Page) {
    this.#page = page;
    watchRenderer(page);
    this.#crash = new Promise<never>((_, reject) => {
      page.once('crash', () => reject(rendererCrashed()));
    });
    // Nobody may be waiting when the renderer crashes; the next call reads the flag instead.
    this.#crash.catch(() => undefined);
  }

  /**
   * Runs one operation of the page engine. It fails at once when the renderer has crashed or crashes
   * meanwhile. Past `boundMs` (and the probe's margin) the renderer is asked whether it answers at all:
   * a stopped or hung one fails the operation as not answering, a merely slow one is waited for. A
   * timeout the operation reports itself is checked the same way, so a stopped renderer is named as the
   * cause rather than a missing element.
   */
  async guard<T>(what: string, boundMs: number, work: () => Promise<T>): Promise<T> {
    if (this.#crashed) throw rendererCrashed();
    const running = Promise.race([work(), this.#crash]);
    const bound = boundMs + RENDERER_PROBE_MS;
    for (;;) {
      try {
        return await withDeadline(running, bound, () => new PastBound());
      } catch (error) {
        if (!(error instanceof PastBound)) throw await this.#explain(error, what);
        const answer = await this.#answers();
        if (answer === 'crashed') throw rendererCrashed();
        if (answer === 'no') throw notAnswering(what, RENDERER_PROBE_MS);
      }
    }
  }

  async #explain(error: unknown, what: string): Promise<unknown> {
    if (this.#crashed || isCrash(error)) return rendererCrashed(error);
    if (!isTimeout(error)) return error;
    const answer = await this.#answers();
    if (answer === 'crashed') return rendererCrashed(error);
    if (answer === 'no') return notAnswering(what, RENDERER_PROBE_MS, error);
    // A Playwright timeout outside an action's own error mapping (an element handle taken on a loaded machine).
    if (error instanceof StagegraphError) return error;
    return new StagegraphError('ACTION_TIMEOUT', `${what} did not complete within its timeout.`, {
      cause: error,
    });
  }

  get #crashed(): boolean {
    return crashedPages.has(this.#page);
  }

  /** Whether the renderer evaluates a constant within the probe's bound; a crash shows here too. */
  async #answers(): Promise<'yes' | 'no' | 'crashed'> {
    try {
      await withDeadline(
        this.#page.evaluate(() => true),
        RENDERER_PROBE_MS,
        () => new PastBound(),
      );
      return 'yes';
    } catch (error) {
      if (this.#crashed || isCrash(error)) return 'crashed';
      return 'no';
    }
  }
}

/** The operation has run past its bound; whether to keep waiting depends on the renderer. */
class PastBound extends Error {}

/** Failures a stopped renderer shows up as: the element never appeared, or the operation ran out of time. */
function isTimeout(error: unknown): boolean {
  if (error instanceof errors.TimeoutError) return true;
  return (
    error instanceof StagegraphError &&
    ['SELECTOR_NO_MATCH', 'ACTION_TIMEOUT', 'EXPECTATION_FAILED', 'CDP_TIMEOUT'].includes(error.code)
  );
}

function isCrash(error: unknown): boolean {
  return causeChain(error).some((cause) => CRASHED.test(cause.message));
}

function rendererCrashed(cause?: unknown): TransportError {
  return new TransportError('crashed', "This window's renderer process has crashed.", {
    ...(cause === undefined ? {} : { cause }),
  });
}

function notAnswering(what: string, ms: number, cause?: unknown): StagegraphError {
  return new StagegraphError(
    'ACTION_TIMEOUT',
    `${what} did not complete: the window's renderer did not answer within ${ms} ms (it is busy, paused in a debugger, or stopped).`,
    { details: { rendererAnswering: false }, ...(cause === undefined ? {} : { cause }) },
  );
}
