import type { SimilarRef } from '../../errors/stagegraph-error.js';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  RawNode,
  RawSnapshot,
  ResolvedNode,
  SnapshotRequest,
  WindowDriver,
} from '../../transports/contract/window-driver.js';
import { inTurns } from '../../transports/protocol/in-turns.js';
import { ActionSpans } from './action-spans.js';
import { noteSelfChanges } from './diff.js';
import { controlFingerprint, type FingerprintSource, fingerprint } from './fingerprint.js';
import { reconcileSpliced, reconcileWhole } from './reconcile-nodes.js';
import { missingRefError, otherWindowError, staleRefError } from './ref-errors.js';
import { learnSelfChanges } from './self-changes-learning.js';
import { similarRefs, type Wanted } from './similar.js';
import { Snapshot } from './snapshot.js';
import { noteSplices } from './snapshot-splices.js';
import { type ReadKind, type RefEntry, readKind, WHOLE, WindowRefs } from './window-refs.js';

/**
 * Refs remembered per window, live and stale together. Twice the 50,000-node bench page: a whole snapshot
 * of it plus as many stale refs. Stale refs are kept only to answer REF_STALE with what the element was and
 * to re-pair detached twins; past the limit the oldest go first, and a forgotten ref still reads as
 * REF_STALE (refs are never reused, so the store can tell "forgotten" from "never issued").
 */
export const MAX_REFS_PER_WINDOW = 100_000;

/**
 * Snapshots kept per window for `since:`. An agent diffs against one it took a few steps ago; each snapshot
 * of the bench page holds 50,000 nodes (several MB), so "a few" must stay few.
 */
export const RECENT_SNAPSHOTS_PER_WINDOW = 5;

export interface ResolvedRef {
  readonly ref: string;
  readonly windowId: string;
  readonly documentId: string;
  readonly key: number;
}

export interface ResolveOptions {
  /** The window the caller is acting in; a ref of another window is BAD_INPUT. */
  readonly windowId?: string | null;
  /** What the caller meant, when known: feeds `similarRefs` for a ref that was never issued. */
  readonly wanted?: Wanted | null;
}

export interface RefStoreOptions {
  readonly now?: () => Date;
}

/**
 * A session's refs: short names (`e1`, `e2`, ...) for elements, unique across the session's windows and
 * never reused, that survive re-renders. The walker names elements by per-document keys; a re-render
 * replaces an element (new key, old key reported detached), and the store gives the newcomer the old ref
 * when their fingerprints (role, name, near ancestry) agree. Every pass is linear in the snapshot's size.
 */
export class RefStore {
  readonly #sessionId: string;
  readonly #now: () => Date;
  readonly #refs = new Map<string, RefEntry>();
  readonly #windows = new Map<string, WindowRefs>();
  #issued = 0;
  /** The session's actions; each snapshot keeps their mark from just before its read was asked. */
  readonly actions = new ActionSpans();
  readonly #actionsAt = new WeakMap<Snapshot, number>();
  readonly #lookup = (ref: string): RefEntry | undefined => this.#refs.get(ref);

  constructor(sessionId: string, options: RefStoreOptions = {}) {
    this.#sessionId = sessionId;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Reconciles a walker's snapshot of `windowId` with the refs known so far and keeps the result. A
   * snapshot the transport made from the one recorded last by replacing a few ranges (`raw.incremental`)
   * is reconciled range by range, every other node kept as it was: the same refs as a whole pass, at the
   * cost of the change. The work is done in turns of the event loop (a 60,000-node page is some tens of
   * milliseconds of it), so other sessions' operations run in between; the reads of one window are
   * recorded one after another, in the order they were asked. WINDOW_NOT_FOUND when the window is
   * forgotten meanwhile. `actionsBefore` is `actions.mark` taken before the transport was asked for `raw`:
   * a read asked before an action began and recorded after it must not pass for one made after it.
   */
  record(
    windowId: string,
    raw: RawSnapshot,
    scope: SnapshotRequest,
    actionsBefore: number,
  ): Promise<Snapshot> {
    const w = this.#window(windowId);
    const recorded = w.recording.then(() =>
      inTurns(this.#record(w, windowId, raw, scope, actionsBefore), () => {
        if (this.#windows.get(windowId) !== w) {
          throw new StagegraphError('WINDOW_NOT_FOUND', `Window ${windowId} closed during the read.`);
        }
      }),
    );
    w.recording = recorded.then(
      () => undefined,
      () => undefined,
    );
    return recorded;
  }

