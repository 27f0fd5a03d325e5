import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayClient } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/** Arms a timer that throws, a promise that rejects unheard and an emitter's unheard 'error' event. */
const MISFIRE_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/misfire.ts', import.meta.url));
/** The three failures fire within 30 ms of the answer; a safety net for a loaded machine, not a target. */
const STRAY_SAFETY_NET_MS = 60_000;

let served: GatewayProcess | undefined;

afterEach(async () => {
  if (served?.child.exitCode === null) {
    served.child.kill('SIGTERM');
    await served.exited;
  }
  served = undefined;
});

/** Waits until the served gateway's stderr has `count` lines matching `pattern`, or it exits. */
async function strayLines(gateway: GatewayProcess, pattern: RegExp, count: number): Promise<string[]> {
  const deadline = Date.now() + STRAY_SAFETY_NET_MS;
  for (;;) {
    const lines = gateway
      .stderr()
      .split('\n')
      .filter((line) => pattern.test(line));
    if (lines.length >= count || gateway.child.exitCode !== null || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('errors no handler caught, in the served gateway', () => {
  it('are logged without their call logs while the server keeps serving', async () => {
    served = await serveInChild(['--plugin', MISFIRE_PLUGIN]);
    const agent = gatewayClient(served.url);

    expect(await agent.data('mutation { misfireLater }')).toEqual({ misfireLater: 'armed' });
    const logged = await strayLines(served, /misfire: /, 3);

    expect(served.child.exitCode, served.stderr()).toBeNull();
    expect(logged).toEqual([
      expect.stringMatching(/^stray exception \(still serving\): Error: misfire: thrown from a timer \(at /),
      expect.stringMatching(
        /^stray promise rejection \(still serving\): Error: misfire: rejected with nobody listening/,
      ),
      expect.stringMatching(
        /^stray exception \(still serving\): Error: misfire: an error event nobody listens to/,
      ),
    ]);
    expect(served.stderr()).not.toContain('misfire-secret');
    expect(await agent.data('{ sessions { id } errorCodes { code } }')).toMatchObject({ sessions: [] });
    // And it serves the next misfire as it served the first.
    expect(await agent.data('mutation { misfireLater }')).toEqual({ misfireLater: 'armed' });
    expect(await strayLines(served, /misfire: /, 6)).toHaveLength(6);
    expect(await agent.data('{ sessions { id } }')).toEqual({ sessions: [] });
  }, 120_000);
});
