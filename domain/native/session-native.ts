import { StagegraphError } from '../../errors/stagegraph-error.js';
import type {
  DialogRule,
  ExpectedMenuItem,
  IpcInvocation,
  MenuInvocation,
  NativeEvent,
  NativeMenuItem,
  NativeSurface,
  OpenContextMenu,
  TrayEventName,
  TrayInvocation,
  TrayState,
} from '../../transports/contract/native.js';
import type { TransportSession } from '../../transports/contract/transport-contract.js';
import type { TopicHandlers } from '../../transports/contract/transport-events.js';
import type { EventHub } from '../events/event-hub.js';
import { PreviewOutdated } from '../interaction/preview-outdated.js';
import { notInstrumentedActions, type SessionFacts } from '../sessions/next-actions.js';
import { type EvalResult, evalResult } from './eval-result.js';
import { type IpcCapture, type IpcEntry, IpcLog, MAX_IPC_CHANNELS } from './ipc-log.js';
import { findMenuItem } from './menu-path.js';
import { MAX_DIALOG_RULES, type NativeDialogEntry, NativeDialogLog } from './native-dialog-log.js';
import { type NotificationEntry, NotificationLog } from './notification-log.js';

/** A context menu as the gateway hands it out: with the window it opened over, by the gateway's id. */
export interface ContextMenuEntry extends Omit<OpenContextMenu, 'time'> {
  readonly sessionId: string;
  readonly windowId: string | null;
  readonly time: Date;
}

/** The hub topics native UI publishes on. */
export type NativeTopics = {
  contextMenu: ContextMenuEntry;
  notification: NotificationEntry;
  nativeDialog: NativeDialogEntry;
  ipc: IpcEntry;
};

/** One session's native UI: menus, context menus, trays, notifications, native dialogs and eval. */
export class SessionNative {
  readonly notifications: NotificationLog;
  readonly dialogs: NativeDialogLog;
  readonly ipc: IpcLog;
  readonly #sessionId: string;
  readonly #session: SessionFacts;
  readonly #transport: TransportSession;
  readonly #hub: EventHub<NativeTopics>;
  readonly #assertLive: () => void;
  /** The application menu as last read; undefined until read, and after it was found changed. */
  #menu: NativeMenuItem[] | null | undefined;
  /** What each menu path's preview showed the policy, by path, until its invoke checks it. */
  readonly #shown = new Map<string, ExpectedMenuItem>();

  constructor(
    session: SessionFacts,
    transport: TransportSession,
    hub: EventHub<NativeTopics>,
    assertLive: () => void,
  ) {
    const sessionId = session.id;
    this.#sessionId = sessionId;
    this.#session = session;
    this.#transport = transport;
    this.#hub = hub;
    this.#assertLive = assertLive;
    this.notifications = new NotificationLog(sessionId);
    this.dialogs = new NativeDialogLog(sessionId);
    this.ipc = new IpcLog(sessionId);
  }

  /** Takes the transport's native events; false for every other event. */
  /** The transport topics native UI owns. */
  readonly topics: TopicHandlers = { native: (event) => this.#onNative(event.event) };

  #onNative(native: NativeEvent): void {
    if (native.kind === 'notification') {
      const entry = this.notifications.record(native.notification);
      if (entry) this.#hub.publish('notification', entry);
    } else if (native.kind === 'dialog') {
      this.#hub.publish('nativeDialog', this.dialogs.record(native.call));
    } else if (native.kind === 'ipc') {
      this.#hub.publish('ipc', this.ipc.record(native.message));
    } else if (native.kind === 'context-menu-opened') {
      void this.#describe(native.menu).then((menu) => this.#hub.publish('contextMenu', menu));
    }
  }

  async applicationMenu(): Promise<NativeMenuItem[] | null> {
    const menu = await this.#surface().applicationMenu();
    this.#menu = menu;
    return menu;
  }

  /**
   * The item at `path` as a governed invoke's policy is shown it: from the menu as last read (no round trip
   * to the main process), unless `fresh` or never read. What was shown is remembered for the invoke, which
   * checks it in the same call as its click (invokeMenuItem), so a menu changed since is never acted on
   * under a decision made on the old one.
   */
  async previewMenuItem(path: readonly string[], fresh: boolean): Promise<NativeMenuItem | null> {
    const menu = fresh || this.#menu === undefined ? await this.applicationMenu() : this.#menu;
    const item = findMenuItem(menu ?? [], path);
    const key = JSON.stringify(path);
    if (fresh) this.#shown.delete(key);
    else this.#shown.set(key, { item: item && { label: item.label, role: item.role, type: item.type } });
    return item;
  }

