/** The longest budget a retried inject is offered: two minutes covers a main process busy starting up. */
const INJECT_RETRY_MAX_MS = 120_000;

/**
 * Next actions a transport offers in its errors, built from the values at hand (a port, a pid). Transports
 * cannot reach the domain's builders, so theirs live here; test/next-actions.test.ts validates each.
 */
export const transportActions = {
  /** What is listening for DevTools on these ports, and on which targets. */
  discover: (ports: readonly number[]) =>
    `query { discover(ports: [${ports.join(', ')}]) { port browser targets { type title url } } }`,
  /** The same inject with a longer budget: twice the one that ran out, at most INJECT_RETRY_MAX_MS. */
  injectAgain: (pid: number, timeoutMs: number) =>
    `mutation { inject(input: { pid: ${pid}, timeoutMs: ${Math.min(timeoutMs * 2, INJECT_RETRY_MAX_MS)} }) { id status } }`,
  /** The accessible apps of the current desktop, by name and pid, for attachDesktop. */
  desktopApps: () => 'query { desktopApps { name pid windowTitles } }',
};
