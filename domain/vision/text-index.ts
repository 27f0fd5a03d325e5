import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { Bounds } from '../../transports/contract/bounds.js';
import type { RawSnapshot, ResolvedNode } from '../../transports/contract/window-driver.js';
import type { TargetRequest } from '../interaction/target-input.js';
import { windowTarget } from '../interaction/window-target.js';
import type { Session } from '../sessions/session.js';
import { clamp } from '../sessions/timeouts.js';
import { type OcrWord, union } from './tsv.js';
import { centreInside, containingNode, OCR_READ_TIMEOUT_DEFAULT_MS, readWindowText } from './window-text.js';

export const TEXT_INDEX_TIMEOUT_MAX_MS = 60_000;

export interface TextIndexRequest {
  readonly window?: string | null;
  /** Only the words inside this element's box. */
  readonly within?: TargetRequest | null;
  /** Only words the engine is at least this sure of (0–100). */
  readonly minConfidence?: number | null;
  /** Only the words inside this rectangle of the window. */
  readonly region?: Bounds | null;
  readonly timeoutMs?: number | null;
}

export interface IndexedWord {
  readonly text: string;
  readonly bbox: Bounds;
  readonly confidence: number;
  /** The ref of the element it falls inside; null where no element's box holds it. */
  readonly ref: string | null;
}

export interface IndexedLine extends IndexedWord {
  readonly words: readonly IndexedWord[];
}

export interface TextIndex {
  readonly windowId: string;
  readonly screenshotSha256: string;
  readonly cached: boolean;
  readonly truncated: boolean;
  readonly elapsedMs: number;
  readonly words: readonly IndexedWord[];
  readonly lines: readonly IndexedLine[];
}

/**
 * The words and lines a window shows, read from its pixels, each with the ref of the element it falls in:
 * the vision tier, for what no tree names (a canvas, a custom-drawn widget). `within` and `region` narrow
 * what is returned, never what is read, so every narrowing of one frame shares one cached read.
 */
export async function buildTextIndex(session: Session, request: TextIndexRequest): Promise<TextIndex> {
  const started = Date.now();
  const timeoutMs = clamp(request.timeoutMs, OCR_READ_TIMEOUT_DEFAULT_MS, 1, TEXT_INDEX_TIMEOUT_MAX_MS);
  const { window, driver } = await session.window(request.window);
  const inside = request.within ? await elementKey(session, window.id, request.within, timeoutMs) : null;
  const text = await readWindowText(session, window.id, driver, timeoutMs, () =>
    driver.snapshot({ bounds: true }),
  );
  const raw = text.layout ?? (await driver.snapshot({ bounds: true }));
  const area = inside === null ? null : boxOf(inside, raw);
  const refOf = (box: Bounds) => {
    const node = containingNode(box, raw.nodes);
    return node ? session.snapshots.refFor(window.id, { documentId: raw.documentId, node }) : null;
  };
  const minConfidence = request.minConfidence ?? 0;
  const kept = (word: OcrWord) =>
    word.confidence >= minConfidence &&
    (!request.region || centreInside(word.bbox, request.region)) &&
    (!area || centreInside(word.bbox, area));
  const byLine = new Map<number, IndexedWord[]>();
  const words: IndexedWord[] = [];
  for (const word of text.words.filter(kept)) {
    const indexed = { text: word.text, bbox: word.bbox, confidence: word.confidence, ref: refOf(word.bbox) };
    words.push(indexed);
    const line = byLine.get(word.line) ?? [];
    line.push(indexed);
    byLine.set(word.line, line);
  }
  const lines = [...byLine.values()].map((own) => lineOf(own, refOf));
  return {
    windowId: window.id,
    screenshotSha256: text.sha256,
    cached: text.cached,
    truncated: text.truncated,
    elapsedMs: Date.now() - started,
    words,
    lines,
  };
}

function lineOf(words: readonly IndexedWord[], refOf: (box: Bounds) => string | null): IndexedLine {
  const bbox = union(words.map((w) => w.bbox));
  return {
    text: words.map((w) => w.text).join(' '),
    bbox,
    confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length,
    ref: refOf(bbox),
    words,
  };
}

/** The element `within` names, as its document's key. */
async function elementKey(
  session: Session,
  windowId: string,
  within: TargetRequest,
  timeoutMs: number,
): Promise<ResolvedNode> {
  const target = { window: windowId, target: within, timeoutMs };
  const { driver, query, located } = await windowTarget(session, target);
  if (located) return located;
  if (!query) throw new StagegraphError('BAD_INPUT', '`within` names no element.');
  return driver.locate(query, timeoutMs);
}

/** Its box as the snapshot read with the words measured it: the same instant's layout. */
function boxOf(inside: ResolvedNode, raw: RawSnapshot): Bounds {
  const node = raw.documentId === inside.documentId ? raw.nodes.find((n) => n.key === inside.node.key) : null;
  if (!node?.bbox)
    throw new StagegraphError(
      'BAD_INPUT',
      'The `within` element renders no box (or left the page), so no text can fall inside it.',
    );
  return node.bbox;
}
