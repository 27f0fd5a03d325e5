/** What a trace records besides the actions themselves. */
export interface TracingOptions {
  /** A screenshot strip for the timeline. */
  readonly screenshots: boolean;
  /** A DOM snapshot before and after each action, browsable in the trace viewer. */
  readonly snapshots: boolean;
  /** Shown as the trace's title in the viewer. */
  readonly title?: string;
}

/**
 * Playwright tracing of a session's pages: the actions the gateway performs through Playwright, their
 * snapshots, console and network, as a zip `playwright show-trace` opens. Optional: only a transport that
 * drives its pages through a Playwright BrowserContext has it.
 */
export interface TracingControl {
  start(options: TracingOptions): Promise<void>;
  /** Ends the trace and writes its zip to `path` (on the gateway's machine). */
  stop(path: string): Promise<void>;
}
