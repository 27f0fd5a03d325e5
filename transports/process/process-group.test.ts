import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExitInfo } from '../contract/transport.js';
import {
  livingGroupMembers,
  OwnedGroup,
  signalGroup,
  stopProcessGroup,
  waitForGroupGone,
} from './process-group.js';

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
    const exit = await stopProcessGroup({ pgid, exited, graceful: async () => {}, graceMs: 100 });
    expect(exit.signal).toBe('SIGKILL');
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

/** A leader that quits at once on SIGINT while its child takes `ms` to finish, then writes `done`. */
function leaderWithSlowChild(done: string, ms: number): string {
  const child = `process.on('SIGINT', () => setTimeout(() => { require('fs').writeFileSync(${JSON.stringify(done)}, ''); process.exit(0); }, ${ms})); setInterval(() => {}, 1000); console.log('child ready');`;
  return `
    const child = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: ['ignore', 'pipe', 'ignore'] });
    process.on('SIGINT', () => process.exit(0));
    child.stdout.on('data', () => console.log('ready'));
    setInterval(() => {}, 1000);
  `;
}

describe('OwnedGroup', () => {
  it('lets the group finish its own shutdown within the grace after the leader has exited', async () => {
    const done = join(mkdtempSync(join(tmpdir(), 'stagegraph-group-')), 'done');
    const { pgid, exited, ready } = spawnGroup(leaderWithSlowChild(done, 500));
    await ready;
    const group = new OwnedGroup(pgid, exited);
    const exit = await group.stop(async () => signalGroup(pgid, 'SIGINT'), 20_000);
    expect(exit).toEqual({ code: 0, signal: null });
    // Written by the child 500 ms after the leader had gone: nothing SIGKILLed it meanwhile.
    expect(existsSync(done)).toBe(true);
    expect(livingGroupMembers(pgid)).toEqual([]);
  });

  it('reaps what the leader spawned when the leader exits without a stop', async () => {
    const done = join(mkdtempSync(join(tmpdir(), 'stagegraph-group-')), 'done');
    const { pgid, exited, ready } = spawnGroup(leaderWithSlowChild(done, 60_000));
    await ready;
    new OwnedGroup(pgid, exited);
    process.kill(pgid, 'SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(await waitForGroupGone(pgid, 10_000)).toBe(true);
    expect(existsSync(done)).toBe(false);
  });

  it('runs one ladder for repeated stops, and disposal waits for it instead of killing', async () => {
    const done = join(mkdtempSync(join(tmpdir(), 'stagegraph-group-')), 'done');
    const { pgid, exited, ready } = spawnGroup(leaderWithSlowChild(done, 500));
    await ready;
    const group = new OwnedGroup(pgid, exited);
    const first = group.stop(async () => signalGroup(pgid, 'SIGINT'), 20_000);
    expect(group.stopRequested).toBe(true);
    expect(group.stop(async () => undefined, 0)).toBe(first);
    expect(await group.end()).toEqual({ code: 0, signal: null });
    expect(existsSync(done)).toBe(true);
  });
});
