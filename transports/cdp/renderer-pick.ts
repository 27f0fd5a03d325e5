import type { RendererFilter } from '../contract/transport-contract.js';
import type { WindowInfo } from '../contract/transport-events.js';

/**
 * Where an app's own renderer usually lives, best first: a custom app:// scheme, a packaged file://
 * page, then a dev server on localhost. Anything else (a remote page it shows, about:blank) comes last.
 */
const PREFERENCE: readonly RegExp[] = [
  /^app:\/\//,
  /^file:\/\//,
  /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/,
  /^https?:\/\//,
];

function rank(url: string): number {
  const index = PREFERENCE.findIndex((pattern) => pattern.test(url));
  return index === -1 ? PREFERENCE.length : index;
}

/**
 * The window a session starts on: among those matching the filter (titles and urls matched exactly as
 * written, as switchWindow does), the one whose url ranks best, the first opened on a tie.
 */
export function pickRenderer<W extends WindowInfo>(
  windows: readonly W[],
  filter: RendererFilter,
): W | undefined {
  const matching = windows.filter(
    (window) =>
      (filter.titleContains === undefined || window.title.includes(filter.titleContains)) &&
      (filter.urlIncludes === undefined || window.url.includes(filter.urlIncludes)),
  );
  let best: W | undefined;
  for (const window of matching) if (!best || rank(window.url) < rank(best.url)) best = window;
  return best;
}
