import type { BrowserContext } from 'playwright-core';
import type { TracingControl, TracingOptions } from '../../contract/tracing.js';

/** Playwright's own tracing of one BrowserContext: every window of a session is a page of it. */
export function contextTracing(context: BrowserContext): TracingControl {
  return {
    async start(options: TracingOptions) {
      await context.tracing.start({
        screenshots: options.screenshots,
        snapshots: options.snapshots,
        ...(options.title === undefined ? {} : { title: options.title }),
      });
    },
    stop: (path: string) => context.tracing.stop({ path }),
  };
}
