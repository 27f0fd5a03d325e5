import type { ElectronApplication, Page } from 'playwright-core';
import type {
  DialogRule,
  EvalOutcome,
  IpcInvocation,
  MenuInvocation,
  NativeEvent,
  NativeMenuItem,
  NativeSurface,
  OpenContextMenu,
  TrayEventName,
  TrayInvocation,
  TrayState,
} from '../contract/native.js';
import { agentCallSource, lateInstallSource, userCodeSource } from '../main-agent/agent-source.js';

/**
 * Runs shipped source in the main process. Playwright calls a function it is given but only evaluates a
 * string, so one fixed function compiles the source there (the main process has no CSP) and calls it.
 */
const RUN_SHIPPED = (electron: unknown, { source, arg }: { source: string; arg: unknown }) => {
  // Global (indirect) eval: the source sees globals only, never this function's scope.
  // biome-ignore lint/security/noGlobalEval: compiles the transport's fixed sources (and opted-in user eval)
  const compile = globalThis.eval;
  return compile(source)(electron, arg);
};

/** After a failed poll (the app busy or restarting its loop), wait this long before polling again. */
const POLL_RETRY_MS = 250;

interface WindowLookup {
  entries(): [string, Page][];
}

/**
 * The main-process surface over Playwright's ElectronApplication: every call runs a fixed, transport-owned
 * function in the main process (not user eval), except evalMain / evalRenderer, which the schema exposes
 * only on the server's explicit opt-in.
 */
export class PlaywrightNativeSurface implements NativeSurface {
  readonly instrumented: boolean;
  readonly #electron: ElectronApplication;
  readonly #windows: WindowLookup;
  readonly #browserWindowIds = new WeakMap<Page, number>();
  #polling = false;
  #closed = false;

  private constructor(electron: ElectronApplication, windows: WindowLookup, instrumented: boolean) {
    this.#electron = electron;
    this.#windows = windows;
    this.instrumented = instrumented;
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

  /** Streams the agent's events to `emit` until close(); events queued before this are delivered first. */
  startEvents(emit: (event: NativeEvent) => void): void {
    if (this.#polling) return;
    this.#polling = true;
    void (async () => {
      let afterSeq = 0;
      while (!this.#closed) {
        try {
          const { events } = (await this.#call('agent.core.next(arg)', afterSeq)) as {
            events: { seq: number; event: NativeEvent }[];
          };
          for (const { seq, event } of events) {
            afterSeq = seq;
            if (!this.#closed) emit(event);
          }
        } catch {
          if (this.#closed || this.#electron.process().exitCode !== null) return;
          await new Promise((resolve) => setTimeout(resolve, POLL_RETRY_MS));
        }
      }
    })();
  }

  close(): void {
    this.#closed = true;
  }

  applicationMenu(): Promise<NativeMenuItem[] | null> {
    return this.#call('agent.menus.applicationMenu()') as Promise<NativeMenuItem[] | null>;
  }

  invokeMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.#call('agent.menus.invokeApplication(arg)', path) as Promise<MenuInvocation>;
  }

  contextMenu(): Promise<OpenContextMenu | null> {
    return this.#call('agent.menus.contextMenu()') as Promise<OpenContextMenu | null>;
  }

  invokeContextMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.#call('agent.menus.invokeContext(arg)', path) as Promise<MenuInvocation>;
  }

  async trays(): Promise<TrayState[]> {
    return (await this.#call('agent.trays ? agent.trays.list() : []')) as TrayState[];
  }

  invokeTray(id: string, event: TrayEventName): Promise<TrayInvocation> {
    return this.#call('agent.trays.invoke(arg.id, arg.event)', { id, event }) as Promise<TrayInvocation>;
  }

  async setDialogPolicy(rules: readonly DialogRule[]): Promise<void> {
    await this.#call('agent.dialogs.setPolicy(arg)', rules);
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

  async setIpcCapture(channels: readonly string[] | null): Promise<void> {
    await this.#call('agent.ipc.setCapture(arg)', channels);
  }

  invokeIpc(channel: string, args: readonly unknown[]): Promise<IpcInvocation> {
    return this.#call('agent.ipc.invoke(arg.channel, arg.args)', { channel, args }) as Promise<IpcInvocation>;
  }

  evalMain(code: string, arg: unknown): Promise<EvalOutcome> {
    return settleEval(this.#electron.evaluate(RUN_SHIPPED, { source: userCodeSource(code, 'main'), arg }));
  }

  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome> {
    const page = this.#windows.entries().find(([id]) => id === windowId)?.[1];
    if (!page) return Promise.resolve({ status: 'failed', message: `No open window ${windowId}.` });
    // A page evaluates a string as an expression: the call, with its JSON argument, is part of it.
    return settleEval(page.evaluate(`(${userCodeSource(code, 'renderer')})(${JSON.stringify(arg)})`));
  }

  #call(body: string, arg?: unknown): Promise<unknown> {
    return this.#electron.evaluate(RUN_SHIPPED, { source: agentCallSource(body), arg });
  }
}

/** Code that does not even compile rejects in Playwright; its first line is the message, never a stack. */
async function settleEval(running: Promise<unknown>): Promise<EvalOutcome> {
  try {
    return (await running) as EvalOutcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = message.split('\n').find((text) => /Error/.test(text)) ?? message.split('\n')[0] ?? '';
    return { status: 'failed', message: line.replace(/^.*?evaluate: /, '').trim() };
  }
}
