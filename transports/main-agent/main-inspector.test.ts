import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectableNode } from '../../test/helpers/inspectable-node.js';
import { CdpConnection } from '../protocol/cdp-connection.js';
import { MainInspector, PROCESS_EXITING } from './main-inspector.js';

const OPEN_TIMEOUT_MS = 10_000;

/** Each call counts the calls in the process beside it, and stays there over a few turns of its loop. */
const OVERLAPPING = `async () => {
  const state = (globalThis.turnTest ??= { inside: 0, most: 0 });
  state.inside += 1;
  state.most = Math.max(state.most, state.inside);
  await new Promise((resolve) => setTimeout(resolve, 5));
  state.inside -= 1;
  return state.most;
}`;

/**
 * A turn's patience that no call here outlasts, however loaded the machine: with the product's 50 ms, a round
 * trip slower than that (load 15 on 2 cores) lets the next call go beside it, as designed.
 */
const PATIENT_MS = 120_000;

describe('MainInspector on a plain Node process', () => {
  let child: ChildProcess;
  let connection: CdpConnection;
  let main: MainInspector;
  let patient: MainInspector;

  beforeAll(async () => {
    const started = await inspectableNode('setInterval(() => {}, 1000)');
    child = started.child;
    connection = await CdpConnection.open(started.url, OPEN_TIMEOUT_MS);
    ({ main } = await MainInspector.install(connection));
    ({ main: patient } = await MainInspector.install(connection, PATIENT_MS));
  });
  afterAll(async () => {
    await connection?.close();
    child?.kill('SIGKILL');
  });

  it('runs its calls one at a time', async () => {
    const most = await Promise.all(Array.from({ length: 4 }, () => patient.run<number>(OVERLAPPING)));
    expect(Math.max(...most)).toBe(1);
  });

  it('a waiting call holds no call behind it', async () => {
    const hold = `() => new Promise((resolve) => { globalThis.releaseWaiting = resolve; })`;
    const waiting = main.run(hold, null, { waits: true });
    await main.run('() => { globalThis.releaseWaiting("released"); return null; }');
    await expect(waiting).resolves.toBe('released');
  });

  it('a call that outlasts its turn holds the next one only briefly, not until its own deadline', async () => {
    // Not marked as waiting, and it answers only when the call after it runs: strict turns would hold that
    // call until this one's 10 s deadline failed it.
    const slow = main.run(`() => new Promise((resolve) => { globalThis.releaseSlow = resolve; })`);
    const next = main.run('() => { globalThis.releaseSlow("released"); return "ran"; }');
    await expect(next).resolves.toBe('ran');
    await expect(slow).resolves.toBe('released');
  });
});

describe('MainInspector when the process ends by itself', () => {
  it('leaves, so the process exits rather than waiting for the session, and says why', async () => {
    // Told to end by a signal, not by a call: a call that ends the process may or may not be answered
    // before the process says it is exiting (then it fails as "exiting before it answered").
    const { child, url } = await inspectableNode(
      "const keepAlive = setInterval(() => {}, 1000); process.once('SIGUSR2', () => clearInterval(keepAlive));",
    );
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const connection = await CdpConnection.open(url, OPEN_TIMEOUT_MS);
    try {
      const { main } = await MainInspector.install(connection);
      const closed = new Promise<string>((resolve) => connection.onClose(resolve));
      child.kill('SIGUSR2');
      await expect(exited).resolves.toEqual({ code: 0, signal: null });
      await expect(closed).resolves.toBe(PROCESS_EXITING);
      expect(main.closed).toBe(true);
    } finally {
      await connection.close();
      child.kill('SIGKILL');
    }
  });
});
