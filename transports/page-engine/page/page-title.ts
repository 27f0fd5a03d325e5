import type { Page } from 'playwright-core';
import { livenessOf, RENDERER_ASK_AFTER_MS, within } from '../renderer/renderer-liveness.js';

/** How long a title read waits on a page that is slow to answer, before the last title known is used. */
export const TITLE_WAIT_MS = 5_000;
/**
 * How long a title read waits on a renderer that leaves a trivial question unanswered: a stopped one
 * must not hold every window listing, and every governed action's preview, for TITLE_WAIT_MS.
 */
export const TITLE_SILENCE_MS = 1_000;

/** The last title each page answered with: what a page that does not answer is described by. */
const lastTitles = new WeakMap<Page, string>();

/** The title a page last answered with, without asking it: '' before its first answer. */
export function lastKnownTitle(page: Page): string {
  return lastTitles.get(page) ?? '';
}

/**
 * A page's title, bounded: Playwright asks the renderer, and a stopped or hung renderer never answers,
 * which would stall every window listing and every action's window lookup behind it (the fault suite's
 * SIGSTOPped renderer). Past TITLE_WAIT_MS, once the renderer has been silent for TITLE_SILENCE_MS, or when
 * the page has closed, the last title it gave is used.
 */
export async function pageTitle(page: Page): Promise<string> {
  const known = lastTitles.get(page) ?? '';
  const reading = page.title().catch(() => known);
  const quick = await within(reading, RENDERER_ASK_AFTER_MS);
  if (quick !== undefined) {
    lastTitles.set(page, quick);
    return quick;
  }
  const silent = livenessOf(page)
    .verdict(TITLE_SILENCE_MS)
    .then((verdict) => (verdict === 'answering' ? reading : known));
  const title =
    (await within(Promise.race([reading, silent]), TITLE_WAIT_MS - RENDERER_ASK_AFTER_MS)) ?? known;
  lastTitles.set(page, title);
  return title;
}
