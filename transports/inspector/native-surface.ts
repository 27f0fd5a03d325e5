import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  DialogRule,
  EvalOutcome,
  IpcInvocation,
  MenuInvocation,
  NativeEvent,
  NativeMenuItem,
  NativeSurface,
  OpenContextMenu,
  TrayInvocation,
  TrayState,
} from '../contract/native.js';
import { agentCallSource, userCodeSource } from '../main-agent/agent-source.js';
import { injectCallSource, injectedNativeHooksSource } from './agent-sources.js';
import type { MainProcess } from './main-process.js';

/** After a failed poll (the app busy), wait this long before polling again. */
const POLL_RETRY_MS = 250;

/** Where a window id of the session points in the main process. */
export interface WindowLookup {
  browserWindowIdOf(windowId: string): number | undefined;
  contentsIdOf(windowId: string): number | undefined;
  windowIdOfBrowserWindow(browserWindowId: number): string | null;
}

/**
 * The main-process surface of an injected app, through its inspector: the same shipped menu, notification
 * and IPC hooks a launch installs, run with the app's own electron module. Renderer eval goes through
 * `webContents.executeJavaScript`, so it works before (and without) the debugger upgrade.
 */
export class InjectedNativeSurface implements NativeSurface {
  readonly instrumented: boolean;
  readonly #main: MainProcess;
  readonly #windows: WindowLookup;
  #polling = false;
  #closed = false;

  private constructor(main: MainProcess, windows: WindowLookup, instrumented: boolean) {
    this.#main = main;
    this.#windows = windows;
    this.instrumented = instrumented;
  }

  static async install(main: MainProcess, windows: WindowLookup): Promise<InjectedNativeSurface> {
    const instrumented = await main.run<boolean>(injectedNativeHooksSource());
    return new InjectedNativeSurface(main, windows, instrumented);
  }

  startEvents(emit: (event: NativeEvent) => void): void {
    if (this.#polling) return;
    this.#polling = true;
    void (async () => {
      let afterSeq = 0;
      while (!this.#closed && !this.#main.closed) {
        try {
          const { events } = await this.#call<{ events: { seq: number; event: NativeEvent }[] }>(
            'agent.core.next(arg)',
            afterSeq,
          );
          for (const { seq, event } of events) {
            afterSeq = seq;
            if (!this.#closed) emit(event);
          }
        } catch {
          await new Promise((resolve) => setTimeout(resolve, POLL_RETRY_MS));
        }
      }
    })();
  }

  close(): void {
    this.#closed = true;
  }

  applicationMenu(): Promise<NativeMenuItem[] | null> {
    return this.#call('agent.menus.applicationMenu()');
  }

  invokeMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.#call('agent.menus.invokeApplication(arg)', path);
  }

  contextMenu(): Promise<OpenContextMenu | null> {
    return this.#call('agent.menus.contextMenu()');
  }

  invokeContextMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.#call('agent.menus.invokeContext(arg)', path);
  }

  async trays(): Promise<TrayState[]> {
    return [];
  }

  invokeTray(): Promise<TrayInvocation> {
    return Promise.resolve({ emitted: false, reason: 'not_found', tray: null });
  }

  async setDialogPolicy(_rules: readonly DialogRule[]): Promise<void> {
    throw new StagegraphError(
      'CAPABILITY_UNSUPPORTED',
      "An injected app's native dialogs are left to its user: answering them by policy would replace them for good.",
      { hint: 'Launch the app through Stagegraph to answer its native dialogs by policy.' },
    );
  }

  async windowIdOf(browserWindowId: number): Promise<string | null> {
    return this.#windows.windowIdOfBrowserWindow(browserWindowId);
  }

  async setIpcCapture(channels: readonly string[] | null): Promise<void> {
    await this.#call('agent.ipc.setCapture(arg)', channels);
  }

  invokeIpc(channel: string, args: readonly unknown[]): Promise<IpcInvocation> {
    return this.#call('agent.ipc.invoke(arg.channel, arg.args)', { channel, args });
  }

  evalMain(code: string, arg: unknown): Promise<EvalOutcome> {
    return settle(this.#main.run<EvalOutcome>(userCodeSource(code, 'main'), arg));
  }

  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const contentsId = this.#windows.contentsIdOf(windowId);
    if (contentsId === undefined)
      return Promise.resolve({ status: 'failed', message: `No open window ${windowId}.` });
    const call = `(${userCodeSource(code, 'renderer')})(${JSON.stringify(arg)})`;
    return settle(
      this.#main.run<EvalOutcome>(injectCallSource('agent.executeJavaScript(arg.contentsId, arg.call)'), {
        contentsId,
        call,
      }),
    );
  }

  #call<T>(body: string, arg?: unknown): Promise<T> {
    return this.#main.run<T>(agentCallSource(body), arg);
  }
}

/** Code that does not compile rejects; its first line is the message, never a stack. */
async function settle(running: Promise<EvalOutcome>): Promise<EvalOutcome> {
  try {
    return await running;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'failed', message: message.split('\n')[0] ?? '' };
  }
}
