import { describe, expect, it, vi } from 'vitest';
import { rawSnapshot } from '../../test/helpers/fabricated-snapshots.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { RefStore } from './ref-store.js';
import { MAX_TEXT_CHARS, TEXT_ELLIPSIS } from './snapshot.js';
import { textContentOf } from './text-content.js';

/** A registry of one session whose window's driver answers textContents from a table, counting calls. */
function oneSession(texts: Record<number, string | null>) {
  const snapshots = new RefStore('s1');
  const textContents = vi.fn(async (_documentId: string, keys: readonly number[]) =>
    keys.map((key) => texts[key] ?? null),
  );
  const session = { id: 's1', snapshots, window: async () => ({ driver: { textContents } }) };
  const sessions = { get: () => session } as unknown as SessionRegistry;
  const snapshot = snapshots.recordNow(
    'w1',
    rawSnapshot({
      role: 'document',
      key: 1,
      children: [
        { role: 'listitem', key: 2 },
        { role: 'listitem', key: 3 },
        { role: 'listitem', key: 4 },
      ],
    }),
  );
  return { sessions, snapshot, textContents };
}

describe('textContentOf', () => {
  it('reads the nodes of one snapshot asked in the same tick in one call', async () => {
    const { sessions, snapshot, textContents } = oneSession({ 2: 'one', 3: 'two', 4: null });
    const texts = await Promise.all(
      snapshot.nodes.slice(1).map((node) => textContentOf(sessions, snapshot, node.ref)),
    );
    expect(texts).toEqual(['one', 'two', null]);
    expect(textContents).toHaveBeenCalledTimes(1);
    expect(textContents.mock.calls[0]?.[1]).toEqual([2, 3, 4]);
    await textContentOf(sessions, snapshot, snapshot.nodes[1]!.ref);
    expect(textContents).toHaveBeenCalledTimes(2);
  });

  it('caps a long text with the ellipsis `text` uses', async () => {
    const { sessions, snapshot } = oneSession({ 2: 'x'.repeat(MAX_TEXT_CHARS + 1) });
    const text = await textContentOf(sessions, snapshot, snapshot.nodes[1]!.ref);
    expect(text).toBe('x'.repeat(MAX_TEXT_CHARS) + TEXT_ELLIPSIS);
  });
});
