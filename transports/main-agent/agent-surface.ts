import type {
  EvalOutcome,
  ExpectedMenuItem,
  IpcInvocation,
  MenuInvocation,
  NativeEvent,
  NativeMenuItem,
  NativeSurface,
  OpenContextMenu,
} from '../contract/native.js';
import { agentCallSource, userCodeSource } from './agent-source.js';
import { settleEval } from './eval-settle.js';
import { withMainDeadline } from './main-call-deadline.js';
import type { RunOptions } from './main-inspector.js';

/** For calls that may wait in the main process: the next poll, an IPC handler's answer, user code. */
const WAITS: RunOptions = { waits: true };

/** After a failed poll (the app busy, or restarting its loop), wait this long before polling again. */
const POLL_RETRY_MS = 250;

/** Runs shipped source — a function `(electron, arg) => …` — in the app's main process, with `arg`. */
export type RunInMain = (source: string, arg?: unknown, options?: RunOptions) => Promise<unknown>;

/** The part of the native surface that is the same calls on the agent, however they reach it. */
type AgentCalls = Pick<
  NativeSurface,
  | 'instrumented'
  | 'applicationMenu'
  | 'invokeMenuItem'
  | 'contextMenu'
  | 'invokeContextMenuItem'
  | 'setIpcCapture'
  | 'invokeIpc'
  | 'evalMain'
>;

export interface AgentSurfaceSetup {
  /** How a call reaches the main process: Playwright's `ElectronApplication.evaluate`, or the inspector. */
  readonly run: RunInMain;
  /** Whether the hooks were installed before the app's main ran. */
  readonly instrumented: boolean;
  /** True once the main process can no longer answer (it exited, or its connection closed): polling ends. */
  readonly gone: () => boolean;
}

/**
 * The calls a main-process surface makes on the agent the shipped hooks installed (agent-source.ts): its
 * event queue, the application and context menus, IPC, and opted-in main eval. Launch and inject differ in
 * how a call reaches the main process (`run`) and in what they leave to their subclass: trays, native
 * dialogs, window ids and renderer eval.
 */
export abstract class AgentSurface implements AgentCalls {
  readonly instrumented: boolean;
  readonly #run: RunInMain;
  readonly #gone: () => boolean;
  #polling = false;
  #closed = false;

  protected constructor(setup: AgentSurfaceSetup) {
    // Every call answers by its deadline, whatever the main process does (MAIN_NOT_RESPONDING).
    this.#run = withMainDeadline(setup.run);
    this.#gone = setup.gone;
    this.instrumented = setup.instrumented;
  }

  /** Streams the agent's events to `emit` until close(); events queued before this are delivered first. */
  startEvents(emit: (event: NativeEvent) => void): void {
    if (this.#polling) return;
    this.#polling = true;
    void (async () => {
      let afterSeq = 0;
      while (!this.#closed && !this.#gone()) {
        try {
          const { events } = await this.call<{ events: { seq: number; event: NativeEvent }[] }>(
            'agent.core.next(arg)',
            afterSeq,
            WAITS,
          );
          for (const { seq, event } of events) {
            afterSeq = seq;
            if (!this.#closed) emit(event);
          }
        } catch {
          if (this.#closed || this.#gone()) return;
          await new Promise((resolve) => setTimeout(resolve, POLL_RETRY_MS));
        }
      }
    })();
  }

  close(): void {
    this.#closed = true;
  }

  applicationMenu(): Promise<NativeMenuItem[] | null> {
    return this.call('agent.menus.applicationMenu()');
  }

  invokeMenuItem(path: readonly string[], expected?: ExpectedMenuItem | null): Promise<MenuInvocation> {
    return this.call('agent.menus.invokeApplication(arg.path, arg.expected)', {
      path,
      expected: expected ?? null,
    });
  }

  contextMenu(): Promise<OpenContextMenu | null> {
    return this.call('agent.menus.contextMenu()');
  }

  invokeContextMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.call('agent.menus.invokeContext(arg)', path);
  }

  async setIpcCapture(channels: readonly string[] | null): Promise<void> {
    await this.call('agent.ipc.setCapture(arg)', channels);
  }

  invokeIpc(channel: string, args: readonly unknown[]): Promise<IpcInvocation> {
    return this.call('agent.ipc.invoke(arg.channel, arg.args)', { channel, args }, WAITS);
  }

  /** Opted-in user code, run with the app's electron module; the schema exposes it only with --allow-eval. */
  evalMain(code: string, arg: unknown): Promise<EvalOutcome> {
    return settleEval(this.#run(userCodeSource(code, 'main'), arg, WAITS));
  }

  /** A fixed call on the installed agent: `body` is an expression over `agent` and `arg`. */
  protected call<T>(body: string, arg?: unknown, options?: RunOptions): Promise<T> {
    return this.#run(agentCallSource(body), arg, options) as Promise<T>;
  }
}
