import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: the run's temporary files go to a folder of its own, removed when the run ends.
 * Tests make scratch folders, and the processes they start make more (Chromium profiles and singleton
 * sockets, Playwright's artifacts, a killed app's leftovers); one run left about 70 entries in /tmp. The
 * workers and every process they start inherit TMPDIR, which `os.tmpdir()` and Chromium both follow.
 */
export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'stagegraph-test-run-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
