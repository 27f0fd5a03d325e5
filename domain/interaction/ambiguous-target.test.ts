import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { rawSnapshot } from '../../test/helpers/fabricated-snapshots.js';
import type { Session } from '../sessions/session.js';
import { RefStore } from '../snapshot/ref-store.js';
import { withCandidateRefs } from './ambiguous-target.js';

describe('withCandidateRefs', () => {
  const snapshots = new RefStore('s1');
  const session = { id: 's1', snapshots } as unknown as Session;
  const seen = snapshots.recordNow(
    'w1',
    rawSnapshot({ role: 'document', key: 1, children: [{ role: 'button', name: 'Done', key: 7 }] }),
  );
  const node = (key: number) => ({
    key,
    parent: 1,
    role: 'button',
    name: 'Done',
    states: [],
    interactive: true,
  });
  const ambiguous = new StagegraphError('AMBIGUOUS_TARGET', '2 elements match role button named "Done".', {
    details: {
      count: 2,
      documentId: 'doc-1',
      candidates: [
        { node: node(7), testId: 'first' },
        { node: node(9), testId: null },
      ],
      target: { kind: 'role', role: 'button', name: 'Done' },
    },
  });

  it('names each candidate by ref: the one it has, or a new one', () => {
    const error = withCandidateRefs(ambiguous, session, 'w1') as StagegraphError;
    const known = seen.nodes[1]!.ref;
    expect(error.code).toBe('AMBIGUOUS_TARGET');
    expect(error.details?.candidates).toEqual([
      { ref: known, role: 'button', name: 'Done', testId: 'first' },
      { ref: expect.stringMatching(/^e\d+$/), role: 'button', name: 'Done', testId: null },
    ]);
    const [first, second] = error.similarRefs ?? [];
    expect(first).toEqual({ ref: known, role: 'button', name: 'Done', score: 1 });
    expect(second?.ref).not.toBe(known);
    expect(error.nextActions).toEqual([
      'query { session(id: "s1") { window(id: "w1") { snapshot(interactiveOnly: true) { outline } } } }',
    ]);
  });

  it('passes any other error through unchanged', () => {
    const other = new StagegraphError('SELECTOR_NO_MATCH', 'none');
    expect(withCandidateRefs(other, session, 'w1')).toBe(other);
  });
});
