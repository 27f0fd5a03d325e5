import { describe, expect, it } from 'vitest';
import { isLauncherLeftover } from './launcher-leftovers.js';

function error(message: string, frame: string): Error {
  return Object.assign(new Error(message), {
    stack: `Error: ${message}\n    at ${frame}\n    at next (x.js:1:1)`,
  });
}

describe('isLauncherLeftover', () => {
  it("knows the stderr waits Playwright's Electron launcher leaves behind a failed launch", () => {
    expect(
      isLauncherLeftover(
        error(
          'Process failed to launch!',
          'waitForLine (/app/node_modules/playwright-core/lib/coreBundle.js:45950:21)',
        ),
      ),
    ).toBe(true);
  });

  it('knows nothing else: the same words from elsewhere, other errors, what is not an Error', () => {
    expect(
      isLauncherLeftover(error('Process failed to launch!', 'ourLaunch (/app/transports/x.ts:1:1)')),
    ).toBe(false);
    expect(
      isLauncherLeftover(
        error('Timeout exceeded', 'waitForLine (/app/node_modules/playwright-core/lib/coreBundle.js:1:1)'),
      ),
    ).toBe(false);
    expect(isLauncherLeftover('Process failed to launch!')).toBe(false);
  });
});
