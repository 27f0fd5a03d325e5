import { createHash } from 'node:crypto';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../../transports/contract/bounds.js';
import type { RawNode, RawSnapshot, WindowDriver } from '../../transports/contract/window-driver.js';
import type { Session } from '../sessions/session.js';
import { figuresOf } from '../sessions/session-figures.js';
import { windowActions } from '../snapshot/next-actions.js';
import { readScreenshot } from './banded-read.js';
import { ocrCacheOf } from './ocr-cache.js';
import type { OcrRead } from './tsv.js';
import { repaintsAfterShot, unchangedSince, windowReadsOf } from './unchanged-window.js';

/** A text-heavy 1280×800 window reads in about 0.6 s on two idle cores; a loaded machine needs several. */
export const OCR_READ_TIMEOUT_DEFAULT_MS = 15_000;

export interface WindowText extends OcrRead {
  /** SHA-256 of the screenshot read: the cache's key, and what an auditor matches an artifact against. */
  readonly sha256: string;
  /** Read from the cache: the window showed the same pixels as at an earlier read. */
  readonly cached: boolean;
  /** The engine's output passed its bound and the rest was dropped. */
  readonly truncated: boolean;
  /** The window's layout at this read, when the caller asked for it (`readLayout`); null otherwise. */
  readonly layout: RawSnapshot | null;
}

/**
 * Reads a window's words from its pixels: a viewport screenshot (the space snapshot boxes are in: the
 * viewport's CSS pixels, or a desktop window's own pixels from its top-left corner, 1:1 on both), read by
 * the OCR engine unless the session read the same image before. A window whose driver tells its repaints
 * (a page over CDP) and that neither repainted nor was acted on since its last read is answered from that
 * read with no screenshot (unchanged-window.ts), and with the layout read then: a window that did not
 * repaint has not moved a box. `readLayout`, when given, reads the layout beside the screenshot (the words'
 * elements come from it). Bounded by `timeoutMs` as a whole.
 */
export async function readWindowText(
  session: Session,
  windowId: string,
  driver: WindowDriver,
  timeoutMs: number,
  readLayout?: () => Promise<RawSnapshot>,
): Promise<WindowText> {
  const deadline = Date.now() + timeoutMs;
  const reads = windowReadsOf(session);
  reads.forgetClosed((id) => session.hasWindow(id));
  const watch = await reads.watch(windowId, driver);
  const actions = session.snapshots.actions.mark;
  const figures = figuresOf(session);
  const mark = reads.mark(windowId);
  if (unchangedSince(mark, watch, actions)) {
    const known = ocrCacheOf(session).known(mark.sha256);
    if (known) {
      const [read, layout] = await Promise.all([known, mark.layout ?? readLayout?.() ?? null]);
      figures.cachedOcrReads += 1;
      figures.cachedOcrReadsWithoutScreenshot += 1;
      return { ...read, sha256: mark.sha256, cached: true, layout };
    }
  }
  const before = watch?.repaints ?? 0;
  const layoutRead = readLayout?.() ?? null;
  // Unawaited until the words are read: a failed screenshot or read must not leave its rejection unobserved.
  layoutRead?.catch(() => undefined);
  const shot = await driver.screenshot({ format: 'png' }, timeoutMs);
  const repaints = watch ? repaintsAfterShot(before, watch.repaints) : null;
  const sha256 = createHash('sha256').update(shot.bytes).digest('hex');
  try {
    const started = Date.now();
    const { read, cached } = await ocrCacheOf(session).get(sha256, () =>
      readScreenshot(shot.bytes, { timeoutMs: Math.max(1, deadline - Date.now()) }),
    );
    const layout = await layoutRead;
    if (watch) reads.note(windowId, { sha256, watch, repaints, actions, layout });
    if (cached) figures.cachedOcrReads += 1;
    else {
      figures.ocrReads += 1;
      session.runLog.stagegraph(
        `OCR read of ${windowId}: ${read.words.length} words in ${Date.now() - started} ms (screenshot ${sha256.slice(0, 12)})`,
      );
    }
    return { ...read, sha256, cached, layout };
  } catch (error) {
    if (!(error instanceof StagegraphError)) throw error;
    // A tree may name what the pixels could not give: the window's structure is the next thing to read.
    throw new StagegraphError(error.code, error.message, {
      nextActions: [windowActions.interactive({ sessionId: session.id, windowId })],
      ...(error.details ? { details: error.details } : {}),
      cause: error.cause,
    });
  }
}

/**
 * The element a box falls inside: the last node in document order whose box holds the box's centre — the
 * deepest, or the later-painted of overlapping siblings. Runs of text are not elements and are passed over.
 */
export function containingNode(box: Bounds, nodes: readonly RawNode[]): RawNode | null {
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  let found: RawNode | null = null;
  for (const node of nodes) {
    const b = node.bbox;
    if (!b || node.role === 'text') continue;
    if (x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height) found = node;
  }
  return found;
}

/** True when the box's centre lies in `area`: a word cut by a region's edge counts where most of it is. */
export function centreInside(box: Bounds, area: Bounds): boolean {
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  return x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height;
}
