import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { IpcMessage } from '../contract/native.js';
import { createAgentCore } from './agent-core.js';
import { installIpcHooks } from './ipc-hooks.js';
import type { AgentCore } from './shapes.js';

/** ipcMain, app, WebContents and BrowserWindow shaped as Electron's, handlers kept as Electron keeps them. */
function electronShaped() {
  class IpcMain extends EventEmitter {
    invokeHandlers = new Map<string, (...args: unknown[]) => unknown>();
    handle(channel: string, handler: (...args: unknown[]) => unknown) {
      if (this.invokeHandlers.has(channel)) throw new Error(`second handler for '${channel}'`);
      this.invokeHandlers.set(channel, handler);
    }
    handleOnce(channel: string, handler: (...args: unknown[]) => unknown) {
      this.handle(channel, (...args: unknown[]) => {
        this.removeHandler(channel);
        return handler(...args);
      });
    }
    removeHandler(channel: string) {
      this.invokeHandlers.delete(channel);
    }
  }
  class WebContents {
    sent: unknown[][] = [];
    constructor(readonly id: number) {}
    send(channel: string, ...args: unknown[]) {
      this.sent.push([channel, ...args]);
    }
  }
  const app = new EventEmitter();
  const page = new WebContents(7);
  const window = { id: 1, webContents: page };
  const BrowserWindow = { getFocusedWindow: () => null, getAllWindows: () => [window] };
  return { Menu: {}, BrowserWindow, ipcMain: new IpcMain(), app, WebContents, page };
}

async function messages(core: AgentCore): Promise<IpcMessage[]> {
  const { events } = await core.next(0);
  return events.flatMap(({ event }) => (event.kind === 'ipc' ? [event.message] : []));
}

describe('IPC hooks on Electron-shaped objects', () => {
  it('report sends both ways, invokes and results, on allowlisted channels only', async () => {
    const electron = electronShaped();
    const core = createAgentCore();
    const hooks = installIpcHooks(electron, core);
    electron.ipcMain.handle('app:add', (_event, a, b) => (a as number) + (b as number));
    hooks.setCapture(['app:*']);
    electron.ipcMain.emit('app:hello', { sender: electron.page }, 'hi');
    electron.ipcMain.emit('other:noise', { sender: electron.page }, 'unseen');
    // A page's invoke runs whatever Electron keeps for the channel: the hooks' wrapper.
    expect(await electron.ipcMain.invokeHandlers.get('app:add')?.({ sender: electron.page }, 2, 3)).toBe(5);
    // WebContents created later are patched through app's web-contents-created.
    const later = new electron.WebContents(8);
    electron.app.emit('web-contents-created', {}, later);
    later.send('app:tick', 1);
    expect(later.sent).toEqual([['app:tick', 1]]);
    expect(
      (await messages(core)).map((m) => [m.direction, m.kind, m.channel, m.args, m.webContentsId]),
    ).toEqual([
      ['renderer-to-main', 'send', 'app:hello', '["hi"]', 7],
      ['renderer-to-main', 'invoke', 'app:add', '[2,3]', 7],
      ['main-to-renderer', 'result', 'app:add', '5', 7],
      ['main-to-renderer', 'send', 'app:tick', '[1]', 8],
    ]);
  });

  it('invoke calls the handler with the first window as sender; no_handler and failed are refused honestly', async () => {
    const electron = electronShaped();
    const core = createAgentCore();
    const hooks = installIpcHooks(electron, core);
    electron.ipcMain.handle('app:who', (event) => (event as { sender: { id: number } }).sender.id);
    electron.ipcMain.handleOnce('app:once', () => 'first');
    electron.ipcMain.handle('app:fail', () => {
      throw new RangeError('too far');
    });
    expect(await hooks.invoke('app:who', [])).toEqual({
      invoked: true,
      reason: null,
      json: '7',
      error: null,
    });
    expect((await hooks.invoke('app:once', [])).json).toBe('"first"');
    expect((await hooks.invoke('app:once', [])).reason).toBe('no_handler');
    expect(await hooks.invoke('app:fail', [])).toEqual({
      invoked: false,
      reason: 'failed',
      json: null,
      error: 'RangeError: too far',
    });
    expect(await hooks.invoke('app:none', [])).toMatchObject({ invoked: false, reason: 'no_handler' });
  });

  it('cuts large arguments at the bound and says how long they were', async () => {
    const electron = electronShaped();
    const core = createAgentCore();
    const hooks = installIpcHooks(electron, core);
    hooks.setCapture(['big']);
    electron.ipcMain.emit('big', { sender: electron.page }, 'x'.repeat(5_000));
    const [message] = await messages(core);
    expect(message).toMatchObject({ truncated: true, argsLength: 5_004 });
    expect(message?.args.length).toBe(1_024);
    hooks.setCapture(null);
    electron.ipcMain.emit('big', { sender: electron.page }, 'after stop');
    expect(await messages(core)).toHaveLength(1);
  });
});

describe('IPC hooks on the stand-in', () => {
  it('see its ipcMain sends and invokes, and invoke its handlers', async () => {
    const require = createRequire(import.meta.url);
    const standIn = require('../../fixtures/electron-standin/index.cjs');
    const core = createAgentCore();
    const hooks = installIpcHooks(standIn, core);
    hooks.setCapture(['standin:*']);
    standIn.ipcMain.handle('standin:double', (_event: unknown, n: number) => n * 2);
    const sender = { id: 3 };
    standIn.ipcMain.emit('standin:note', { sender }, { a: 1 });
    expect(await standIn.ipcMain.handlerFor('standin:double')({ sender }, 4)).toBe(8);
    expect(await hooks.invoke('standin:double', [5])).toMatchObject({ invoked: true, json: '10' });
    expect((await messages(core)).map((m) => [m.kind, m.args, m.viaGateway])).toEqual([
      ['send', '[{"a":1}]', false],
      ['invoke', '[4]', false],
      ['result', '8', false],
      ['invoke', '[5]', true],
      ['result', '10', true],
    ]);
    standIn.ipcMain.removeHandler('standin:double');
    expect((await hooks.invoke('standin:double', [1])).reason).toBe('no_handler');
  });
});
