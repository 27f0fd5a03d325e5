import type { IpcDirection, IpcInvocation, IpcKind } from '../contract/native.js';
import type { AgentCore, ElectronLike, Loose } from './shapes.js';

export interface IpcHooks {
  setCapture(channels: readonly string[] | null): void;
  invoke(channel: string, args: readonly unknown[]): Promise<IpcInvocation>;
}

/**
 * Reports IPC between the main process and its pages: renderer sends (`ipcMain.emit`, which Electron calls
 * for every message a page sends), invokes and their results (handlers registered with `ipcMain.handle`
 * are wrapped), and main sends (`WebContents.prototype.send`). Only channels the capture allowlist names
 * are reported, so an app's other traffic never leaves its process. Self-contained (shipped as source).
 */
export function installIpcHooks(electron: ElectronLike, agent: AgentCore): IpcHooks {
  /** Arguments are reported as JSON up to this many characters: enough to read, bounded for bulk payloads. */
  const MAX_ARGS_JSON = 1_024;
  const { ipcMain, BrowserWindow } = electron;
  /** The app's own handler of each channel, kept as registered (Electron offers no getter). */
  const handlers = new Map<string, (event: Loose, ...args: Loose[]) => Loose>();
  let channels: readonly string[] | null = null;
  if (!ipcMain) return { setCapture: () => {}, invoke: async () => refusal('no_handler') };

  function refusal(reason: IpcInvocation['reason'], error: string | null = null): IpcInvocation {
    return { invoked: false, reason, json: null, error };
  }
  const captured = (channel: string) =>
    channels?.some((pattern) =>
      pattern.endsWith('*') ? channel.startsWith(pattern.slice(0, -1)) : channel === pattern,
    ) === true;
  const json = (value: unknown): string => {
    try {
      return (
        JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? String(item) : item)) ?? 'null'
      );
    } catch (error) {
      return JSON.stringify(`[not JSON: ${error instanceof Error ? error.message : String(error)}]`);
    }
  };
  const describeError = (error: unknown) =>
    error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const report = (
    direction: IpcDirection,
    kind: IpcKind,
    channel: string,
    payload: unknown,
    webContents: Loose,
    viaGateway: boolean,
  ) => {
    if (!captured(channel)) return;
    const text = kind === 'error' ? JSON.stringify(String(payload)) : json(payload);
    agent.emit({
      kind: 'ipc',
      message: {
        direction,
        kind,
        channel,
        args: text.length > MAX_ARGS_JSON ? text.slice(0, MAX_ARGS_JSON) : text,
        argsLength: text.length,
        truncated: text.length > MAX_ARGS_JSON,
        webContentsId: typeof webContents?.id === 'number' ? webContents.id : null,
        viaGateway,
        time: new Date().toISOString(),
      },
    });
  };
  const run = async (channel: string, event: Loose, args: Loose[], viaGateway: boolean) => {
    const handler = handlers.get(channel);
    report('renderer-to-main', 'invoke', channel, args, event?.sender, viaGateway);
    try {
      const value = await handler?.(event, ...args);
      report('main-to-renderer', 'result', channel, value, event?.sender, viaGateway);
      return value;
    } catch (error) {
      report('main-to-renderer', 'error', channel, describeError(error), event?.sender, viaGateway);
      throw error;
    }
  };

  // handleOnce registers through handle in Electron (and the stand-in), so wrapping handle sees both.
  const originalHandle = ipcMain.handle;
  ipcMain.handle = function handle(this: Loose, channel: string, handler: Loose) {
    const result = originalHandle.call(this, channel, (event: Loose, ...args: Loose[]) =>
      run(channel, event, args, false),
    );
    handlers.set(channel, handler);
    return result;
  };
  const originalRemove = ipcMain.removeHandler;
  ipcMain.removeHandler = function removeHandler(this: Loose, channel: string) {
    handlers.delete(channel);
    return originalRemove.call(this, channel);
  };
  const originalEmit = ipcMain.emit;
  ipcMain.emit = function emit(this: Loose, channel: Loose, ...rest: Loose[]) {
    // A page's message arrives as (channel, event, ...args); EventEmitter's own events carry no sender.
    const event = rest[0];
    if (typeof channel === 'string' && event && typeof event === 'object' && 'sender' in event)
      report('renderer-to-main', 'send', channel, rest.slice(1), event.sender, false);
    return originalEmit.call(this, channel, ...rest);
  };

  const patched = new WeakSet<object>();
  const patchSend = (webContents: Loose) => {
    const prototype = webContents ? Object.getPrototypeOf(webContents) : null;
    if (!prototype || patched.has(prototype) || typeof prototype.send !== 'function') return;
    patched.add(prototype);
    const originalSend = prototype.send;
    prototype.send = function send(this: Loose, channel: string, ...args: Loose[]) {
      report('main-to-renderer', 'send', channel, args, this, false);
      return originalSend.call(this, channel, ...args);
    };
  };
  // Installed late (app ready), pages may exist already; the instrumented preload runs before ready, when none do.
  if (electron.app?.isReady?.() !== false)
    for (const webContents of electron.webContents?.getAllWebContents?.() ?? []) patchSend(webContents);
  electron.app?.on?.('web-contents-created', (_event: Loose, webContents: Loose) => patchSend(webContents));

  return {
    setCapture(next) {
      channels = next ? [...next] : null;
    },
    async invoke(channel, args) {
      if (!handlers.has(channel)) return refusal('no_handler');
      const window = BrowserWindow?.getFocusedWindow?.() ?? BrowserWindow?.getAllWindows?.()[0] ?? null;
      const sender = window?.webContents ?? null;
      // The event a handler reads: the window's page as sender, as if that page had invoked.
      const event = { sender, senderFrame: sender?.mainFrame ?? null, processId: -1, frameId: -1 };
      try {
        const value = await run(channel, event, [...args], true);
        return { invoked: true, reason: null, json: json(value ?? null), error: null };
      } catch (error) {
        return refusal('failed', describeError(error));
      }
    },
  };
}
