import type { Page } from 'playwright-core';
import { TransportError } from '../../contract/transport-error.js';
import { withDeadline } from '../../protocol/deadline.js';
import {
  livenessOf,
  RENDERER_ANSWER_MARGIN_MS,
  rendererNotResponding,
} from '../renderer/renderer-liveness.js';

/** Past its deadline, a call that spans a context's pages (the clock, cookies) names a silent one. */
class PastDeadline extends Error {}

/**
 * A call on a whole browser context — the fake clock evaluates in every page, cookies ask the browser —
 * answered within `boundMs` whatever its pages do: past it, RENDERER_NOT_RESPONDING when one of the pages
 * has left a trivial question unanswered for RENDERER_ANSWER_MARGIN_MS, else CDP_TIMEOUT.
 */
export async function withinContextDeadline<T>(
  what: string,
  pages: readonly Page[],
  boundMs: number,
  work: Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(work, boundMs, () => new PastDeadline());
  } catch (error) {
    if (!(error instanceof PastDeadline)) throw error;
    const verdicts = await Promise.all(
      pages.map(async (page) => ({
        page,
        verdict: await livenessOf(page).verdict(RENDERER_ANSWER_MARGIN_MS),
      })),
    );
    const silent = verdicts.find(({ verdict }) => verdict === 'silent');
    if (silent) throw rendererNotResponding(what, livenessOf(silent.page));
    throw new TransportError('timeout', `${what} got no answer within ${boundMs} ms.`);
  }
}
