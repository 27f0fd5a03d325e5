import type { Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';

/**
 * How long a renderer may take to answer a trivial evaluation before the operation waiting on it is told
 * that it does not answer, and so how far past its own deadline an operation can answer. A live renderer
 * answers in milliseconds, a loaded machine's within a few hundred; one that takes longer while the
 * operation has also run out of time is busy, paused in a debugger or stopped, and is named as such.
 */
export const RENDERER_ANSWER_MARGIN_MS = 500;
/**
 * A wait still running this long after it began has the renderer asked, beside it, whether it answers at
 * all; most calls are done sooner and cost no question.
 */
export const RENDERER_ASK_AFTER_MS = 100;

/** Playwright's words for a page whose renderer process has gone. */
export const CRASHED = /Target crashed|Page crashed/i;

/** What asking the renderer found. */
export type Verdict = 'answering' | 'silent' | 'crashed';

interface Question {
  readonly sentAt: number;
  readonly answer: Promise<'answered' | 'crashed'>;
}

/**
 * Whether one page's renderer answers at all, shared by everything that waits on the page (its driver's
 * operations, its title): one question at a time, so a stopped renderer is asked once however many
 * wait on it, and a renderer known silent since before an operation began is not given that operation's
 * whole timeout again.
 */
export class RendererLiveness {
  readonly #page: Page;
  #question: Question | null = null;
  /** When the renderer last answered anything: a question, or an operation that completed. */
  #answeredAt = Number.NEGATIVE_INFINITY;
  /** How many answers it has given, to tell an answer that came during a wait. */
  #answers = 0;

  constructor(page: Page) {
    this.#page = page;
  }

  /** Asks the renderer to evaluate a constant, unless a question is already out; settles with its answer. */
  ask(): Promise<'answered' | 'crashed'> {
    if (this.#question) return this.#question.answer;
    const answer = this.#page
      .evaluate(() => true)
      .then(
        () => 'answered' as const,
        // A closed page or a navigation answers too (the operation itself says what became of the page).
        (error: unknown) => (CRASHED.test(String(error)) ? ('crashed' as const) : ('answered' as const)),
      );
    const question: Question = { sentAt: Date.now(), answer };
    this.#question = question;
    void answer.then(() => {
      if (this.#question === question) this.#question = null;
      this.noteAnswer();
    });
    return answer;
  }

  /** An operation on the page completed: the renderer answers. */
  noteAnswer(): void {
    this.#answeredAt = Date.now();
    this.#answers += 1;
  }

  /** How many answers the renderer has given so far: a mark to tell later answers by. */
  get answers(): number {
    return this.#answers;
  }

  /** Whether the renderer has answered anything since `answers` was read and has no question out now. */
  answeredSince(answers: number): boolean {
    return this.#question === null && this.#answers > answers;
  }

  /** Whether it has answered nothing since `answers` was read and has a question out now. */
  silentSinceMark(answers: number): boolean {
    return this.#question !== null && this.#answers === answers;
  }

  /** Since when the renderer has left a question unanswered (null while none is out). */
  silentSince(): number | null {
    return this.#question ? Math.max(this.#question.sentAt, this.#answeredAt) : null;
  }

  /**
   * Whether the renderer answers: asked now unless a question is out, 'silent' once it has left one
   * unanswered for `patienceMs` (at once when it already has), 'answering' as soon as it answers.
   */
  async verdict(patienceMs: number): Promise<Verdict> {
    const answersBefore = this.#answers;
    for (;;) {
      const answer = this.ask();
      const since = this.silentSince() ?? Date.now();
      const left = since + patienceMs - Date.now();
      if (left <= 0) return 'silent';
      const answered = await within(answer, left);
      if (answered === 'crashed') return 'crashed';
      if (answered === 'answered' || this.#answers > answersBefore) return 'answering';
    }
  }
}

const livenesses = new WeakMap<Page, RendererLiveness>();

/** The one liveness of a page's renderer. */
export function livenessOf(page: Page): RendererLiveness {
  let liveness = livenesses.get(page);
  if (!liveness) {
    liveness = new RendererLiveness(page);
    livenesses.set(page, liveness);
  }
  return liveness;
}

/** `what` failed because the renderer has left a question unanswered: for how long is in the details. */
export function rendererNotResponding(
  what: string,
  liveness: RendererLiveness,
  cause?: unknown,
): StagegraphError {
  const since = liveness.silentSince();
  const silentMs = since === null ? RENDERER_ANSWER_MARGIN_MS : Date.now() - since;
  return new StagegraphError(
    'RENDERER_NOT_RESPONDING',
    `${what} did not complete: the window's renderer has not answered for ${silentMs} ms (it is busy, paused in a debugger, or stopped).`,
    { details: { silentMs }, ...(cause === undefined ? {} : { cause }) },
  );
}

/** The promise's value when it settles within `ms`, else undefined; its timer never outlives the wait. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
