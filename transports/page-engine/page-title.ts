import type { Page } from 'playwright-core';
import { RENDERER_PROBE_MS } from './renderer-health.js';

/** The last title each page answered with: what a page that does not answer is described by. */
const lastTitles = new WeakMap<Page, string>();

/** The title a page last answered with, without asking it: '' before its first answer. */
export function lastKnownTitle(page: Page): string {
  return lastTitles.get(page) ?? '';
}

/**
 * A page's title, bounded: Playwright asks the renderer, and a stopped or hung renderer never answers,
 * which would stall every window listing and every action's window lookup behind it (the fault suite's
 * SIGSTOPped renderer). Past `waitMs`, or when the page has closed, the last title it gave is used.
 */
export async function pageTitle(page: Page, waitMs: number = RENDERER_PROBE_MS): Promise<string> {
  const known = lastTitles.get(page) ?? '';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(known), waitMs);
  });
  const title = await Promise.race([page.title().catch(() => known), late]).finally(() =>
    clearTimeout(timer),
  );
  lastTitles.set(page, title);
  return title;
}
