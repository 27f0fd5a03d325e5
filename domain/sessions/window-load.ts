import type { Session } from './session.js';

/**
 * How long a new session's windows may take to parse their documents before it is handed over anyway:
 * long enough for a page served slowly on a loaded machine, bounded so a page that never finishes (a
 * stalled stylesheet, a server that hangs) cannot hold a launch or an attach forever.
 */
export const WINDOW_LOAD_WAIT_MS = 15_000;

/**
 * Waits until every open window of a new session shows a parsed document (DOMContentLoaded), so the
 * first snapshot an agent takes reads the page, not the empty document before it (an attach to an app
 * still loading, a launched command whose page is slow). A window that does not get there in time is
 * left as it is and named in the session's run log; the session is returned either way.
 */
export async function awaitWindowsLoaded(
  session: Session,
  timeoutMs = WINDOW_LOAD_WAIT_MS,
): Promise<string[]> {
  if (!session.isLive || !session.capabilities.SNAPSHOT) return [];
  const windows = await session.windows();
  const late = await Promise.all(
    windows.map(async ({ id }) => {
      try {
        const { driver } = await session.window(id);
        return (await driver.waitForLoad('DOMCONTENTLOADED', timeoutMs)) ? null : id;
      } catch {
        // A window closing or not yet drivable is not a document still loading: nothing to wait for.
        return null;
      }
    }),
  );
  const stillLoading = late.filter((id): id is string => id !== null);
  for (const id of stillLoading)
    session.runLog.stagegraph(
      `window ${id} had not parsed its document after ${timeoutMs} ms; handed over as it was`,
    );
  return stillLoading;
}
