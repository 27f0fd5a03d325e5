import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appIsolation, isolatedCommand } from './isolation.js';

const isolation = appIsolation('auto');

describe('app isolation', () => {
  it('off starts commands as they are', () => {
    expect(isolatedCommand(appIsolation('off'), 'sh', ['-c', 'true'], process.env)).toEqual({
      command: 'sh',
      args: ['-c', 'true'],
    });
  });

  it('leaves a command that cannot be found alone, so its own ENOENT names it', () => {
    expect(isolatedCommand(isolation, '/no/such/app', ['x'], process.env)).toEqual({
      command: '/no/such/app',
      args: ['x'],
    });
  });

  it.skipIf(isolation.mode === 'none')(
    'an isolated command sees its own processes only, as PID 2 under an init that passes signals on',
    () => {
      const script = 'echo $$; ls /proc | grep -c "^[0-9]"; kill -TERM $$; sleep 5';
      const run = isolatedCommand(isolation, 'sh', ['-c', script], process.env);
      const result = spawnSync(run.command, run.args, { encoding: 'utf8', timeout: 30_000 });
      const [pid, visible] = result.stdout.trim().split('\n').map(Number);
      expect(pid).toBe(2);
      // unshare (PID 1), sh, ls and grep: nothing of this test's process tree.
      expect(visible).toBeLessThanOrEqual(4);
      // SIGTERM reached the shell (PID 2) and ended it before its sleep.
      expect(result.status).not.toBe(0);
    },
  );

  it.skipIf(isolation.mode !== 'none')('reports why apps are not isolated here', () => {
    expect(isolation.note).toMatch(/NOT isolated/);
  });
});
