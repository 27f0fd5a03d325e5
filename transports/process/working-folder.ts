import { statSync } from 'node:fs';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * LAUNCH_FAILED when a launch's `cwd` is not an existing folder, before anything is spawned: spawning in a
 * missing folder fails with the executable's own ENOENT (`spawn /bin/app ENOENT`), which names the wrong
 * culprit.
 */
export function assertWorkingFolder(cwd: string | undefined): void {
  if (cwd === undefined) return;
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    // Missing, or unreadable: not a folder to start in either way.
  }
  if (folder) return;
  throw new StagegraphError('LAUNCH_FAILED', `The working folder "${cwd}" (cwd) is not an existing folder.`, {
    hint: 'Pass `cwd` as an existing folder, or leave it out to start in the server directory.',
    details: { cwd },
  });
}
