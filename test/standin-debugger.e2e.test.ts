import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_MAIN, STAND_IN } from './helpers/fixture-app.js';
import { expectGroupsGone } from './helpers/processes.js';

// webContents.debugger of the stand-in, exercised from the app's main process as an app (or Stagegraph's
// inject upgrade) would: the behaviour of Electron's electron_api_debugger.cc, including its messages.
let app: ElectronApplication;
let pid: number | undefined;

beforeAll(async () => {
  app = await _electron.launch({ executablePath: STAND_IN, args: [FIXTURE_APP_MAIN] });
  pid = app.process().pid;
  const page = await app.firstWindow();
  await page.waitForURL(/index\.html$/, { waitUntil: 'domcontentloaded' });
});
afterAll(async () => {
  await app?.close().catch(() => undefined);
  if (pid) await expectGroupsGone([pid]);
});

describe('webContents.debugger on the stand-in', () => {
  it('attaches once, answers commands, streams events with the root session as "", and detaches as Electron does', async () => {
    const outcome = await app.evaluate(async ({ BrowserWindow }) => {
      const [window] = BrowserWindow.getAllWindows();
      const dbg = window!.webContents.debugger;
      const seen: { method: string; sessionId: string }[] = [];
      const detached: string[] = [];
      dbg.on('message', (_event, method, _params, sessionId) => seen.push({ method, sessionId }));
      dbg.on('detach', (_event, reason) => detached.push(reason));
      dbg.attach('1.3');
      let again = '';
      try {
        dbg.attach();
      } catch (error) {
        again = (error as Error).message;
      }
      await dbg.sendCommand('Runtime.enable');
      const title = await dbg.sendCommand('Runtime.evaluate', {
        expression: 'document.title',
        returnByValue: true,
      });
      const failed = await dbg.sendCommand('No.suchMethod').catch((error: Error) => error.message);
      const empty = await dbg
        .sendCommand('Runtime.evaluate', { expression: '1' }, '')
        .catch((error: Error) => error.message);
      await dbg.sendCommand('Runtime.evaluate', { expression: 'console.log("through the debugger")' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const attachedBefore = dbg.isAttached();
      dbg.detach();
      const after = await dbg
        .sendCommand('Runtime.evaluate', { expression: '1' })
        .catch((error: Error) => error.message);
      return {
        again,
        title: title.result.value,
        failed,
        empty,
        console: seen.find((message) => message.method === 'Runtime.consoleAPICalled'),
        attachedBefore,
        attachedAfter: dbg.isAttached(),
        detached,
        after,
      };
    });
    expect(outcome).toEqual({
      again: 'Debugger is already attached to the target',
      title: 'Stagegraph Fixture',
      failed: expect.stringContaining("wasn't found"),
      empty: 'Empty session id is not allowed',
      console: { method: 'Runtime.consoleAPICalled', sessionId: '' },
      attachedBefore: true,
      attachedAfter: false,
      detached: ['target closed'],
      after: 'No target available',
    });
  });

  it('emits detach with "target closed" when its window closes, rejecting what was pending', async () => {
    const outcome = await app.evaluate(async ({ BrowserWindow }) => {
      const window = new BrowserWindow({ width: 300, height: 200 });
      await window.loadURL('data:text/html,<title>Short-lived</title>');
      const dbg = window.webContents.debugger;
      const reasons: string[] = [];
      dbg.on('detach', (_event, reason) => reasons.push(reason));
      dbg.attach();
      await dbg.sendCommand('Page.enable');
      const pending = dbg
        .sendCommand('Runtime.evaluate', { expression: 'new Promise(() => {})', awaitPromise: true })
        .catch((error: Error) => error.message);
      window.destroy();
      const rejected = await pending;
      return { rejected, reasons, attached: dbg.isAttached() };
    });
    expect(outcome).toEqual({
      rejected: 'target closed while handling command',
      reasons: ['target closed'],
      attached: false,
    });
  });
});
