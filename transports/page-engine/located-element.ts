import type { ElementHandle } from 'playwright-core';
import type { TargetQuery, TargetSpec } from '../contract/window-driver.js';

/**
 * The element the last `locate` of a ref found, kept for the action that follows it: the governance
 * preview locates the target to decide on it, and the action on the same ref then starts from that element
 * instead of asking the renderer for the ref's element a second time. One element at most, handed out once.
 */
export class LocatedElement {
  #kept: {
    readonly key: number;
    readonly documentId: string;
    readonly handle: ElementHandle<Element>;
  } | null = null;

  /**
   * Keeps what `query` was located as, when it names a ref directly; any older element is let go, and so is
   * an element located by any other target, which no action could take.
   */
  keep(query: TargetQuery, handle: ElementHandle<Element>): void {
    const spec = refAlone(query);
    if (!spec) {
      void handle.dispose().catch(() => undefined);
      return;
    }
    if (this.#kept && this.#kept.handle !== handle) void this.#kept.handle.dispose().catch(() => undefined);
    this.#kept = { key: spec.key, documentId: spec.documentId, handle };
  }

  /** The element kept for this very ref, once; null for any other target. */
  take(query: TargetQuery): ElementHandle<Element> | null {
    const spec = refAlone(query);
    const kept = this.#kept;
    if (!kept || !spec) return null;
    if (kept.key !== spec.key || kept.documentId !== spec.documentId) return null;
    this.#kept = null;
    return kept.handle;
  }
}

/** The ref of a query that is a ref alone (no `within`, no `nth`), whose key names one element by itself. */
export function refAlone(query: TargetQuery): Extract<TargetSpec, { kind: 'key' }> | null {
  const { spec } = query;
  return spec.kind === 'key' && !query.within && query.nth === undefined ? spec : null;
}

/**
 * Whether an action that failed on a kept element may start again from the ref: only when that element
 * has left the document, so the ref's own resolution says what became of it. An element still attached
 * failed for a reason of its own, and trying again could act twice.
 */
export async function leftTheDocument(handle: ElementHandle<Element>): Promise<boolean> {
  return !(await handle.evaluate((element) => element.isConnected).catch(() => false));
}
