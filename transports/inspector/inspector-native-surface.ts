import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  DialogRule,
  EvalOutcome,
  NativeSurface,
  TrayInvocation,
  TrayState,
} from '../contract/native.js';
import { userCodeSource } from '../main-agent/agent-source.js';
import { AgentSurface } from '../main-agent/agent-surface.js';
import { settleEval } from '../main-agent/eval-settle.js';
import { injectCallSource, injectedNativeHooksSource } from './agent-sources.js';
import type { MainProcess } from './main-process.js';

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
export class InjectedNativeSurface extends AgentSurface implements NativeSurface {
  readonly #main: MainProcess;
  readonly #windows: WindowLookup;

  private constructor(main: MainProcess, windows: WindowLookup, instrumented: boolean) {
    super({
      run: (source, arg, options) => main.run(source, arg, options),
      instrumented,
      gone: () => main.closed,
    });
    this.#main = main;
    this.#windows = windows;
  }

  static async install(main: MainProcess, windows: WindowLookup): Promise<InjectedNativeSurface> {
    const instrumented = await main.run<boolean>(injectedNativeHooksSource());
    return new InjectedNativeSurface(main, windows, instrumented);
  }

  /** None are known: Electron keeps no list of trays, and these hooks came after the app made its own. */
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

  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const contentsId = this.#windows.contentsIdOf(windowId);
    if (contentsId === undefined)
      return Promise.resolve({ status: 'failed', message: `No open window ${windowId}.` });
    const call = `(${userCodeSource(code, 'renderer')})(${JSON.stringify(arg)})`;
    return settleEval(
      this.#main.run<EvalOutcome>(
        injectCallSource('agent.executeJavaScript(arg.contentsId, arg.call)'),
        { contentsId, call },
        { waits: true },
      ),
    );
  }
}