  async menuItem(path: readonly string[]): Promise<NativeMenuItem | null> {
    return findMenuItem((await this.applicationMenu()) ?? [], path);
  }

  /** PreviewOutdated when the item its preview showed from the last read menu is no longer at `path`. */
  async invokeMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    const key = JSON.stringify(path);
    const expected = this.#shown.get(key) ?? null;
    this.#shown.delete(key);
    const invoked = await this.#surface().invokeMenuItem(path, expected);
    if (!invoked.changed) return invoked;
    this.#menu = undefined;
    throw new PreviewOutdated(`The menu item at ${path.join(' > ')}`);
  }

  async contextMenu(): Promise<ContextMenuEntry | null> {
    const open = await this.#surface().contextMenu();
    return open ? this.#describe(open) : null;
  }

  invokeContextMenuItem(path: readonly string[]): Promise<MenuInvocation> {
    return this.#surface().invokeContextMenuItem(path);
  }

  async trays(): Promise<TrayState[]> {
    return this.#instrumented('trays').trays();
  }

  async invokeTray(id: string, event: TrayEventName): Promise<TrayInvocation> {
    return this.#instrumented('invokeTray').invokeTray(id, event);
  }

  async setDialogPolicy(rules: readonly DialogRule[]): Promise<readonly DialogRule[]> {
    if (rules.length > MAX_DIALOG_RULES) {
      throw new StagegraphError('BAD_INPUT', `A dialog policy holds at most ${MAX_DIALOG_RULES} rules.`);
    }
    await this.#surface().setDialogPolicy(rules);
    this.dialogs.policy = rules;
    return rules;
  }

  async armIpc(channels: readonly string[]): Promise<IpcCapture> {
    if (channels.length === 0 || channels.length > MAX_IPC_CHANNELS) {
      throw new StagegraphError(
        'BAD_INPUT',
        `IPC capture needs between 1 and ${MAX_IPC_CHANNELS} channels (exact names, or prefixes ending in *).`,
      );
    }
    await this.#surface().setIpcCapture(channels);
    this.ipc.capture = { channels: [...channels], armedAt: new Date() };
    return this.ipc.capture;
  }

  async stopIpc(): Promise<IpcCapture> {
    await this.#surface().setIpcCapture(null);
    this.ipc.capture = { channels: null, armedAt: null };
    return this.ipc.capture;
  }

  async invokeIpc(channel: string, args: readonly unknown[]): Promise<IpcInvocation> {
    const native = this.#surface();
    const invocation = await native.invokeIpc(channel, args);
    if (invocation.reason !== 'no_handler' || native.instrumented) return invocation;
    // Handlers registered before the hooks went in are invisible, so say so rather than imply none exists.
    return {
      ...invocation,
      error:
        'No handler seen: handlers registered before the hooks are unseen; launch with instrumentNative.',
    };
  }

  async evalMain(code: string, arg: unknown, timeoutMs?: number | null): Promise<EvalResult> {
    return evalResult(this.#surface().evalMain(code, arg ?? null), timeoutMs);
  }

  async evalRenderer(
    windowId: string,
    code: string,
    arg: unknown,
    timeoutMs?: number | null,
  ): Promise<EvalResult> {
    this.#assertLive();
    // A transport that reaches renderers without a main process (CDP attach) evaluates there itself.
    const running = this.#transport.evalRenderer
      ? this.#transport.evalRenderer(windowId, code, arg ?? null)
      : this.#surface().evalRenderer(windowId, code, arg ?? null);
    return evalResult(running, timeoutMs);
  }

  async #describe(open: OpenContextMenu): Promise<ContextMenuEntry> {
    const windowId =
      open.browserWindowId === null ? null : await this.#surface().windowIdOf(open.browserWindowId);
    return { ...open, sessionId: this.#sessionId, windowId, time: new Date(open.time) };
  }

  #surface(): NativeSurface {
    this.#assertLive();
    const native = this.#transport.native;
    // Fields that reach here declare NATIVE_UI, so a transport without a surface was refused already.
    if (!native)
      throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'This session has no main-process access.');
    return native;
  }

  #instrumented(field: string): NativeSurface {
    const native = this.#surface();
    if (native.instrumented) return native;
    if (native.traysUnreachable) {
      throw new StagegraphError('CAPABILITY_UNSUPPORTED', `${field}: ${native.traysUnreachable}`);
    }
    throw new StagegraphError(
      'NOT_INSTRUMENTED',
      `${field} needs the native hooks from the app's first line: Electron keeps no list of trays, so one created before the hooks is invisible.`,
      { nextActions: notInstrumentedActions(this.#session) },
    );
  }
}
