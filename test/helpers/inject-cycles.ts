import { expect } from 'vitest';
import { ClickDocument, FillDocument, SessionWindowsDocument } from '../generated/graphql.js';
import type { GatewayClient } from './gateway-client.js';

/** What one cycle used between its inject and its detach. */
export type HeavyUse = 'snapshot' | 'fill' | 'click' | 'menu';
export const HEAVY_USES: readonly HeavyUse[] = ['snapshot', 'fill', 'click', 'menu'];

/**
 * One inject → heavy use → detach cycle on the fixture app at `pid` (the session upgraded, so the
 * window debuggers and the relay carry the work): every use in `uses` runs on the main window and must
 * succeed, then detach must answer DETACHED. Each step waits for its own answer, never for a time.
 */
export async function injectUseDetach(
  api: GatewayClient,
  pid: number,
  uses: readonly HeavyUse[] = HEAVY_USES,
): Promise<void> {
  const { inject } = await api.data(`mutation { inject(input: { pid: ${pid} }) { id status } }`);
  expect(inject.status).toBe('RUNNING');
  const session = inject.id as string;
  const window = await mainWindow(api, session);
  for (const use of uses) {
    if (use === 'snapshot') {
      const read = await api.data(
        `{ session(id: "${session}") { window(id: "${window}") { snapshot { totalNodes } } } }`,
      );
      expect(read.session.window.snapshot.totalNodes).toBeGreaterThan(0);
    } else if (use === 'fill') {
      await api.data(FillDocument, {
        session,
        window,
        target: { testId: 'name' },
        value: `cycle ${session}`,
      });
    } else if (use === 'click') {
      await api.data(ClickDocument, { session, window, target: { testId: 'log' } });
    } else {
      const menu = await api.data(`{ session(id: "${session}") { applicationMenu { label } } }`);
      expect(menu.session.applicationMenu.length).toBeGreaterThan(0);
    }
  }
  const { detach } = await api.data(`mutation { detach(id: "${session}") { status } }`);
  expect(detach.status).toBe('DETACHED');
}

/** A cycle's share of the uses: all of them, or a rotating half of them when `rotate` is set. */
export function usesOfCycle(cycle: number, rotate: boolean): readonly HeavyUse[] {
  if (!rotate) return HEAVY_USES;
  return [HEAVY_USES[cycle % 4], HEAVY_USES[(cycle + 1) % 4]] as HeavyUse[];
}

/** The fixture app's main window, once the injected session has announced it. */
async function mainWindow(api: GatewayClient, session: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const read = await api.data(SessionWindowsDocument, { id: session });
        found = read.session?.windows.find((window) => window.title === 'Stagegraph Fixture')?.id;
        return found;
      },
      { timeout: 30_000 },
    )
    .toBeDefined();
  return found as string;
}
