import type { RawSnapshot, SnapshotRequest } from '../../transports/contract/window-driver.js';
import { controlFingerprint, type FingerprintSource, fingerprint } from './fingerprint.js';
import { SelfChanges } from './self-changes.js';
import type { Snapshot, SnapshotNode } from './snapshot.js';
import { TwinPool } from './twin-pool.js';

/** What the ref store keeps per window, and per ref: the state behind ref-store.ts. */

export interface RefEntry extends FingerprintSource {
  readonly ref: string;
  readonly windowId: string;
  readonly documentId: string;
  key: number;
  /**
   * Detached: its element left the document; it waits in the pool for a twin and reads as stale.
   * Forgotten: evicted, so pool slots still holding it are dead.
   */
  status: 'live' | 'detached' | 'forgotten';
  /** Its fingerprint as it stood when it was detached: the pool bucket it waits in. */
  print: string | null;
  /** Its controlFingerprint then, for a control: the bucket it waits in for an interactive-only read. */
  controlPrint: string | null;
  /** Whether its node is a control (RawNode.interactive), as last read. */
  interactive: boolean;
  role: string;
  name: string;
  parentRef: string | null;
  /** Sequence number of the last snapshot that showed it, and its index there: the order twins pair in. */
  seenIn: number;
  seenAt: number;
}

export interface Reconciled {
  readonly nodes: readonly SnapshotNode[];
  /** Each node's entry, by index. */
  readonly entries: readonly RefEntry[];
}

export class WindowRefs {
  documentId: string | null = null;
  /** Refs of the current document by key, live or detached (a detached key may come back). */
  readonly byKey = new Map<number, RefEntry>();
  /** Stale refs (detached, or of a replaced document) in the order they went stale: evicted first. */
  readonly retired = new Set<string>();
  /** Detached refs of the current document awaiting a twin, by fingerprint. */
  readonly pool: TwinPool<RefEntry>;
  /** The detached controls among them, by controlFingerprint: where an interactive-only read pairs. */
  readonly controls: TwinPool<RefEntry>;
  refCount = 0;
  seq = 0;
  readonly recent: Snapshot[] = [];
  /** The walker's snapshot the latest one was recorded from, and each of its nodes' entries. */
  lastRaw: RawSnapshot | null = null;
  lastEntries: readonly RefEntry[] = [];
  /** What the window changes on its own, learnt from its reads. */
  readonly selfChanges = new SelfChanges();
  /** The window's read being recorded, if any: the next waits for it (ref-store.ts `record`). */
  recording: Promise<void> = Promise.resolve();

  constructor() {
    const waiting = (entry: RefEntry) => entry.status === 'detached' && entry.documentId === this.documentId;
    this.pool = new TwinPool((entry, print) => waiting(entry) && entry.print === print);
    this.controls = new TwinPool((entry, print) => waiting(entry) && entry.controlPrint === print);
  }

  /** A detached entry back on the page under `key` (its element came back, or a twin took its ref). */
  attach(entry: RefEntry, key: number): void {
    entry.key = key;
    entry.status = 'live';
    entry.print = null;
    entry.controlPrint = null;
    this.byKey.set(key, entry);
    this.retired.delete(entry.ref);
  }

  /** Detached refs join the pools in the order their elements stood, so equal twins pair in document order. */
  detach(keys: readonly number[], lookup: (ref: string) => FingerprintSource | undefined): void {
    const detached: RefEntry[] = [];
    for (const key of keys) {
      const entry = this.byKey.get(key);
      if (entry?.status !== 'live') continue;
      entry.status = 'detached';
      detached.push(entry);
    }
    detached.sort((a, b) => a.seenIn - b.seenIn || a.seenAt - b.seenAt);
    for (const entry of detached) {
      entry.print = fingerprint(entry, lookup);
      this.retired.add(entry.ref);
      this.pool.add(entry.print, entry);
      if (!entry.interactive) continue;
      entry.controlPrint = controlFingerprint(entry, lookup);
      this.controls.add(entry.controlPrint, entry);
    }
  }

  /** A new document voids every key of the old one: its refs go stale, its detached ones can never pair. */
  replaceDocument(documentId: string): void {
    for (const entry of this.byKey.values()) this.retired.add(entry.ref);
    this.byKey.clear();
    this.pool.clear();
    this.controls.clear();
    this.documentId = documentId;
  }

  /** Drops the pools' dead slots (taken, revived or forgotten refs); `retired` keeps the pairing order. */
  rebuildPools(entryOf: (ref: string) => RefEntry): void {
    this.pool.clear();
    this.controls.clear();
    for (const ref of this.retired) {
      const entry = entryOf(ref);
      if (entry.status !== 'detached' || entry.documentId !== this.documentId) continue;
      this.pool.add(entry.print!, entry);
      if (entry.controlPrint !== null) this.controls.add(entry.controlPrint, entry);
    }
  }
}

/** What a read shows of the tree's shape: an entry's parent and pairing depend on it. */
export interface ReadKind {
  /** Interactive-only: controls parented to their nearest shown ancestor. */
  readonly controlsOnly: boolean;
  /** A `within` read: its root is shown without its parent. */
  readonly subtree: boolean;
}

export const WHOLE: ReadKind = { controlsOnly: false, subtree: false };

export function readKind(scope: SnapshotRequest): ReadKind {
  return { controlsOnly: scope.interactiveOnly === true, subtree: scope.within !== undefined };
}
