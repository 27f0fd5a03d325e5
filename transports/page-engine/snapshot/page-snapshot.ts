/// <reference lib="dom" />
import type { ElementHandle, Locator, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { RawSnapshot, ResolvedNode, SnapshotRequest } from '../../contract/window-driver.js';
import { decodeNode, decodeWire, type NodeTuple } from './encoding.js';
import { ENGINE_GLOBAL, type Engine, withEngine } from './install.js';
import { unpack } from './packing.js';
import { applyDelta, baseOf, cachedRead, remember, servedByModel } from './snapshot-cache.js';

/** The engine of this document, inlined into each in-page function (they cannot share code at run time). */
type Host = Record<string, Engine | undefined>;

/**
 * Reads the page's document (or the `within` subtree) as accessibility nodes in pre-order. A read of the
 * whole document without boxes goes through the in-page model (model.ts): after the first, it costs what
 * changed since the previous one.
 */
export async function snapshotDocument(page: Page, request: SnapshotRequest): Promise<RawSnapshot> {
  if (servedByModel(request)) return readThroughModel(page, false);
  const packed = await withEngine(
    page,
    ({ global, arg }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement) return undefined;
      return engine.packing.pack(engine.walker.snapshot(arg));
    },
    {
      within: request.within,
      interactiveOnly: request.interactiveOnly,
      depth: request.depth,
      bounds: request.bounds,
    },
  );
  return decodeSnapshot(await unpack(packed, 'snapshot'), request);
}

async function decodeSnapshot(json: string, request: SnapshotRequest): Promise<RawSnapshot> {
  const encoded = await decodeWire(json);
  if (encoded.stale) {
    throw new StagegraphError(
      'REF_STALE',
      `The element of key ${request.within} is no longer in the document.`,
    );
  }
  return {
    documentId: encoded.documentId,
    url: encoded.url,
    title: encoded.title,
    nodes: encoded.nodes,
    detached: encoded.detached,
  };
}

/**
 * One round trip: the model answers relative to the page's cached read (unchanged, or subtrees to splice
 * in) or walks afresh. A delta that does not fit the cached read is read again by a forced full walk.
 */
async function readThroughModel(page: Page, force: boolean): Promise<RawSnapshot> {
  const cached = cachedRead(page);
  const answer = await withEngine(
    page,
    ({ global, arg }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement) return undefined;
      const read = engine.model.read(arg.base, arg.force);
      if (read.kind !== 'full') return read;
      const json = engine.packing.pack(read.json);
      return typeof json === 'string' ? read : json.then((packed) => ({ ...read, json: packed }));
    },
    { base: baseOf(cached), force },
  );
  if (answer.kind === 'full') {
    const snapshot = await decodeSnapshot(await unpack(answer.json, 'snapshot'), {});
    remember(page, answer.version, snapshot);
    return snapshot;
  }
  const base = cached?.snapshot;
  if (!base) return readThroughModel(page, true);
  // A read's link to its own base served its recording; kept, every read would hold all before it.
  if (base.incremental) (base as { incremental?: RawSnapshot['incremental'] }).incremental = undefined;
  if (answer.kind === 'same') {
    const snapshot: RawSnapshot = {
      ...base,
      url: answer.url,
      title: answer.title,
      detached: [],
      incremental: { base, splices: [] },
    };
    remember(page, answer.version, snapshot);
    return snapshot;
  }
  const snapshot = applyDelta(base, answer);
  if (!snapshot) {
    // The keys the delta reported detached are reported once: the full read must carry them on.
    const full = await readThroughModel(page, true);
    return { ...full, detached: [...answer.detached, ...full.detached] };
  }
  remember(page, answer.version, snapshot);
  return snapshot;
}

/** The id of the page's current document (installing the engine if this document has none yet). */
export function currentDocumentId(page: Page): Promise<string> {
  return withEngine(
    page,
    ({ global }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement) return undefined;
      return engine.walker.documentId;
    },
    null,
  );
}

/** Marks "the key's element lives in an iframe" in the one answer elementForKey gets from the page. */
const IN_FRAME = 'in-frame';

/**
 * KeyResolver (see target-resolution.ts): the element a key stands for (a text node's key → its parent element);
 * null when gone, or when `documentId` is given and the page shows another document since. One round trip
 * for an element of the top document — every action and expectation on a ref pays this. An element inside
 * an iframe is re-resolved in its own frame's context: Playwright acts on a handle through the frame that
 * created it.
 */
