import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { Policy } from './policy.js';
import { PolicyWatcher } from './policy-watcher.js';

const dir = mkdtempSync(join(tmpdir(), 'stagegraph-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEBOUNCE_MS = 20;
/** fs.watch delivers within milliseconds on Linux; this is generous for a loaded CI machine. */
const EVENT_WAIT_MS = 5_000;

function waitFor<T>(register: (settle: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no watcher event')), EVENT_WAIT_MS);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

describe('PolicyWatcher', () => {
  it('reloads on change (also when saved by rename), keeps the last good policy on a bad save, and disposes', async () => {
    const path = join(dir, 'policy.yaml');
    writeFileSync(path, 'rules:\n  - { id: first, decision: ALLOW }\n');
    let onReload: (policy: Policy) => void = () => undefined;
    let onError: (error: StagegraphError) => void = () => undefined;
    const watcher = await PolicyWatcher.open(path, {
      debounceMs: DEBOUNCE_MS,
      onReload: (policy) => onReload(policy),
      onError: (error) => onError(error),
    });
    try {
      expect(watcher.current.rules[0]!.id).toBe('first');

      const reloaded = waitFor<Policy>((settle) => {
        onReload = settle;
      });
      writeFileSync(path, 'rules:\n  - { id: second, decision: DENY }\n');
      expect((await reloaded).rules[0]!.id).toBe('second');

      const failed = waitFor<StagegraphError>((settle) => {
        onError = settle;
      });
      writeFileSync(path, 'rules:\n  - { id: third, decision: PERHAPS }\n');
      expect((await failed).code).toBe('POLICY_INVALID');
      expect(watcher.current.rules[0]!.id).toBe('second');

      const renamed = waitFor<Policy>((settle) => {
        onReload = settle;
      });
      writeFileSync(join(dir, 'policy.yaml.tmp'), 'rules:\n  - { id: fourth, decision: ASK }\n');
      renameSync(join(dir, 'policy.yaml.tmp'), path);
      expect((await renamed).rules[0]!.id).toBe('fourth');
    } finally {
      watcher.dispose();
    }
    let calls = 0;
    onReload = () => {
      calls += 1;
    };
    writeFileSync(path, 'rules:\n  - { id: fifth, decision: ASK }\n');
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS * 5));
    expect(calls).toBe(0);
    expect(watcher.current.rules[0]!.id).toBe('fourth');
  });

  it('refuses to start on an invalid file', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'rules: 3\n');
    await expect(PolicyWatcher.open(path)).rejects.toMatchObject({ code: 'POLICY_INVALID' });
  });
});
