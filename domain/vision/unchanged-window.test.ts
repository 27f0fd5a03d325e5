import { describe, expect, it } from 'vitest';
import type { ScreencastHandle } from '../../transports/contract/screencast-contract.js';
import type { WindowDriver } from '../../transports/contract/window-driver.js';
import {
  type ReadMark,
  type RepaintWatch,
  repaintsAfterShot,
  unchangedSince,
  WATCHED_WINDOWS,
  WindowReads,
} from './unchanged-window.js';

/** A driver whose repaints the test makes, and whose watches it can see stopped. */
function paintingDriver() {
  const painters: (() => void)[] = [];
  let stopped = 0;
  const driver = {
    watchRepaints: async (onRepaint: () => void): Promise<ScreencastHandle> => {
      painters.push(onRepaint);
      return {
        stop: async () => {
          stopped += 1;
        },
      };
    },
  } as unknown as WindowDriver;
  return { driver, repaint: () => painters.at(-1)!(), stopped: () => stopped };
}

function markOf(watch: RepaintWatch, repaints: number | null, actions = 0): ReadMark {
  return { sha256: 'a', watch, repaints, actions, layout: null };
}

describe('repaintsAfterShot', () => {
  it("keeps the count only when the screenshot's own repaint is the one repaint during it", () => {
    expect(repaintsAfterShot(3, 4)).toBe(4);
    expect(repaintsAfterShot(3, 3)).toBeNull();
    expect(repaintsAfterShot(3, 5)).toBeNull();
  });
});

describe('unchangedSince', () => {
  const watch = { repaints: 4 };

  it('holds only with the same watch, no repaint and no action since the read', () => {
    expect(unchangedSince(markOf(watch, 4), watch, 0)).toBe(true);
    expect(unchangedSince(markOf(watch, 3), watch, 0)).toBe(false);
    expect(unchangedSince(markOf(watch, 4), watch, 1)).toBe(false);
    expect(unchangedSince(markOf({ repaints: 4 }, 4), watch, 0)).toBe(false);
  });

  it('never holds without a read, without a watch, or when the read could not tell its repaint', () => {
    expect(unchangedSince(undefined, watch, 0)).toBe(false);
    expect(unchangedSince(markOf(watch, 4), null, 0)).toBe(false);
    expect(unchangedSince(markOf(watch, null), watch, 0)).toBe(false);
  });
});

describe('WindowReads', () => {
  it('counts a window’s repaints on one watch, started once', async () => {
    const reads = new WindowReads();
    const { driver, repaint } = paintingDriver();
    const watch = await reads.watch('w1', driver);
    repaint();
    repaint();
    expect(await reads.watch('w1', driver)).toBe(watch);
    expect(watch?.repaints).toBe(2);
  });

  it('has no watch where the driver cannot tell repaints or failed to start watching', async () => {
    const reads = new WindowReads();
    expect(await reads.watch('desktop', {} as WindowDriver)).toBeNull();
    const failing = {
      watchRepaints: () => Promise.reject(new Error('renderer gone')),
    } as unknown as WindowDriver;
    expect(await reads.watch('crashed', failing)).toBeNull();
    const deaf = { watchRepaints: async () => null } as unknown as WindowDriver;
    expect(await reads.watch('relayed', deaf)).toBeNull();
  });

  it('watches only the most recently read windows and drops the mark of one it stops watching', async () => {
    const reads = new WindowReads();
    const { driver, stopped } = paintingDriver();
    const first = await reads.watch('w0', driver);
    reads.note('w0', markOf(first!, 1));
    for (let i = 1; i <= WATCHED_WINDOWS; i += 1) await reads.watch(`w${i}`, driver);
    await expect.poll(stopped).toBe(1);
    expect(reads.mark('w0')).toBeUndefined();
    expect(await reads.watch('w0', driver)).not.toBe(first);
  });

  it('stops watching windows that closed', async () => {
    const reads = new WindowReads();
    const { driver, stopped } = paintingDriver();
    await reads.watch('open', driver);
    await reads.watch('closed', driver);
    reads.forgetClosed((windowId) => windowId === 'open');
    await expect.poll(stopped).toBe(1);
  });
});
