/**
 * The main-process surface of a transport: menus, context menus, trays, notifications, native dialogs and
 * eval. Shapes here are what the fixed hooks in the app's main process report, already JSON.
 */

export type NativeMenuItemType = 'normal' | 'separator' | 'submenu' | 'checkbox' | 'radio';

export interface NativeMenuItem {
  readonly label: string;
  readonly role: string | null;
  readonly type: NativeMenuItemType;
  readonly id: string | null;
  readonly accelerator: string | null;
  readonly enabled: boolean;
  readonly visible: boolean;
  readonly checked: boolean;
  readonly sublabel: string | null;
  readonly toolTip: string | null;
  readonly submenu: readonly NativeMenuItem[] | null;
}

/** Why an invoke was refused; the hooks never fake a click they could not deliver as Electron would. */
export type MenuRefusal =
  | 'not_found'
  | 'disabled'
  | 'role'
  | 'submenu'
  | 'separator'
  | 'no_handler'
  | 'no_menu';

export interface MenuInvocation {
  readonly invoked: boolean;
  readonly reason: MenuRefusal | null;
  readonly label: string | null;
  readonly role: string | null;
  /** Nothing was done: the item at the path is no longer the one `expected` described. */
  readonly changed?: true;
}

/** What a caller was shown of the item at a path before invoking it (null: no item was there). */
export interface ExpectedMenuItem {
  readonly item: Pick<NativeMenuItem, 'label' | 'role' | 'type'> | null;
}

/** A menu the app popped up (`Menu.popup`), as the main process saw it. */
export interface OpenContextMenu {
  readonly seq: number;
  /** `BrowserWindow.id` of the window it was popped up over, if any. */
  readonly browserWindowId: number | null;
  readonly x: number | null;
  readonly y: number | null;
  readonly time: string;
  readonly items: readonly NativeMenuItem[];
}

export interface TrayState {
  readonly id: string;
  /** Electron has no tooltip getter: this is the last value passed to setToolTip. */
  readonly tooltip: string;
  readonly title: string;
  readonly hasImage: boolean;
  readonly destroyed: boolean;
  readonly contextMenu: readonly NativeMenuItem[] | null;
}

/** Tray events as Electron names them. */
export type TrayEventName =
  | 'click'
  | 'right-click'
  | 'double-click'
  | 'middle-click'
  | 'mouse-enter'
  | 'mouse-leave';

export interface TrayInvocation {
  readonly emitted: boolean;
  readonly reason: 'not_found' | 'no_listener' | null;
  /** Read back after the app's handler ran. */
  readonly tray: TrayState | null;
}

export interface ShownNotification {
  readonly title: string;
  readonly body: string;
  readonly subtitle: string;
  readonly silent: boolean;
  readonly urgency: string;
  /** ISO time the main process called show(). */
  readonly time: string;
}

export type NativeDialogType = 'open' | 'save' | 'messageBox';

/** One answer of the per-session dialog policy. */
export interface DialogRule {
  readonly type: NativeDialogType;
  /** Open: the chosen files; save: the first is the chosen path. */
  readonly filePaths?: readonly string[];
  /** Message box: the index of the button pressed. */
  readonly response?: number;
  readonly checkboxChecked?: boolean;
  readonly cancel?: boolean;
  /** Answer the next matching call only, then drop the rule. */
  readonly once: boolean;
}

export interface DialogAnswer {
  readonly canceled: boolean;
  readonly filePaths: readonly string[];
  readonly response: number | null;
  readonly checkboxChecked: boolean;
}

export interface NativeDialogCall {
  readonly type: NativeDialogType;
  readonly sync: boolean;
  readonly title: string;
  readonly message: string;
  /** The options passed, as JSON, cut at a bound. */
  readonly options: string;
  readonly answer: DialogAnswer;
  readonly answeredBy: 'policy' | 'cancel';
  readonly time: string;
}

export type IpcDirection = 'renderer-to-main' | 'main-to-renderer';

/** send: ipcRenderer.send / webContents.send; invoke and result (or error): one ipcRenderer.invoke. */
export type IpcKind = 'send' | 'invoke' | 'result' | 'error';

/** One IPC message as the main process saw it, on a channel the capture allowlist names. */
export interface IpcMessage {
  readonly direction: IpcDirection;
  readonly kind: IpcKind;
  readonly channel: string;
  /** The arguments as JSON, cut at the hooks' size bound (an error: its message). */
  readonly args: string;
  /** Length of the whole JSON before any cut. */
  readonly argsLength: number;
  readonly truncated: boolean;
  /** The WebContents the message came from or went to, when there is one. */
  readonly webContentsId: number | null;
  /** An invoke the gateway made (invokeIpc), not the page. */
  readonly viaGateway: boolean;
  readonly time: string;
}

export interface IpcInvocation {
  readonly invoked: boolean;
  /** no_handler: nothing is registered with ipcMain.handle for the channel (as far as the hooks saw). */
  readonly reason: 'no_handler' | 'failed' | null;
  /** The handler's result as JSON text. */
  readonly json: string | null;
  /** A failed handler's error, by name and message (never a stack). */
  readonly error: string | null;
}

export type NativeEvent =
  | { readonly kind: 'context-menu-opened'; readonly menu: OpenContextMenu }
  | { readonly kind: 'context-menu-closed'; readonly seq: number }
  | { readonly kind: 'notification'; readonly notification: ShownNotification }
  | { readonly kind: 'dialog'; readonly call: NativeDialogCall }
  | { readonly kind: 'ipc'; readonly message: IpcMessage };

/** The outcome of user code run by evalMain / evalRenderer. */
export type EvalOutcome =
  | { readonly status: 'ok'; readonly json: string }
  | { readonly status: 'failed' | 'not-serializable' | 'too-large'; readonly message: string };

export interface NativeSurface {
  /** True when the hooks were installed before the app's main ran (launch with instrumentNative). */
  readonly instrumented: boolean;
  /**
   * Why this surface can never see trays, however it was started (a desktop app over AT-SPI: trays are the
   * shell's, not in the app's tree); absent where instrumenting would show them.
   */
  readonly traysUnreachable?: string;
  applicationMenu(): Promise<NativeMenuItem[] | null>;
  /**
   * Clicks the item at `path`. Given `expected`, only when that item is still the one described (else
   * `changed`, and nothing done): a check made in the same call as the click.
   */
  invokeMenuItem(path: readonly string[], expected?: ExpectedMenuItem | null): Promise<MenuInvocation>;
  contextMenu(): Promise<OpenContextMenu | null>;
  invokeContextMenuItem(path: readonly string[]): Promise<MenuInvocation>;
  /** Trays are only known when instrumented: Electron keeps no list of them. */
  trays(): Promise<TrayState[]>;
  invokeTray(id: string, event: TrayEventName): Promise<TrayInvocation>;
  setDialogPolicy(rules: readonly DialogRule[]): Promise<void>;
  /** The window id (`w1`, ...) of a BrowserWindow id, when that window is still open. */
  windowIdOf(browserWindowId: number): Promise<string | null>;
  /** Reports IPC on channels matching `channels` (exact, or a prefix ending in `*`); null stops. */
  setIpcCapture(channels: readonly string[] | null): Promise<void>;
  /** Calls the app's `ipcMain.handle` handler for `channel` as a page's invoke would. */
  invokeIpc(channel: string, args: readonly unknown[]): Promise<IpcInvocation>;
  evalMain(code: string, arg: unknown): Promise<EvalOutcome>;
  evalRenderer(windowId: string, code: string, arg: unknown): Promise<EvalOutcome>;
}
