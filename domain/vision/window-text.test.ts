import { describe, expect, it, vi } from 'vitest';
import type { ScreencastHandle } from '../../transports/contract/screencast-contract.js';
import type { RawSnapshot, WindowDriver } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { ocrCacheOf } from './ocr-cache.js';
import { windowReadsOf } from './unchanged-window.js';
import { readWindowText } from './window-text.js';

const LAYOUT: RawSnapshot = { documentId: 'd1', nodes: [] } as unknown as RawSnapshot;

/** A session whose window w1 was read before (image "a") and has neither repainted nor been acted on since. */
async function sessionReadBefore(layout: RawSnapshot | null) {
  const session = {
    hasWindow: () => true,
    snapshots: { actions: { mark: 0 } },
    runLog: { stagegraph: () => undefined },
  } as unknown as Session;
  const driver = {
    watchRepaints: async (): Promise<ScreencastHandle> => ({ stop: async () => undefined }),
    screenshot: vi.fn(async () => {
      throw new Error('an unchanged window is not captured again');
    }),
  } as unknown as WindowDriver;
  const reads = windowReadsOf(session);
  const watch = await reads.watch('w1', driver);
  if (!watch) throw new Error('the driver tells repaints');
  reads.note('w1', { sha256: 'a', watch, repaints: watch.repaints, actions: 0, layout });
  await ocrCacheOf(session).get('a', async () => ({ words: [], lines: [], truncated: false }));
  return { session, driver };
}

describe('readWindowText on a window unchanged since its last read', () => {
  it('answers the layout read with it, asking the window for none', async () => {
    const { session, driver } = await sessionReadBefore(LAYOUT);
    const readLayout = vi.fn(async () => LAYOUT);
    const text = await readWindowText(session, 'w1', driver, 1_000, readLayout);
    expect(text).toMatchObject({ cached: true, sha256: 'a', layout: LAYOUT });
    expect(readLayout).not.toHaveBeenCalled();
    expect(driver.screenshot).not.toHaveBeenCalled();
  });

  it('reads the layout once where the last read kept none', async () => {
    const { session, driver } = await sessionReadBefore(null);
    const readLayout = vi.fn(async () => LAYOUT);
    const text = await readWindowText(session, 'w1', driver, 1_000, readLayout);
    expect(text.layout).toBe(LAYOUT);
    expect(readLayout).toHaveBeenCalledTimes(1);
  });
});