  /** Asks the window's transport for a snapshot of `scope` and records it. */
  async read(windowId: string, driver: WindowDriver, scope: SnapshotRequest): Promise<Snapshot> {
    const actionsBefore = this.actions.mark;
    return this.record(windowId, await driver.snapshot(scope), scope, actionsBefore);
  }

  /**
   * `record` in one go, outside the window's queue: for tests and benches, which have no other read of the
   * window in flight and time or check the reconciliation itself.
   */
  recordNow(windowId: string, raw: RawSnapshot, scope: SnapshotRequest = {}): Snapshot {
    const steps = this.#record(this.#window(windowId), windowId, raw, scope, this.actions.mark);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  *#record(
    w: WindowRefs,
    windowId: string,
    raw: RawSnapshot,
    scope: SnapshotRequest,
    actionsBefore: number,
  ): Generator<void, Snapshot> {
    const last = w.recent.at(-1);
    const splices =
      raw.incremental && last && w.lastRaw === raw.incremental.base && w.documentId === raw.documentId
        ? raw.incremental.splices
        : null;
    if (w.documentId !== raw.documentId) w.replaceDocument(raw.documentId);
    w.detach(raw.detached, this.#lookup);
    const seq = ++w.seq;
    const read = readKind(scope);
    const reconcile = (rawNode: RawNode, parentRef: string | null) =>
      this.#reconcile(w, windowId, raw.documentId, rawNode, parentRef, read);
    const { nodes, entries } =
      splices && last
        ? yield* reconcileSpliced(
            raw,
            { nodes: last.nodes, entries: w.lastEntries },
            splices,
            w.byKey,
            reconcile,
          )
        : yield* reconcileWhole(raw, reconcile, last?.documentId === raw.documentId ? last.nodes : []);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as RefEntry;
      entry.seenIn = seq;
      entry.seenAt = index;
    }
    const snapshot = new Snapshot(
      {
        id: `${windowId}#${seq}`,
        sessionId: this.#sessionId,
        windowId,
        documentId: raw.documentId,
        url: raw.url,
        title: raw.title,
        takenAt: this.#now(),
        rendererReloaded: last !== undefined && last.documentId !== raw.documentId,
        scope,
      },
      nodes,
    );
    if (splices && last) noteSplices(snapshot, { base: last, splices });
    noteSelfChanges(snapshot, w.selfChanges);
    learnSelfChanges(w.selfChanges, w.recent, snapshot, (earlier) => {
      const mark = this.#actionsAt.get(earlier);
      return mark !== undefined && this.actions.noneSince(mark);
    });
    this.#actionsAt.set(snapshot, actionsBefore);
    w.lastRaw = raw;
    w.lastEntries = entries;
    w.recent.push(snapshot);
    if (w.recent.length > RECENT_SNAPSHOTS_PER_WINDOW) w.recent.shift();
    this.#evict(w, seq);
    return snapshot;
  }

