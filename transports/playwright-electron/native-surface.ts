import type { ElectronApplication, Page } from 'playwright-core';
import type {
  DialogRule,
  EvalOutcome,
  NativeSurface,
  TrayEventName,
  TrayInvocation,
  TrayState,
} from '../contract/native.js';
import { lateInstallSource } from '../main-agent/agent-source.js';
import { AgentSurface } from '../main-agent/agent-surface.js';
import { evalInPage } from '../page-engine/renderer-eval.js';

/**
 * Runs shipped source in the main process. Playwright calls a function it is given but only evaluates a
 * string, so one fixed function compiles the source there (the main process has no CSP) and calls it.
 * Playwright evaluates through the Node inspector, whose interrupt can land inside Node's next-tick loop
 * after it found the queue empty: a tick queued there is never run, and every later one with it (see
 * transports/inspector/main-process.ts, `fromAppLoop`). So the source runs from an immediate of the app's
 * own loop, a callback scope that drains the ticks it queues.
 */
const RUN_SHIPPED = (electron: unknown, { source, arg }: { source: string; arg: unknown }) =>
  new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        // Global (indirect) eval: the source sees globals only, never this function's scope.
        // biome-ignore lint/security/noGlobalEval: compiles the transport's fixed sources (and opted-in user eval)
        const compile = globalThis.eval;
        resolve(compile(source)(electron, arg));
      } catch (error) {
        reject(error);
      }
    });
  });

interface WindowLookup {
  entries(): [string, Page][];
}

/**
 * The main-process surface over Playwright's ElectronApplication: every call runs a fixed, transport-owned
 * function in the main process (not user eval), except evalMain / evalRenderer, which the schema exposes
 * only on the server's explicit opt-in.
 */
export class PlaywrightNativeSurface extends AgentSurface implements NativeSurface {
  readonly #electron: ElectronApplication;
  readonly #windows: WindowLookup;
  readonly #browserWindowIds = new WeakMap<Page, number>();

  private constructor(electron: ElectronApplication, windows: WindowLookup, instrumented: boolean) {
    super({
      run: (source, arg) => electron.evaluate(RUN_SHIPPED, { source, arg }),
      instrumented,
      gone: () => electron.process().exitCode !== null,
    });
    this.#electron = electron;
    this.#windows = windows;
  }

  /** Installs the agent when the instrumented preload has not already (a plain launch), and says which. */
  static async attach(
    electron: ElectronApplication,
    windows: WindowLookup,
  ): Promise<PlaywrightNativeSurface> {
    const instrumented = (await electron.evaluate(RUN_SHIPPED, {
      source: lateInstallSource(),
      arg: null,
    })) as boolean;
    return new PlaywrightNativeSurface(electron, windows, instrumented);
  }

  trays(): Promise<TrayState[]> {
    return this.call('agent.trays ? agent.trays.list() : []');
  }

  invokeTray(id: string, event: TrayEventName): Promise<TrayInvocation> {
    return this.call('agent.trays.invoke(arg.id, arg.event)', { id, event });
  }

  async setDialogPolicy(rules: readonly DialogRule[]): Promise<void> {
    await this.call('agent.dialogs.setPolicy(arg)', rules);
  }

  async windowIdOf(browserWindowId: number): Promise<string | null> {
    for (const [id, page] of this.#windows.entries()) {
      let known = this.#browserWindowIds.get(page);
      if (known === undefined) {
        const handle = await this.#electron.browserWindow(page).catch(() => null);
        if (!handle) continue;
        known = (await handle
          .evaluate((window: Electron.BrowserWindow) => window.id)
          .catch(() => -1)) as number;
        await handle.dispose();
        this.#browserWindowIds.set(page, known);
      }
      if (known === browserWindowId) return id;
    }
    return null;
  }

  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const page = this.#windows.entries().find(([id]) => id === windowId)?.[1];
    if (!page) return Promise.resolve({ status: 'failed', message: `No open window ${windowId}.` });
    return evalInPage(page, code, arg);
  }
}
