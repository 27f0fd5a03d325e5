import type { SessionRegistry } from '../sessions/session-registry.js';
import { MAX_TEXT_CHARS, type Snapshot, TEXT_ELLIPSIS } from './snapshot.js';

/** The nodes asked for in one tick of one snapshot, read together when the tick ends. */
interface Batch {
  readonly refs: string[];
  readonly texts: Promise<ReadonlyMap<string, string | null>>;
}

/**
 * Batches waiting for their tick to end, per snapshot: a listing that selects `textContent` on a thousand
 * nodes resolves that field a thousand times in one synchronous pass, and pays one round trip for all.
 */
const pending = new WeakMap<Snapshot, Batch>();

/**
 * The DOM textContent of a snapshot's node as its element holds it now — hidden text included, secrets
 * redacted — capped at MAX_TEXT_CHARS (then TEXT_ELLIPSIS); null once the element has left the page. Read
 * only when selected, and for all the nodes of a snapshot asked in the same tick in one call.
 */
export function textContentOf(
  sessions: SessionRegistry,
  snapshot: Snapshot,
  ref: string,
): Promise<string | null> {
  let batch = pending.get(snapshot);
  if (!batch) {
    const refs: string[] = [];
    const texts = new Promise<ReadonlyMap<string, string | null>>((resolve, reject) => {
      setImmediate(() => {
        pending.delete(snapshot);
        readTexts(sessions, snapshot, refs).then(resolve, reject);
      });
    });
    batch = { refs, texts };
    pending.set(snapshot, batch);
  }
  batch.refs.push(ref);
  return batch.texts.then((texts) => texts.get(ref) ?? null);
}

async function readTexts(
  sessions: SessionRegistry,
  snapshot: Snapshot,
  refs: readonly string[],
): Promise<ReadonlyMap<string, string | null>> {
  const session = sessions.get(snapshot.sessionId);
  const keys = new Map<string, number>();
  for (const ref of new Set(refs)) {
    try {
      const resolved = session.snapshots.resolve(ref, { windowId: snapshot.windowId });
      if (resolved.documentId === snapshot.documentId) keys.set(ref, resolved.key);
    } catch {
      // A ref gone stale since the snapshot: its element has left, so it has no text now.
    }
  }
  const { driver } = await session.window(snapshot.windowId);
  // One character past the cap tells a text that fills it from one that was cut.
  const texts = await driver.textContents(snapshot.documentId, [...keys.values()], MAX_TEXT_CHARS + 1);
  const byRef = new Map<string, string | null>();
  [...keys.keys()].forEach((ref, index) => {
    const text = texts[index] ?? null;
    byRef.set(
      ref,
      text !== null && text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) + TEXT_ELLIPSIS : text,
    );
  });
  return byRef;
}
