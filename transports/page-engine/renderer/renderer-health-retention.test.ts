import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { reachableUsage } from '../../../test/helpers/reachable-heap.js';
import { RendererHealth } from './renderer-health.js';

/** A page that answers at once and never crashes: its renderer lives as long as the session. */
function livePage(): Page {
  return Object.assign(new EventEmitter(), { evaluate: async () => true }) as unknown as Page;
}

/** Runs `count` calls through `health`, each answering a fresh result; returns weak references to them. */
async function answeredCalls(health: RendererHealth, count: number): Promise<WeakRef<object>[]> {
  const results: WeakRef<object>[] = [];
  for (let call = 0; call < count; call += 1)
    results.push(
      new WeakRef(await health.guard('snapshot', 5_000, async () => ({ nodes: new Array(100).fill(call) }))),
    );
  return results;
}

describe('RendererHealth keeps nothing of a call that has answered', () => {
  it("holds none of 1,000 answered calls' results while its renderer lives (it held every one)", async () => {
    const health = new RendererHealth(livePage());
    const results = await answeredCalls(health, 1_000);
    // A WeakRef keeps its target until the task that made it ends.
    await nextTurn();
    reachableUsage();
    expect(results.filter((result) => result.deref() !== undefined)).toHaveLength(0);
    // Still in use after the collection, as a session's page is: what it holds was counted.
    await expect(health.guard('snapshot', 5_000, async () => 'live')).resolves.toBe('live');
  });
});
