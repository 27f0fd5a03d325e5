import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { firstToSettle } from '../../test/helpers/event-loop.js';
import { tablePage } from '../../test/helpers/fabricated-snapshots.js';
import { NODES_PER_STEP } from './reconcile-nodes.js';
import { RefStore } from './ref-store.js';

/** A page several reconciliation steps long: 2,000 rows, about 20,000 nodes. */
const ROWS = 2_000;

describe('RefStore.record in turns of the event loop', () => {
  it('lets the event loop turn while it reconciles a big page, with the refs a one-go record gives', async () => {
    const page = tablePage(ROWS);
    expect(page.nodes.length).toBeGreaterThan(2 * NODES_PER_STEP);
    const inTurns = new RefStore('s1');
    const recording = inTurns.record('w1', page, {}, inTurns.actions.mark);
    expect(await firstToSettle(recording)).toBe('turn');
    const oneGo = new RefStore('s1').recordNow('w1', page);
    expect((await recording).nodes).toEqual(oneGo.nodes);
  });

  it('records the reads of one window in the order they were asked, even when they overlap', async () => {
    const first = tablePage(ROWS);
    const rerendered = tablePage(ROWS, {
      firstKey: first.nodes.length + 1,
      detached: first.nodes.map((node) => node.key),
    });
    const store = new RefStore('s1');
    const [before, after] = await Promise.all([
      store.record('w1', first, {}, store.actions.mark),
      store.record('w1', rerendered, {}, store.actions.mark),
    ]);
    expect([before.id, after.id]).toEqual(['w1#1', 'w1#2']);
    const sequential = new RefStore('s1');
    sequential.recordNow('w1', first);
    expect(after.nodes).toEqual(sequential.recordNow('w1', rerendered).nodes);
    expect(after.nodes.map((node) => node.ref)).toEqual(before.nodes.map((node) => node.ref));
  });

  it('answers WINDOW_NOT_FOUND when the window is forgotten during the read, and records the next one', async () => {
    const store = new RefStore('s1');
    const recording = store.record('w1', tablePage(ROWS), {}, store.actions.mark);
    await setImmediate();
    store.forgetWindow('w1');
    const failure = await recording.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StagegraphError);
    expect((failure as StagegraphError).code).toBe('WINDOW_NOT_FOUND');
    const next = await store.record('w1', tablePage(10), {}, store.actions.mark);
    expect(next.nodes[0]?.ref).toBeDefined();
    expect(store.resolve(next.nodes[0]!.ref).windowId).toBe('w1');
  });
});
