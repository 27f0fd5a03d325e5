import { describe, expect, it } from 'vitest';
import { LEADER_WITH_CHILD, spawnGroup } from '../../test/helpers/spawn-group.js';
import { livingGroupMembers, stopProcessGroup } from './process-group.js';

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
