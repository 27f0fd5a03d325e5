import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { inspectableNode } from '../../test/helpers/inspectable-node.js';
import { STORE } from '../main-agent/main-inspector.js';
import { AgentChannel } from './agent-channel.js';
import { withAgentLink } from './agent-link.js';
import { injectReleaseSource } from './agent-sources.js';
import { INJECT_AGENT_KEY, installInjectAgent } from './inject-agent.js';
import { InjectDeadline } from './inject-deadline.js';
import { MainProcess } from './main-process.js';

/** Passes through its next-tick queue without pause, so the inspector's interrupts land in its tail. */
const TICK_CHURN = 'const churn = () => { process.nextTick(() => {}); setImmediate(churn); }; churn();';
/**
 * Evaluations that queue a tick where the inspector lands stall the queue by chance: after 1 to 1,420 tries
 * in 27 runs here (at most 2,000 tries, a run failed 3 times in 15), at about a millisecond a try.
 */
const STALL_TRIES = 30_000;

/** The inject agent on an Electron API with no windows: what the link read needs, in a plain Node app. */
const AGENT_WITHOUT_WINDOWS = `(electron, channel) => {
  var __name = (target) => target;
  const noWindows = {
    app: { on() {}, removeListener() {} },
    BrowserWindow: { getAllWindows: () => [] },
    webContents: {},
  };
  globalThis[Symbol.for(${JSON.stringify(INJECT_AGENT_KEY)})] = (${installInjectAgent})(noWindows, ${STORE}.net, channel);
  return true;
}`;

const timedOut = () =>
  new StagegraphError('INJECT_TIMEOUT', 'Inject into pid 1 timed out after 15000 ms while waiting.', {
    details: { step: 'waiting for the inject agent to connect back' },
  });

let child: ChildProcess;
let main: MainProcess;

beforeAll(async () => {
  let url: string;
  ({ child, url } = await inspectableNode(TICK_CHURN));
  main = await MainProcess.connect(url, new InjectDeadline(child.pid as number, 30_000));
});
afterAll(async () => {
  await main?.release(false);
  child?.kill('SIGKILL');
});

describe('an INJECT_TIMEOUT waiting for the agent says how its link and the app stand', () => {
  it('a connected agent in a healthy app: connected, and the loop and its next ticks run', async () => {
    const channel = await AgentChannel.open();
    await main.run(AGENT_WITHOUT_WINDOWS, { port: channel.port, token: channel.token });
    await channel.connected;
    const error = await withAgentLink(timedOut(), main).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'INJECT_TIMEOUT',
      message: expect.stringContaining(
        "The agent's socket is connected. The app's event loop and next-tick queue run.",
      ),
      details: {
        step: 'waiting for the inject agent to connect back',
        agentLink: { state: 'connected', socket: { connecting: false, readyState: 'open' } },
        appLoop: { turns: true, nextTicksRun: true },
      },
    });
    await main.run(injectReleaseSource());
    await channel.close();
  });

  it('an app whose next-tick queue stalled: still connecting, its connect never attempted, ticks not run', async () => {
    // Queue a tick where the inspector lands (what shipped source once did) until the queue stalls.
    let stalled = false;
    for (let attempt = 1; attempt <= STALL_TRIES && !stalled; attempt += 1) {
      await main.peek(`process.nextTick(() => { globalThis.probe = ${attempt}; })`);
      stalled = (await main.run<number>('() => globalThis.probe')) !== attempt;
    }
    expect(stalled, `no stall in ${STALL_TRIES} evaluations: has Node closed the race?`).toBe(true);
    const channel = await AgentChannel.open();
    await main.run(AGENT_WITHOUT_WINDOWS, { port: channel.port, token: channel.token });
    const error = await withAgentLink(timedOut(), main).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'INJECT_TIMEOUT',
      message: expect.stringContaining(
        "The agent's socket is still connecting (no connect attempt reported). The app's event loop turns but its next-tick queue does not run.",
      ),
      details: {
        agentLink: {
          state: 'connecting',
          socket: { connecting: true, pending: true, readyState: 'opening', connectAttempted: false },
        },
        appLoop: { turns: true, nextTicksRun: false },
      },
    });
    await channel.close();
  });
});
