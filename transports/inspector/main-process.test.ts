import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectableNode } from '../../test/helpers/inspectable-node.js';
import { InjectDeadline } from './inject-deadline.js';
import { MainProcess } from './main-process.js';

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  ({ child, url } = await inspectableNode('setInterval(() => {}, 1000)'));
});
afterAll(() => {
  child?.kill('SIGKILL');
});

describe('MainProcess', () => {
  it('refuses an inspector that belongs to another process than the pid asked for', async () => {
    const wrong = (child.pid as number) + 1;
    await expect(MainProcess.connect(url, new InjectDeadline(wrong, 30_000))).rejects.toMatchObject({
      code: 'INJECT_FAILED',
      message: expect.stringContaining(`belongs to pid ${child.pid}`),
    });
  });

  it('connects to the right one; a plain Node process has no Electron API but runs shipped source', async () => {
    const main = await MainProcess.connect(url, new InjectDeadline(child.pid as number, 30_000));
    expect(main.electron).toBe(false);
    expect(await main.run<number>('(electron, arg) => (electron === null ? arg * 2 : -1)', 21)).toBe(42);
    // Source that throws in the app is a protocol failure of Runtime.evaluate, in the app's words only.
    await expect(main.run('() => { throw new TypeError("nope") }')).rejects.toMatchObject({
      kind: 'protocol',
      method: 'Runtime.evaluate',
      code: 'PROTOCOL_ERROR',
      message: 'Runtime.evaluate: TypeError: nope',
    });
    await main.release(false);
    expect(main.closed).toBe(true);
  });
});

/**
 * Passes through Node's next-tick queue without pause: each immediate queues a tick and the next immediate,
 * so the inspector's interrupts keep landing in the tail of `processTicksAndRejections`.
 */
const TICK_CHURN = `globalThis.shipped = 0; globalThis.own = 0;
  const churn = () => { process.nextTick(() => { globalThis.own += 1; }); setImmediate(churn); }; churn();`;
/** Shipped source run inside the inspector's interrupt stalled the queue within 80 runs here, in 20 of 20 tries. */
const CHURN_RUNS = 300;

describe('MainProcess in an app that never stops passing through its next-tick queue', () => {
  let churning: ChildProcess;
  let churningUrl: string;

  beforeAll(async () => {
    ({ child: churning, url: churningUrl } = await inspectableNode(TICK_CHURN));
  });
  afterAll(() => {
    churning?.kill('SIGKILL');
  });

  it('every next tick that shipped source queues runs, and the app keeps its own', async () => {
    const main = await MainProcess.connect(churningUrl, new InjectDeadline(churning.pid as number, 30_000));
    for (let run = 0; run < CHURN_RUNS; run += 1) {
      const seen = await main.run<number>(
        '() => { const seen = globalThis.shipped; process.nextTick(() => { globalThis.shipped = seen + 1; }); return seen; }',
      );
      expect(seen, `the tick run ${run - 1} queued never ran: the app's next-tick queue stalled`).toBe(run);
    }
    const own = await main.run<number>('() => globalThis.own');
    await expect
      .poll(() => main.run<number>('() => globalThis.own'), { timeout: 30_000 })
      .toBeGreaterThan(own);
    await main.release(false);
  });
});
