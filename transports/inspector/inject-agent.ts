import type { Loose } from '../main-agent/shapes.js';

/** Where the inject agent lives in the main process, so later fixed calls reach it. */
export const INJECT_AGENT_KEY = 'stagegraph.inject-agent';

export interface MainWindow {
  readonly browserWindowId: number;
  readonly contentsId: number;
  readonly title: string;
  readonly url: string;
  readonly focused: boolean;
  readonly bounds: { x: number; y: number; width: number; height: number };
}

/** What the agent reports over its channel, in the order it happened in the main process. */
export type AgentMessage =
  | { readonly kind: 'window-created'; readonly window: MainWindow; readonly attachError: string | null }
  | { readonly kind: 'window-closed'; readonly browserWindowId: number; readonly contentsId: number }
  | { readonly kind: 'response'; readonly rid: number; readonly result?: unknown; readonly error?: string }
  | {
      readonly kind: 'event';
      readonly contentsId: number;
      readonly method: string;
      readonly params: unknown;
      readonly sessionId: string | null;
    }
  | { readonly kind: 'detached'; readonly contentsId: number; readonly reason: string };

/** One CDP command for a window's debugger, sent by the gateway over the channel. */
export interface AgentCommand {
  readonly rid: number;
  readonly contentsId: number;
  readonly method: string;
  readonly params: unknown;
  readonly sessionId: string | null;
}

/** How the agent's connection back to the gateway stands: what an inject that waited in vain reports. */
export interface AgentLink {
  state: 'connecting' | 'connected' | 'failed' | 'closed';
  /** The socket's error code or message, when it failed. */
  error: string | null;
}

/** The link, and its socket as Node sees it. */
export interface AgentLinkReading extends AgentLink {
  readonly socket: {
    readonly connecting: boolean;
    readonly pending: boolean;
    readonly readyState: string;
    readonly destroyed: boolean;
    /**
     * Whether the connect syscall was made ('connectionAttempt', Node 20.12+): `connect()` only queues it
     * in a next tick, so a socket still connecting without it never left that queue.
     */
    readonly connectAttempted: boolean;
  };
}

export interface InjectAgent {
  readonly link: AgentLink;
  /** Property reads only: safe where the inspector lands (MainProcess.peek). */
  readLink(): AgentLinkReading;
  windows(): MainWindow[];
  focus(browserWindowId: number): boolean;
  /** Attaches webContents.debugger to every window now, and to each new one from now on. */
  upgrade(): { contentsId: number; error: string | null }[];
  close(contentsId: number): boolean;
  executeJavaScript(contentsId: number, code: string): Promise<unknown>;
  /**
   * Stops watching windows, lets the debuggers' commands in flight settle (for at most `settleMs`), then
   * detaches every debugger and closes the channel; the app is as it was, hooks aside. Once only.
   */
  release(settleMs?: number): Promise<void>;
}

/**
 * The main-process half of inject, shipped as source (self-contained: it references only its parameters
 * and globals). It watches windows, and for the upgrade attaches Electron's `webContents.debugger` to each
 * one and relays CDP through it. It connects back to the gateway's loopback channel (`net`, token first):
 * commands come in, answers and events go out, on that one socket and in order, so a response never
 * overtakes the events that preceded it. When the gateway goes away, everything is released.
 */
