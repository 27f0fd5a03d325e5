import type { OwnPages } from '../governance/own-pages/own-pages.js';

/** What a session may touch on this machine, as the server is configured. */
export interface SessionFiles {
  /** Where it keeps its artifacts and run log. */
  readonly artifactsDir: string;
  /** Where files it uploads into pages may come from. */
  readonly uploadRoots: readonly string[];
  /** The gateway's own pages, which it never reads or acts on; none when absent. */
  readonly ownPages?: OwnPages | undefined;
}
