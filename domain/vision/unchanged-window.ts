import type { ScreencastHandle } from '../../transports/contract/screencast-contract.js';
import type { RawSnapshot, WindowDriver } from '../../transports/contract/window-driver.js';
import { keptPerSession } from '../sessions/kept-per-session.js';

/**
 * Windows watched for repaints at once, per session: each holds a screencast of tiny frames open in its app,
 * so only the windows read most recently are watched; a window that lost its watch is read by screenshot.
 */
export const WATCHED_WINDOWS = 4;

/** A window's repaints, counted from when the session started watching it. */
export interface RepaintWatch {
  readonly repaints: number;
}

/** What a read saw of its window: the image it read, and what had happened to the window up to its screenshot. */
export interface ReadMark {
  readonly sha256: string;
  readonly watch: RepaintWatch;
  /** The watch's count that includes the screenshot's own repaint; null when that could not be told. */
  readonly repaints: number | null;
  /** The session's actions' mark before the screenshot (RefStore.actions). */
  readonly actions: number;
  /** The window's layout read beside the screenshot, where the read asked for it. */
  readonly layout: RawSnapshot | null;
}

/**
 * The repaint count a read's mark holds, from the counts just before and just after its screenshot. Taking a
 * screenshot makes Chromium paint once, so exactly one repaint during it is the screenshot's own, and any
 * later one is a change. None, or more than one, and the screenshot's repaint cannot be told from a change
 * that came after the captured frame: null, so the next read takes a screenshot again.
 */
export function repaintsAfterShot(before: number, after: number): number | null {
  return after - before === 1 ? after : null;
}

/**
 * True when the window still shows what `mark` read: watched by the same watch throughout, not repainted
 * since the screenshot, and not acted on by the session since. Any doubt answers false: a read that should
 * have been a screenshot shows stale text, and one taken needlessly only costs time.
 */
export function unchangedSince(
  mark: ReadMark | undefined,
  watch: RepaintWatch | null,
  actions: number,
): mark is ReadMark {
  return (
    mark !== undefined &&
    watch !== null &&
    mark.watch === watch &&
    mark.repaints !== null &&
    mark.repaints === watch.repaints &&
    mark.actions === actions
  );
}

interface Watch extends RepaintWatch {
  repaints: number;
  readonly handle: Promise<ScreencastHandle | null>;
}

/** One session's repaint watches and each window's latest read. */
export class WindowReads {
  readonly #watches = new Map<string, Watch>();
  readonly #marks = new Map<string, ReadMark>();

  /** The window's watch, started on first use; null where its driver cannot tell repaints or failed to. */
  async watch(windowId: string, driver: WindowDriver): Promise<RepaintWatch | null> {
    let watch = this.#watches.get(windowId);
    if (watch) this.#watches.delete(windowId);
    else {
      if (!driver.watchRepaints) return null;
      const started: Watch = {
        repaints: 0,
        handle: driver
          .watchRepaints(() => {
            started.repaints += 1;
          })
          .catch(() => null),
      };
      watch = started;
    }
    this.#watches.set(windowId, watch);
    for (const [oldest] of this.#watches) {
      if (this.#watches.size <= WATCHED_WINDOWS) break;
      this.forget(oldest);
    }
    return (await watch.handle) ? watch : null;
  }

  mark(windowId: string): ReadMark | undefined {
    return this.#marks.get(windowId);
  }

  note(windowId: string, mark: ReadMark): void {
    this.#marks.set(windowId, mark);
  }

  /** Stops watching every window `isOpen` no longer knows (closed, or its session ended). */
  forgetClosed(isOpen: (windowId: string) => boolean): void {
    for (const windowId of [...this.#watches.keys()]) if (!isOpen(windowId)) this.forget(windowId);
  }

  forget(windowId: string): void {
    const watch = this.#watches.get(windowId);
    this.#watches.delete(windowId);
    this.#marks.delete(windowId);
    void watch?.handle.then((handle) => handle?.stop()).catch(() => undefined);
  }
}

/** The window reads of one session, kept as long as the session is. */
export const windowReadsOf = keptPerSession(() => new WindowReads());