export function installInjectAgent(
  electron: Loose,
  net: Loose,
  channel: { readonly port: number; readonly token: string },
): InjectAgent {
  const { app, BrowserWindow, webContents } = electron;
  const link: AgentLink = { state: 'connecting', error: null };
  // `connect` begins in a next tick: installed by MainProcess.run, from an immediate, it is drained when
  // that callback ends (run inside the inspector's interrupt, it could stall the app's next-tick queue).
  const socket = net.connect({ host: '127.0.0.1', port: channel.port });
  socket.setNoDelay(true);
  let connectAttempted = false;
  socket.once('connectionAttempt', () => {
    connectAttempted = true;
  });
  socket.once('connect', () => {
    link.state = 'connected';
  });
  socket.on('error', (error: Loose) => {
    link.state = 'failed';
    link.error = String(error?.code ?? error?.message ?? error);
  });
  socket.once('close', () => {
    if (link.state !== 'failed') link.state = 'closed';
  });
  socket.write(`${channel.token}\n`);
  const post = (message: AgentMessage) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  const describe = (window: Loose): MainWindow => ({
    browserWindowId: window.id,
    contentsId: window.webContents.id,
    title: String(window.getTitle?.() ?? ''),
    url: String(window.webContents.getURL?.() ?? ''),
    focused: Boolean(window.isFocused?.()),
    bounds: window.getBounds?.() ?? { x: 0, y: 0, width: 0, height: 0 },
  });
  const debuggers = new Map<number, { contents: Loose; off: () => void }>();
  const watched = new Map<number, { window: Loose; off: () => void }>();
  /** Commands sent to a debugger and not yet answered: a debugger is detached only once they settle. */
  const inFlight = new Set<Promise<unknown>>();
  let upgrading = false;
  let released: Promise<void> | undefined;

  const attach = (contents: Loose): string | null => {
    if (!contents || contents.isDestroyed?.()) return 'the window is gone';
    if (debuggers.has(contents.id)) return null;
    const dbg = contents.debugger;
    try {
      dbg.attach('1.3');
    } catch (error) {
      return String((error as Error)?.message ?? error);
    }
    const onMessage = (_event: unknown, method: string, params: unknown, sessionId: string) =>
      post({ kind: 'event', contentsId: contents.id, method, params, sessionId: sessionId || null });
    const onDetach = (_event: unknown, reason: string) => {
      off();
      debuggers.delete(contents.id);
      post({ kind: 'detached', contentsId: contents.id, reason: String(reason) });
    };
    const off = () => {
      dbg.removeListener('message', onMessage);
      dbg.removeListener('detach', onDetach);
    };
    dbg.on('message', onMessage);
    dbg.on('detach', onDetach);
    debuggers.set(contents.id, { contents, off });
    return null;
  };

  const watch = (window: Loose) => {
    if (watched.has(window.id)) return;
    const contentsId = window.webContents.id;
    const onClosed = () => {
      watched.delete(window.id);
      post({ kind: 'window-closed', browserWindowId: window.id, contentsId });
    };
    window.once('closed', onClosed);
    watched.set(window.id, { window, off: () => window.removeListener('closed', onClosed) });
  };

  const onCreated = (_event: unknown, window: Loose) => {
    watch(window);
    const attachError = upgrading ? attach(window.webContents) : null;
    post({ kind: 'window-created', window: describe(window), attachError });
  };
  app.on('browser-window-created', onCreated);
  for (const window of BrowserWindow.getAllWindows()) watch(window);

  const command = ({ rid, contentsId, method, params, sessionId }: AgentCommand) => {
    const entry = debuggers.get(contentsId);
    if (!entry || released) {
      post({ kind: 'response', rid, error: 'No target available' });
      return;
    }
    const dbg = entry.contents.debugger;
    const sent = sessionId
      ? dbg.sendCommand(method, params ?? {}, sessionId)
      : dbg.sendCommand(method, params ?? {});
    const answered = sent.then(
      (result: unknown) => post({ kind: 'response', rid, result }),
      (error: Loose) => post({ kind: 'response', rid, error: String(error?.message ?? error) }),
    );
    inFlight.add(answered);
    answered.finally(() => inFlight.delete(answered));
  };
  let buffered = '';
  socket.on('data', (chunk: Loose) => {
    buffered += String(chunk);
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line) command(JSON.parse(line));
      newline = buffered.indexOf('\n');
    }
  });

  const agent: InjectAgent = {
    link,
    readLink: () => ({
      ...link,
      socket: {
        connecting: Boolean(socket.connecting),
        pending: Boolean(socket.pending),
        readyState: String(socket.readyState),
        destroyed: Boolean(socket.destroyed),
        connectAttempted,
      },
    }),
    windows: () => BrowserWindow.getAllWindows().map(describe),
    focus(browserWindowId) {
      const window = BrowserWindow.fromId(browserWindowId);
      window?.focus();
      return Boolean(window);
    },
    upgrade() {
      upgrading = true;
      return BrowserWindow.getAllWindows().map((window: Loose) => ({
        contentsId: window.webContents.id,
        error: attach(window.webContents),
      }));
    },
    close(contentsId) {
      const window = BrowserWindow.getAllWindows().find(
        (candidate: Loose) => candidate.webContents.id === contentsId,
      );
      window?.close();
      return Boolean(window);
    },
    executeJavaScript(contentsId, code) {
      const contents = webContents.fromId(contentsId);
      if (!contents) return Promise.reject(new Error(`No open window has web contents ${contentsId}.`));
      return contents.executeJavaScript(code);
    },
    release(settleMs = 2_000) {
      if (released) return released;
      upgrading = false;
      app.removeListener('browser-window-created', onCreated);
      for (const { off } of watched.values()) off();
      watched.clear();
      let settleTimer: Loose;
      const settled = Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          settleTimer = setTimeout(resolve, settleMs);
        }),
      ]);
      released = settled.then(() => {
        clearTimeout(settleTimer);
        for (const { contents, off } of debuggers.values()) {
          off();
          if (!contents.isDestroyed?.() && contents.debugger.isAttached()) contents.debugger.detach();
        }
        debuggers.clear();
        socket.destroy();
      });
      return released;
    },
  };
  // The gateway went away (stopped, crashed, detached): the app gets its debuggers back.
  socket.once('close', () => void agent.release());
  return agent;
}
