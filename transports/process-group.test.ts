import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ExitInfo } from './contract.js';
import { livingGroupMembers, stopProcessGroup } from './process-group.js';

function spawnGroup(script: string) {
  const child = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<ExitInfo>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  /** Resolves once the script has printed "ready": its signal handlers are in place, however loaded the machine. */
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve()),
  );
  return { pgid: child.pid!, exited, ready };
}

// A leader that spawns a grandchild in its own group, like the stand-in spawning Chromium.
const LEADER_WITH_CHILD = `
  require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  setInterval(() => {}, 1000);
`;

describe('stopProcessGroup', () => {
  it('escalates to SIGTERM when the graceful quit does nothing, and reaps the children', async () => {
    const { pgid, exited, ready } = spawnGroup(`${LEADER_WITH_CHILD} console.log('ready');`);
    await ready;
    expect(livingGroupMembers(pgid).length).toBe(2);
    const exit = await stopProcessGroup({ pgid, exited, graceful: async () => {}, graceMs: 100 });
    expect(exit.signal).toBe('SIGTERM');
    expect(livingGroupMembers(pgid)).toEqual([]);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const { pgid, exited, ready } = spawnGroup(
      `process.on('SIGTERM', () => {}); ${LEADER_WITH_CHILD} console.log('ready');`,
    );
    await ready;
    const started = Date.now();
    const exit = await stopProcessGroup({ pgid, exited, graceful: async () => {}, graceMs: 100 });
    expect(exit.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(livingGroupMembers(pgid)).toEqual([]);
  });

  it('returns the real exit when the graceful quit works', async () => {
    const { pgid, exited, ready } = spawnGroup(
      `process.on('SIGUSR2', () => process.exit(3)); setInterval(() => {}, 1000); console.log('ready');`,
    );
    await ready;
    const exit = await stopProcessGroup({
      pgid,
      exited,
      graceful: async () => process.kill(pgid, 'SIGUSR2'),
      graceMs: 2_000,
    });
    expect(exit).toEqual({ code: 3, signal: null });
  });
});
