import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { assertWorkingFolder } from './working-folder.js';

describe('assertWorkingFolder', () => {
  it('passes an existing folder, or none', () => {
    expect(() => assertWorkingFolder(tmpdir())).not.toThrow();
    expect(() => assertWorkingFolder(undefined)).not.toThrow();
  });

  it('refuses a missing folder and a file with LAUNCH_FAILED naming the cwd, not the executable', () => {
    for (const cwd of ['/no/such/folder', '/etc/passwd']) {
      expect(() => assertWorkingFolder(cwd)).toThrow(
        expect.objectContaining({
          code: 'LAUNCH_FAILED',
          message: expect.stringContaining(`"${cwd}" (cwd)`),
        }),
      );
    }
  });
});
