// Starting the table app (bench/table-app.ts) for a bench, through the gateway or directly with Playwright,
// one size after another, and the reference's event-driven wait for its status text.
import type { Client } from 'graphql-ws';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { STAND_IN } from '../test/helpers/fixture-app.js';
import { type RunningGateway, startGateway, wsClient } from '../test/helpers/gateway.js';
import { gql, LAUNCH, STOP, WAIT_FOR_PAGE } from './snapshot-client.js';
import { STATUS_SELECTOR, statusText, writeTableApp } from './table-app.js';

/** How many 30 s waits a launch gets for its page: a 5,000-row page on a loaded machine takes long. */
const LAUNCH_TRIES = 10;

/** Launches the app on the stand-in through the gateway; resolves with the session id once its page shows. */
export async function launchTableAppThroughGateway(client: Client, main: string): Promise<string> {
  const { data } = await gql<{ launch: { id: string } }>(client, LAUNCH, {
    input: { main, executablePath: STAND_IN },
  });
  const s = data.launch.id;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await gql(client, WAIT_FOR_PAGE, { s });
      return s;
    } catch (error) {
      if (attempt >= LAUNCH_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** The reference: the same app launched with Playwright's `_electron.launch`, its table page loaded. */
export async function launchTableAppDirectly(
  main: string,
): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await _electron.launch({ executablePath: STAND_IN, args: [main] });
  try {
    const page = await app.firstWindow();
    await page.waitForURL((url) => url.href.endsWith('/table.html'), {
      waitUntil: 'load',
      timeout: 30_000 * LAUNCH_TRIES,
    });
    return { app, page };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/**
 * The least an event-driven wait costs: a MutationObserver in the page resolving a Playwright evaluate once
 * the status shows its `n`-th update. Resolves with Date.now() when the answer arrived.
 */
export function statusShownInPage(page: Page, n: number): Promise<number> {
  return page
    .evaluate(
      ({ selector, text }) =>
        new Promise<void>((resolve) => {
          const element = document.querySelector(selector);
          if (!element) throw new Error(`no ${selector}`);
          const observer = new MutationObserver(() => {
            if (element.textContent !== text) return;
            observer.disconnect();
            resolve();
          });
          observer.observe(element, { subtree: true, childList: true, characterData: true });
        }),
      { selector: STATUS_SELECTOR, text: statusText(n) },
    )
    .then(() => Date.now());
}

/** One size's app launched through the gateway: its session, and the app's main script. */
export interface GatewaySide<Size extends number> {
  readonly rows: Size;
  readonly gateway: RunningGateway;
  readonly client: Client;
  readonly session: string;
  readonly main: string;
}

/** One size's two sides: the app launched through the gateway (its session) and directly (the reference). */
export interface TableSides<Size extends number> extends GatewaySide<Size> {
  readonly reference: Page;
}

/**
 * Runs `measure` on each size's app launched through the gateway, on one gateway and graphql-ws client,
 * stopping the session after each size. A size that fails (say, a launch timing out on a swamped machine) is
 * reported in `failures`, not fatal.
 */
export async function measureTableSizesThroughGateway<Size extends number, Result>(
  sizes: readonly Size[],
  measure: (side: GatewaySide<Size>) => Promise<Result>,
): Promise<{ results: Result[]; failures: string[] }> {
  const results: Result[] = [];
  const failures: string[] = [];
  const gateway = await startGateway();
  const client = wsClient(gateway.wsUrl);
  try {
    for (const rows of sizes) {
      const app = await writeTableApp(rows);
      let session: string | undefined;
      try {
        console.error(`[${rows} rows] launching`);
        session = await launchTableAppThroughGateway(client, app.main);
        results.push(await measure({ rows, gateway, client, session, main: app.main }));
      } catch (error) {
        failures.push(`${rows.toLocaleString('en')} rows: not recorded — ${String(error).split('\n')[0]}`);
        console.error(error);
      } finally {
        if (session) await gql(client, STOP, { id: session }).catch(() => undefined);
        await app.remove();
      }
    }
  } finally {
    await client.dispose();
    await gateway.stop();
  }
  return { results, failures };
}

/** The same, with the app also launched directly as the reference, and closed after each size. */
export function measureTableSizes<Size extends number, Result>(
  sizes: readonly Size[],
  measure: (sides: TableSides<Size>) => Promise<Result>,
): Promise<{ results: Result[]; failures: string[] }> {
  return measureTableSizesThroughGateway(sizes, async (side) => {
    const launched = await launchTableAppDirectly(side.main);
    try {
      console.error(`[${side.rows} rows] measuring`);
      return await measure({ ...side, reference: launched.page });
    } finally {
      await launched.app.close().catch(() => undefined);
    }
  });
}
