import { describe, expect, it } from 'vitest';
import { desktopAttachOptions, desktopLaunchOptions } from './desktop-requests.js';

describe('desktop requests', () => {
  it('fills a launch with its defaults and the session folder', () => {
    expect(desktopLaunchOptions({ command: '/usr/bin/python3', args: ['app.py'] }, '/tmp/s1')).toEqual({
      command: '/usr/bin/python3',
      args: ['app.py'],
      env: {},
      timeoutMs: 30_000,
      outputDir: '/tmp/s1',
    });
    expect(
      desktopLaunchOptions(
        { command: 'gedit', env: [{ name: 'LANG', value: 'C' }], timeoutMs: 5 },
        '/tmp/s2',
      ),
    ).toMatchObject({ env: { LANG: 'C' }, timeoutMs: 1_000 });
    expect(() => desktopLaunchOptions({ command: ' ' }, '/tmp/s3')).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT' }),
    );
  });

  it('attaches by exactly one of pid and appName', () => {
    expect(desktopAttachOptions({ pid: 4242 })).toEqual({ pid: 4242, timeoutMs: 15_000 });
    expect(desktopAttachOptions({ appName: 'app.py', timeoutMs: 500_000 })).toEqual({
      appName: 'app.py',
      timeoutMs: 120_000,
    });
    for (const request of [{}, { pid: 4242, appName: 'app.py' }, { pid: 1 }, { appName: '' }])
      expect(() => desktopAttachOptions(request), JSON.stringify(request)).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
  });
});
