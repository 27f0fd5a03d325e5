import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LEADER_WITH_CHILD, leaderWithSlowChild, spawnGroup } from '../../test/helpers/spawn-group.js';
import { OwnedGroup } from './owned-group.js';
import * as processGroup from './process-group.js';

// The group operations run for real; spying on them shows which reached a group, and when.
vi.mock('./process-group.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./process-group.js')>();
  return { ...actual, reapGroup: vi.fn(actual.reapGroup), signalGroup: vi.fn(actual.signalGroup) };
});
const { livingGroupMembers, signalGroup, waitForGroupGone } = processGroup;

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

  it('never signals or reaps its pgid again once the group is gone: the pgid may name another program’s group', async () => {
    const { pgid, exited, ready } = spawnGroup(`${LEADER_WITH_CHILD} console.log('ready');`);
    await ready;
    const group = new OwnedGroup(pgid, exited);
    process.kill(pgid, 'SIGKILL');
    await exited;
    await vi.waitFor(() => expect(vi.mocked(processGroup.reapGroup)).toHaveBeenCalledWith(pgid));
    expect(await waitForGroupGone(pgid, 10_000)).toBe(true);
    // The reap after the leader's exit is what saw the group empty; let it return.
    await vi.mocked(processGroup.reapGroup).mock.results.at(-1)?.value;
    vi.mocked(processGroup.reapGroup).mockClear();
    vi.mocked(processGroup.signalGroup).mockClear();

    expect(await group.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await group.end()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await group.stop(async () => undefined, 0)).toEqual({ code: null, signal: 'SIGKILL' });

    expect(vi.mocked(processGroup.reapGroup)).not.toHaveBeenCalled();
    expect(vi.mocked(processGroup.signalGroup)).not.toHaveBeenCalled();
  });
});
