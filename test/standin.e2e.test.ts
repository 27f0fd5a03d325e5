import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_APP_MAIN, STAND_IN } from './helpers/fixture-app.js';
import { expectGroupsGone, livingGroupMembers } from './helpers/processes.js';

// The stand-in alone, driven by Playwright's own Electron support with no gateway involved: proof that
// `_electron.launch({ executablePath })` works on it unmodified.
let app: ElectronApplication | undefined;
let pid: number | undefined;

afterEach(async () => {
  await app?.close().catch(() => undefined);
  if (pid) await expectGroupsGone([pid]);
  app = undefined;
  pid = undefined;
});

/** Launches the fixture and waits for its window: the state a caller works in. */
async function launch(): Promise<ElectronApplication> {
  app = await _electron.launch({ executablePath: STAND_IN, args: [FIXTURE_APP_MAIN] });
  pid = app.process().pid;
  await app.firstWindow();
  return app;
}

/** The Chromium profiles in the temp folder of the stand-in with this pid. */
/** The id of this process's PID namespace, which the stand-ins started here share and name their profiles by. */
const PID_NAMESPACE = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '';

function profilesOf(pid: number): string[] {
  return readdirSync(tmpdir()).filter((name) =>
    name.startsWith(`electron-standin-chromium-${PID_NAMESPACE}-${pid}-`),
  );
}

describe('the Electron-API stand-in under Playwright', () => {
  it('opens the fixture window, logs, answers main-process evaluation and IPC', async () => {
    const electron = await launch();
    const page = await electron.firstWindow();
    // A new window starts on about:blank; the app's page is the navigation after it.
    await page.waitForURL(/index\.html$/, { waitUntil: 'domcontentloaded' });
    expect(await page.title()).toBe('Stagegraph Fixture');
    // The page logs as it starts, which on a loaded machine can come before any listener here could be
    // added: the log is asked for again by a reload that starts after the listener.
    const started = page.waitForEvent('console', (message) => message.text() === 'fixture: started');
    await page.reload();
    expect((await started).location().url).toMatch(/renderer\.js$/);
    expect(await electron.evaluate(({ app }) => [app.getName(), app.getVersion(), app.isReady()])).toEqual([
      'Stagegraph Fixture',
      '1.0.0',
      true,
    ]);
    expect(
      await electron.evaluate(() => [
        process.versions.electron,
        process.versions['electron-standin'],
        process.type,
      ]),
    ).toEqual([undefined, '0.1.0', 'browser']);
    const window = await electron.browserWindow(page);
    expect(await window.evaluate((w: Electron.BrowserWindow) => w.getBounds())).toMatchObject({
      width: 900,
      height: 700,
    });
    expect(
      await page.evaluate(() =>
        (window as unknown as { fixture: { ping(): Promise<string> } }).fixture.ping(),
      ),
    ).toBe('pong');
  });

  it('opens a second window through the app and its IPC, and reads the application menu', async () => {
    const electron = await launch();
    const page = await electron.firstWindow();
    await page.waitForURL(/index\.html$/);
    const second = electron.waitForEvent('window');
    await page.getByTestId('open-second').click();
    const secondPage = await second;
    await secondPage.waitForURL(/second\.html$/, { waitUntil: 'domcontentloaded' });
    expect(await secondPage.title()).toBe('Second Window');
    expect(electron.windows()).toHaveLength(2);
    const menu = await electron.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()?.items.map((item) => [
        item.label,
        item.submenu?.items.map((sub) => sub.label || sub.type),
      ]),
    );
    expect(menu).toEqual([
      ['File', ['New Window', 'Save', 'separator', 'Quit']],
      ['View', ['Dark Mode']],
      ['Help', ['About', 'Version 1.0.0']],
    ]);
  });

  it('throws "not implemented in stand-in" for what it lacks', async () => {
    const electron = await launch();
    const message = await electron.evaluate((electronModule) => {
      try {
        return String((electronModule as unknown as Record<string, unknown>).clipboard);
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toBe('not implemented in stand-in: electron.clipboard');
  });

  it('leaves no process behind on close, nor after kill -9 and a group kill', async () => {
    const electron = await launch();
    const closedPid = electron.process().pid!;
    expect(livingGroupMembers(closedPid).length).toBeGreaterThan(1);
    await electron.close();
    app = undefined;
    await expectGroupsGone([closedPid]);

    expect(profilesOf(closedPid)).toEqual([]);

    const killed = await launch();
    const killedPid = killed.process().pid!;
    process.kill(killedPid, 'SIGKILL');
    process.kill(-killedPid, 'SIGKILL');
    app = undefined;
    await expectGroupsGone([killedPid]);
    // Killed, it could not remove its Chromium profile: the next stand-in does.
    expect(profilesOf(killedPid)).toHaveLength(1);
    app = await launch();
    expect(profilesOf(killedPid)).toEqual([]);
  });

  it('removes a killed stand-in’s profile whose pid a running process has taken since', async () => {
    // A test run wraps Linux's 32768 pids: this process stands for the one that took the pid, the start
    // time 1 for the killed stand-in that had it before.
    const stale = join(tmpdir(), `electron-standin-chromium-${PID_NAMESPACE}-${process.pid}-1-pidreuse`);
    mkdirSync(stale);
    try {
      await launch();
      expect(existsSync(stale)).toBe(false);
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });

  it('closes its Chromium when the app quits before it is ready', async () => {
    // Playwright's launch returns once Chromium prints its endpoint, before the stand-in holds that
    // Chromium: an app quit then (or at load, as here) ended the stand-in and left its Chromium running.
    const folder = mkdtempSync(join(tmpdir(), 'stagegraph-standin-quit-'));
    const main = join(folder, 'main.js');
    writeFileSync(main, "require('electron').app.quit();\n");
    try {
      const child = spawn(STAND_IN, [main], { detached: true, stdio: 'ignore' });
      const exit = await new Promise((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      expect(exit).toEqual({ code: 0, signal: null });
      const quitPid = child.pid as number;
      await expectGroupsGone([quitPid]);
      expect(profilesOf(quitPid)).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
