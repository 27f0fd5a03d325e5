import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMain } from './executable.js';

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'stagegraph-main-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('resolveMain', () => {
  it('takes what Electron loads: a script, an app folder by its package.json, a folder with an index.js', () => {
    const app = folder({ 'package.json': '{ "main": "src/main.js" }', 'src/main.js': '' });
    const indexed = folder({ 'index.js': '' });
    expect(resolveMain('src/main.js', app)).toBe(join(app, 'src/main.js'));
    expect(resolveMain(app, '/')).toBe(app);
    expect(resolveMain(indexed, '/')).toBe(indexed);
  });

  it('refuses, before anything starts, a folder Electron finds no app in, naming why', () => {
    const empty = folder({});
    const lost = folder({ 'package.json': '{ "main": "gone.js" }' });
    for (const main of [empty, lost]) {
      expect(() => resolveMain(main, '/')).toThrow(
        expect.objectContaining({
          code: 'LAUNCH_FAILED',
          message: expect.stringMatching(/is not an app Electron can load: Cannot find module/),
          hint: expect.stringContaining('package.json'),
        }),
      );
    }
  });

  it('refuses an entry that is not a regular file, which the app would read for ever', () => {
    expect(() => resolveMain('/dev/zero', '/')).toThrow(
      expect.objectContaining({
        code: 'LAUNCH_FAILED',
        message: expect.stringMatching(/not a regular file/),
      }),
    );
  });

  it('still refuses an entry that does not exist, with where it was looked for', () => {
    expect(() => resolveMain('absent.js', '/nowhere')).toThrow(
      expect.objectContaining({
        code: 'LAUNCH_FAILED',
        details: { main: 'absent.js', resolved: '/nowhere/absent.js' },
      }),
    );
  });
});