export async function elementForKey(
  page: Page,
  key: number,
  documentId?: string,
): Promise<ElementHandle<Element> | null> {
  const found = await page.evaluateHandle(
    ({ global, key, documentId, inFrameMark }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement) return null;
      if (documentId !== undefined && engine.walker.documentId !== documentId) return null;
      const element = engine.walker.elementFor(key);
      if (!element) return null;
      return element.ownerDocument === document ? element : inFrameMark;
    },
    { global: ENGINE_GLOBAL, key, documentId, inFrameMark: IN_FRAME },
  );
  const element = found.asElement();
  if (element) return element as ElementHandle<Element>;
  const inFrame = (await found.jsonValue()) === IN_FRAME;
  await found.dispose();
  return inFrame ? elementInFrame(page, key) : null;
}

async function elementInFrame(page: Page, key: number): Promise<ElementHandle<Element> | null> {
  const found = await page.evaluateHandle(
    ({ global, key }) => (window as unknown as Host)[global]?.walker.elementFor(key) ?? null,
    { global: ENGINE_GLOBAL, key },
  );
  const element = found.asElement();
  const frame = element ? await element.ownerFrame() : null;
  await found.dispose();
  if (!frame) return null;
  const inFrame = await frame.evaluateHandle(
    ({ global, key }) => (window.top as unknown as Host)[global]?.walker.elementFor(key) ?? null,
    { global: ENGINE_GLOBAL, key },
  );
  const resolved = inFrame.asElement();
  if (!resolved) await inFrame.dispose();
  return resolved as ElementHandle<Element> | null;
}

/**
 * Describes the element of a key as the walker would, by the key alone: sent beside the key's
 * resolution to a handle, it costs no round trip of its own. Null when the page shows another document,
 * the key's element is gone, or the engine is not installed (describeElement then answers from the handle).
 */
export async function describeKey(page: Page, key: number, documentId: string): Promise<ResolvedNode | null> {
  const json = await page.evaluate(
    ({ global, key, documentId }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement || engine.walker.documentId !== documentId)
        return null;
      const element = engine.walker.elementFor(key);
      return element ? engine.walker.describe(element) : null;
    },
    { global: ENGINE_GLOBAL, key, documentId },
  );
  return json === null ? null : decodeDescribed(json);
}

/** Describes one element as the walker would (registering a key if it has none yet), with the document id. */
export async function describeElement(page: Page, element: ElementHandle<Element>): Promise<ResolvedNode> {
  const describe = () =>
    element.evaluate((target, global) => {
      const top = target.ownerDocument.defaultView?.top ?? window;
      const engine = (top as unknown as Host)[global];
      return engine && engine.root === top.document.documentElement ? engine.walker.describe(target) : null;
    }, ENGINE_GLOBAL);
  let json = await describe();
  if (json === null) {
    await currentDocumentId(page);
    json = await describe();
  }
  if (json === null) throw new Error('the snapshot engine did not install in this document');
  return decodeDescribed(json);
}

/**
 * Describes the one element `locator` matches as describeElement does, in a single main-world call
 * (Playwright's evaluateAll resolves the selector in the main world, where the engine is): no handle is
 * made, adopted into Playwright's utility world and released, as an element handle would be. Null when the
 * locator does not match exactly one element right now or the document has no engine yet; the caller
 * then resolves an element handle and describes that.
 */
export async function describeLocated(locator: Locator): Promise<ResolvedNode | null> {
  const json = await locator
    .evaluateAll((elements, global) => {
      const target = elements.length === 1 ? elements[0] : undefined;
      if (!target) return null;
      const top = target.ownerDocument.defaultView?.top ?? window;
      const engine = (top as unknown as Host)[global];
      return engine && engine.root === top.document.documentElement ? engine.walker.describe(target) : null;
    }, ENGINE_GLOBAL)
    .catch(() => null);
  return json === null ? null : decodeDescribed(json);
}

/** The walker's `describe` answer: one node's tuple with the document it was read in. */
function decodeDescribed(json: string): ResolvedNode {
  const described = JSON.parse(json) as { documentId: string; node: NodeTuple };
  return { documentId: described.documentId, node: decodeNode(described.node) };
}

/** Marks a key's value secret for the rest of the document's life. */
export async function markSecret(page: Page, key: number): Promise<void> {
  await withEngine(
    page,
    ({ global, arg }) => {
      const engine = (window as unknown as Host)[global];
      if (!engine || engine.root !== document.documentElement) return undefined;
      engine.walker.markSecret(arg);
      engine.model.touch(arg);
      return true;
    },
    key,
  );
}
