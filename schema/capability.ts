import { CAPABILITIES, type Capability, type CapabilityMatrix } from '../transports/contract/capabilities.js';
import { builder } from './builder.js';

/** What works when a capability is true: the operations it opens, by the fields that require it. */
const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  LAUNCH:
    'Starts an app: `launch` (an Electron app from its main script or executable) runs on a transport with it (CAPABILITY_UNSUPPORTED otherwise); on atspi, `launchDesktop` starts a desktop app.',
  ATTACH:
    'Reaches a running app: over its remote-debugging port, `attach`, `launchCommand` and `discover` use a transport with it; on the desktop, `attachDesktop` and `desktopApps` (atspi).',
  INJECT:
    "Enters a running app's main process through its Node inspector, with no debugging flag needed: `inject` uses a transport with it.",
  INTERCEPT:
    'Network capture and stubs: Session.network, networkCaptures and networkStubs, the `network` subscription, startNetworkCapture, stopNetworkCapture, stubNetwork, unstubNetwork.',
  CLOCK:
    "A fake clock in the app's pages: Session.clock, installClock, setFixedTime, setSystemTime, advanceClock, runClockFor, pauseClockAt, resumeClock.",
  MAIN_EVAL:
    'Code and IPC in the main process: evalMain, Session.ipc, armIpc, stopIpc, invokeIpc (all present only with --allow-eval or --allow-eval=main).',
  RENDERER_EVAL: 'Code in a window: evalRenderer (present only with --allow-eval or --allow-eval=renderer).',
  INTERACTION:
    'Acting on page elements: click, fill, type, press, hover, focus, clear, scroll, selectOption, setChecked, setInputFiles, dragTo.',
  SNAPSHOT:
    'Reading the accessibility tree: Window.snapshot, find and node, expect, the `snapshotChanges` subscription.',
  SCREENSHOT: 'Window.screenshot.',
  STORAGE:
    'Cookies and web storage: Session.cookies, storage, storageOrigins and webStorage; setCookie, clearCookies, setStorageItem, removeStorageItem, clearStorage.',
  NATIVE_UI:
    "The main process's own UI: Session.applicationMenu, menuItem, contextMenu, trays, notifications and nativeDialogs; invokeMenuItem, invokeContextMenuItem, invokeTray, armNotifications, stopNotifications, setNativeDialogPolicy.",
  CONSOLE:
    'Session.console: console output of the windows and, where the transport reaches it, the main process.',
  DIALOGS:
    'JavaScript dialogs of the pages (alert, confirm, prompt, beforeunload): Session.dialogs and dialogPolicy, setDialogPolicy, the `dialogs` subscription.',
  WINDOWS: 'Listing and choosing windows: Session.windows, window and activeWindow, switchWindow.',
};

builder.enumType('Capability', {
  description: 'A seam a transport may support. Fields that need one say so with @requiresCapability.',
  values: Object.fromEntries(
    CAPABILITIES.map((capability) => [
      capability,
      { value: capability, description: CAPABILITY_DESCRIPTIONS[capability] },
    ]),
  ) as Record<Capability, { value: Capability; description: string }>,
});

export const CapabilitiesRef = builder.objectRef<CapabilityMatrix>('Capabilities').implement({
  description:
    'What a transport (Query.transports) or a session (Session.capabilities, which may be less, e.g. an inject whose window upgrade failed) can really do: each flag is true only where the whole seam works.',
  fields: (t) =>
    Object.fromEntries(
      CAPABILITIES.map((capability) => [
        capability,
        t.exposeBoolean(capability, {
          description: CAPABILITY_DESCRIPTIONS[capability],
        }),
      ]),
    ),
});