  /**
   * The entry of one node of a new snapshot: known by key, a detached twin, or a fresh ref. An entry keeps
   * the parent a whole read gave it: a read that leaves ancestors out (interactive-only, or the root of a
   * `within` read) would make its fingerprint that read's, and its twin in the next whole read a stranger.
   */
  #reconcile(
    w: WindowRefs,
    windowId: string,
    documentId: string,
    rawNode: RawNode,
    parentRef: string | null,
    read: ReadKind,
  ): RefEntry {
    const { key, role, name, interactive } = rawNode;
    const source = { role, name, parentRef, interactive };
    const entry = this.#known(w, key) ?? this.#newcomer(w, windowId, documentId, key, source, read);
    entry.role = role;
    entry.name = name;
    entry.interactive = interactive;
    const leftOut = read.controlsOnly || (read.subtree && parentRef === null);
    if (!leftOut || entry.seenIn === 0) entry.parentRef = parentRef;
    return entry;
  }

  /**
   * The ref of an element found some other way (selector, test id, text), so an action's result can name
   * its target. Keeps the ref the element already has; issues a fresh one otherwise.
   */
  refFor(windowId: string, found: ResolvedNode): string {
    const w = this.#window(windowId);
    if (w.documentId !== found.documentId) w.replaceDocument(found.documentId);
    const entry =
      this.#known(w, found.node.key) ?? this.#newcomer(w, windowId, found.documentId, found.node.key, null);
    entry.role = found.node.role;
    entry.name = found.node.name;
    entry.interactive = found.node.interactive;
    entry.seenIn = w.seq;
    this.#evict(w, w.seq);
    return entry.ref;
  }

  /** Where a ref points now; REF_NOT_FOUND, REF_STALE or BAD_INPUT (another window) otherwise. */
  resolve(ref: string, options: ResolveOptions = {}): ResolvedRef {
    const asked = options.windowId ?? null;
    const entry = this.#refs.get(ref);
    if (!entry) {
      const similar = options.wanted && asked ? this.#similar(asked, options.wanted, ref) : [];
      const facts = { sessionId: this.#sessionId, ref, windowId: asked, similar };
      if (this.#wasIssued(ref)) throw staleRefError({ ...facts, reason: 'FORGOTTEN', lastKnown: null });
      throw missingRefError({ ...facts, wanted: options.wanted ?? null });
    }
    if (asked !== null && entry.windowId !== asked)
      throw otherWindowError(this.#sessionId, ref, entry.windowId, asked);
    const w = this.#windows.get(entry.windowId)!;
    const replaced = entry.documentId !== w.documentId;
    if (replaced || entry.status === 'detached') {
      const lastKnown = { role: entry.role, name: entry.name };
      throw staleRefError({
        sessionId: this.#sessionId,
        ref,
        windowId: entry.windowId,
        reason: replaced ? 'DOCUMENT_REPLACED' : 'DETACHED',
        lastKnown,
        similar: this.#similar(entry.windowId, lastKnown, ref),
      });
    }
    return { ref, windowId: entry.windowId, documentId: entry.documentId, key: entry.key };
  }

  /** The window's latest snapshot, if one was taken. */
  last(windowId: string): Snapshot | undefined {
    return this.#windows.get(windowId)?.recent.at(-1);
  }

  /** A recent snapshot by id (for `since:`); BAD_INPUT once it is no longer kept. */
  snapshot(id: string): Snapshot {
    const windowId = id.slice(0, Math.max(0, id.lastIndexOf('#')));
    const found = this.#windows.get(windowId)?.recent.find((snapshot) => snapshot.id === id);
    if (found) return found;
    const kept = this.#windows.get(windowId)?.recent.map((snapshot) => snapshot.id) ?? [];
    throw new StagegraphError(
      'BAD_INPUT',
      `Snapshot ${JSON.stringify(id)} is not kept: only the last ${RECENT_SNAPSHOTS_PER_WINDOW} of each window are.`,
      { details: { keptSnapshots: kept } },
    );
  }

  /** Refs remembered for the window, live and stale: what MAX_REFS_PER_WINDOW bounds. */
  refCount(windowId: string): number {
    return this.#windows.get(windowId)?.refCount ?? 0;
  }

  /** Drops everything of a closed window; its refs read as REF_STALE (FORGOTTEN) from now on. */
  forgetWindow(windowId: string): void {
    const w = this.#windows.get(windowId);
    if (!w) return;
    for (const entry of w.byKey.values()) this.#refs.delete(entry.ref);
    for (const ref of w.retired) this.#refs.delete(ref);
    this.#windows.delete(windowId);
  }

  #window(windowId: string): WindowRefs {
    let w = this.#windows.get(windowId);
    if (!w) {
      w = new WindowRefs();
      this.#windows.set(windowId, w);
    }
    return w;
  }

  /** The entry `key` already has in the current document, revived if it was detached and came back. */
  #known(w: WindowRefs, key: number): RefEntry | undefined {
    const entry = w.byKey.get(key);
    if (entry?.status === 'detached') w.attach(entry, key);
    return entry;
  }

  /**
   * The entry for a key new to the document: a detached twin re-pointed at it (only when `source` gives
   * ancestry to fingerprint), else a fresh ref. An interactive-only read pairs controls by the print it
   * can compute (controlFingerprint), a whole read by the full one.
   */
  #newcomer(
    w: WindowRefs,
    windowId: string,
    documentId: string,
    key: number,
    source: FingerprintSource | null,
    read: ReadKind = WHOLE,
  ): RefEntry {
    const pool = read.controlsOnly ? w.controls : w.pool;
    const print = read.controlsOnly ? controlFingerprint : fingerprint;
    // Fingerprinting costs a string per node: skip it when no detached ref waits for a twin.
    const twin = source && !pool.isEmpty ? pool.take(print(source, this.#lookup)) : undefined;
    if (twin) {
      w.byKey.delete(twin.key);
      w.attach(twin, key);
      return twin;
    }
    this.#issued += 1;
    w.refCount += 1;
    const ref = `e${this.#issued}`;
    const entry: RefEntry = {
      ref,
      windowId,
      documentId,
      key,
      status: 'live',
      print: null,
      controlPrint: null,
      interactive: false,
      role: '',
      name: '',
      parentRef: null,
      seenIn: 0,
      seenAt: 0,
    };
    this.#refs.set(ref, entry);
    w.byKey.set(key, entry);
    return entry;
  }

  /**
   * Forgets refs past MAX_REFS_PER_WINDOW: stale ones oldest first, then live ones the latest snapshot did
   * not show, least recently seen first (a page that never reports detachment must not grow us either).
   */
  #evict(w: WindowRefs, seq: number): void {
    let excess = w.refCount - MAX_REFS_PER_WINDOW;
    for (const ref of w.retired) {
      if (excess <= 0) break;
      this.#forget(w, ref);
      excess -= 1;
    }
    if (excess > 0) {
      const unseen = [...w.byKey.values()]
        .filter((entry) => entry.seenIn !== seq)
        .sort((a, b) => a.seenIn - b.seenIn || a.seenAt - b.seenAt);
      for (const entry of unseen.slice(0, excess)) this.#forget(w, entry.ref);
    }
    // Live slots never exceed the ref count, so past twice the limit most are dead; rebuilding only then
    // keeps the pool bounded at an amortized constant cost per detachment.
    if (w.pool.slots + w.controls.slots > 2 * MAX_REFS_PER_WINDOW)
      w.rebuildPools((ref) => this.#refs.get(ref)!);
  }

  #forget(w: WindowRefs, ref: string): void {
    const entry = this.#refs.get(ref);
    if (!entry) return;
    if (entry.documentId === w.documentId && w.byKey.get(entry.key) === entry) w.byKey.delete(entry.key);
    entry.status = 'forgotten';
    w.retired.delete(ref);
    this.#refs.delete(ref);
    w.refCount -= 1;
  }

  #wasIssued(ref: string): boolean {
    const match = /^e([1-9]\d*)$/.exec(ref);
    return match !== null && Number(match[1]) <= this.#issued;
  }

  #similar(windowId: string, wanted: Wanted, ref: string): SimilarRef[] {
    const last = this.last(windowId);
    return last ? similarRefs(wanted, last, ref) : [];
  }
}
