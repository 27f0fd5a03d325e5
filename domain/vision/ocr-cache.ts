import { keptPerSession } from '../sessions/kept-per-session.js';
import type { OcrRead } from './tsv.js';

/** A session's windows rarely show more distinct frames than this between two reads an agent cares about. */
export const OCR_CACHE_ENTRIES = 16;

export interface CachedRead extends OcrRead {
  readonly truncated: boolean;
}

/**
 * OCR reads of one session by the SHA-256 of the screenshot read: the same pixels read the same words, so a
 * window that has not changed is read once (a `??` fallback and the action after it, a second textIndex).
 * Reads under way are shared, so two callers never run the engine twice on one image. Least recently used
 * entries leave first; a failed read is not kept.
 */
export class OcrCache {
  readonly #entries = new Map<string, Promise<CachedRead>>();

  /** The read of this image if the cache holds it (it becomes the most recently used); never reads. */
  known(sha256: string): Promise<CachedRead> | undefined {
    const known = this.#entries.get(sha256);
    if (known) {
      this.#entries.delete(sha256);
      this.#entries.set(sha256, known);
    }
    return known;
  }

  /** The read of this image, from the cache or from `read`; `cached` says which. */
  async get(sha256: string, read: () => Promise<CachedRead>): Promise<{ read: CachedRead; cached: boolean }> {
    const known = this.known(sha256);
    if (known) return { read: await known, cached: true };
    const pending = read();
    this.#entries.set(sha256, pending);
    while (this.#entries.size > OCR_CACHE_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    try {
      return { read: await pending, cached: false };
    } catch (error) {
      if (this.#entries.get(sha256) === pending) this.#entries.delete(sha256);
      throw error;
    }
  }
}

/** The OCR reads of one session, kept as long as the session is. */
export const ocrCacheOf = keptPerSession(() => new OcrCache());
