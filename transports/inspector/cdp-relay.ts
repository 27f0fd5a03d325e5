import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { TransportError } from '../contract/transport-error.js';
import type { AgentMessage } from './inject-agent.js';

/** The one browser context an injected app's windows are presented in. */
const CONTEXT_ID = 'stagegraph-injected';
/** JSON-RPC's "server error", what Chromium answers a failed command with. */
const SERVER_ERROR = -32000;

/** Sends one command to a window's debugger in the main process; the answer arrives as a `response`. */
export type CommandSink = (message: {
  rid: number;
  contentsId: number;
  method: string;
  params: unknown;
  sessionId: string | null;
}) => void;

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly title: string;
  readonly url: string;
}

interface RelayWindow {
  readonly contentsId: number;
  readonly info: TargetInfo;
  /** The session Playwright drives the page through; events of the page's own session go here. */
  primary: string | null;
}

interface Answer {
  readonly result?: unknown;
  readonly error?: string;
}

type Reply = (answer: Answer) => void;

/**
 * A browser endpoint that exists only in this process: Playwright's `connectOverCDP` speaks to it as to
 * Chromium, and every page session is carried by one window's `webContents.debugger` in the app's main
 * process (through the inspector). Browser-level commands a page-level debugger cannot serve are answered
 * here: targets are the debugged windows, cookies go through Network.* of a window, what cannot be done
 * (new windows, permissions, closing the browser) fails with a message saying so. Bound to loopback, on a
 * path nobody can guess, one client at a time.
 */
export class CdpRelay {
  readonly wsEndpoint: string;
  readonly #server: WebSocketServer;
  readonly #send: CommandSink;
  readonly #product: string;
  readonly #windows = new Map<number, RelayWindow>();
  /** Sessions that speak for the browser: the connection itself (undefined) and attachToBrowserTarget ones. */
  readonly #browserSessions = new Set<string>();
  /** Every window session Playwright holds (primary and those of newCDPSession) → the window's contents. */
  readonly #windowSessions = new Map<string, number>();
  /** Sessions a page's own debugger auto-attached (iframes, workers), ids as Chromium gave them. */
  readonly #childSessions = new Map<string, number>();
  readonly #pending = new Map<number, Reply>();
  #client: WebSocket | null = null;
  #autoAttach = false;
  #nextId = 1;

  private constructor(server: WebSocketServer, path: string, send: CommandSink, product: string) {
    this.#server = server;
    this.#send = send;
    this.#product = product;
    const { port } = server.address() as AddressInfo;
    this.wsEndpoint = `ws://127.0.0.1:${port}${path}`;
    server.on('connection', (socket) => this.#accept(socket));
  }

  static async start(send: CommandSink, product: string): Promise<CdpRelay> {
    const path = `/devtools/browser/${randomUUID()}`;
    const server = await new Promise<WebSocketServer>((resolve, reject) => {
      const created = new WebSocketServer({
        host: '127.0.0.1',
        port: 0,
        path,
        maxPayload: 256 * 1024 * 1024,
      });
      created.once('listening', () => resolve(created));
      created.once('error', reject);
    });
    return new CdpRelay(server, path, send, product);
  }

  /** A window whose debugger is attached; announced to Playwright when it auto-attaches. */
  async addWindow(contentsId: number): Promise<void> {
    if (this.#windows.has(contentsId)) return;
    const { targetInfo } = (await this.#command(contentsId, 'Target.getTargetInfo', {})) as {
      targetInfo: TargetInfo;
    };
    const window: RelayWindow = { contentsId, info: targetInfo, primary: null };
    this.#windows.set(contentsId, window);
    if (this.#autoAttach) this.#announce(window);
  }

  contentsIdOfTarget(targetId: string): number | undefined {
    for (const window of this.#windows.values())
      if (window.info.targetId === targetId) return window.contentsId;
    return undefined;
  }

  /** What the main process reported through the binding. */
  receive(message: AgentMessage): void {
    if (message.kind === 'response') {
      const reply = this.#pending.get(message.rid);
      this.#pending.delete(message.rid);
      reply?.(message.error === undefined ? { result: message.result ?? {} } : { error: message.error });
    } else if (message.kind === 'event') {
      this.#event(
        message.contentsId,
        message.method,
        message.params as Record<string, unknown>,
        message.sessionId,
      );
    } else if (message.kind === 'detached') {
      this.#windowGone(message.contentsId);
    }
  }

  async close(): Promise<void> {
    for (const reply of this.#pending.values()) reply({ error: 'The relay closed.' });
    this.#pending.clear();
    for (const client of this.#server.clients) client.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(socket: WebSocket): void {
    if (this.#client) {
      socket.close(1013, 'one client at a time');
      return;
    }
    this.#client = socket;
    socket.on('message', (data) => this.#onClientMessage(String(data)));
    socket.on('close', () => {
      this.#client = null;
      this.#autoAttach = false;
      this.#windowSessions.clear();
      this.#browserSessions.clear();
      for (const window of this.#windows.values()) window.primary = null;
    });
  }

  #onClientMessage(data: string): void {
    let message: { id: number; method: string; params?: Record<string, unknown>; sessionId?: string };
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    const { id, method, params = {}, sessionId } = message;
    const reply: Reply = (answer) =>
      this.#write(
        answer.error === undefined
          ? { id, result: answer.result, ...(sessionId ? { sessionId } : {}) }
          : { id, error: { code: SERVER_ERROR, message: answer.error }, ...(sessionId ? { sessionId } : {}) },
      );
    if (sessionId === undefined || this.#browserSessions.has(sessionId)) {
      void Promise.resolve(this.#browserCommand(method, params)).then(reply);
      return;
    }
    const windowContents = this.#windowSessions.get(sessionId);
    const childContents = this.#childSessions.get(sessionId);
    if (windowContents !== undefined) this.#forward(windowContents, method, params, null, reply);
    else if (childContents !== undefined) this.#forward(childContents, method, params, sessionId, reply);
    else reply({ error: `No session with given id: ${sessionId}` });
  }

  /** What a browser target would answer, from what a window's debugger and this relay know. */
  #browserCommand(method: string, params: Record<string, unknown>): Answer | Promise<Answer> {
    const first = this.#windows.values().next().value as RelayWindow | undefined;
    switch (method) {
      case 'Browser.getVersion': {
        // A page's own session answers it in Chromium; the main process's versions are the fallback.
        const fallback = {
          protocolVersion: '1.3',
          product: this.#product,
          revision: '',
          userAgent: this.#product,
        };
        if (!first) return { result: fallback };
        return this.#ask(first.contentsId, 'Browser.getVersion', {}).then((answer) =>
          answer.error === undefined ? answer : { result: fallback },
        );
      }
      case 'Target.setAutoAttach':
        // Announced before the answer, as Chromium does.
        this.#autoAttach = params.autoAttach === true;
        if (this.#autoAttach) for (const window of this.#windows.values()) this.#announce(window);
        return { result: {} };
      case 'Target.setDiscoverTargets':
      case 'Runtime.runIfWaitingForDebugger':
      // The app keeps its own download behaviour: nothing here may change what its user sees.
      case 'Browser.setDownloadBehavior':
        return { result: {} };
      case 'Target.getTargetInfo': {
        const window = this.#byTarget(params.targetId);
        return { result: { targetInfo: window ? this.#targetInfo(window) : this.#browserTarget() } };
      }
      case 'Target.getTargets':
        return {
          result: { targetInfos: [...this.#windows.values()].map((window) => this.#targetInfo(window)) },
        };
      case 'Target.attachToBrowserTarget': {
        const sessionId = this.#newSessionId('browser');
        this.#browserSessions.add(sessionId);
        return { result: { sessionId } };
      }
      case 'Target.attachToTarget': {
        const window = this.#byTarget(params.targetId);
        if (!window) return { error: `No target with given id found: ${params.targetId}` };
        const sessionId = this.#newSessionId(`window-${window.contentsId}`);
        this.#windowSessions.set(sessionId, window.contentsId);
        return { result: { sessionId } };
      }
      case 'Target.detachFromTarget':
        this.#windowSessions.delete(params.sessionId as string);
        return { result: {} };
      case 'Target.closeTarget': {
        const window = this.#byTarget(params.targetId);
        if (!window) return { result: { success: false } };
        // Page.close through the window's own debugger: the app's 'close' handlers run as for a person.
        return this.#ask(window.contentsId, 'Page.close', {}).then((answer) =>
          answer.error === undefined ? { result: { success: true } } : answer,
        );
      }
      // Cookies live in the app's session; a window's Network domain reaches them.
      case 'Storage.getCookies':
        return first ? this.#ask(first.contentsId, 'Network.getAllCookies', {}) : { result: { cookies: [] } };
      case 'Storage.setCookies':
        return first
          ? this.#ask(first.contentsId, 'Network.setCookies', { cookies: params.cookies })
          : { error: 'No window is open to set cookies through.' };
      case 'Storage.clearCookies':
        return first ? this.#ask(first.contentsId, 'Network.clearBrowserCookies', {}) : { result: {} };
      default:
        return { error: `'${method}' is not available through webContents.debugger (an injected session)` };
    }
  }

  #forward(
    contentsId: number,
    method: string,
    params: unknown,
    sessionId: string | null,
    reply: Reply,
  ): void {
    const rid = this.#nextId++;
    this.#pending.set(rid, reply);
    this.#send({ rid, contentsId, method, params, sessionId });
  }

  /** One command of the window's own session, answered as a promise. */
  #ask(contentsId: number, method: string, params: unknown): Promise<Answer> {
    return new Promise((resolve) => this.#forward(contentsId, method, params, null, resolve));
  }

  async #command(contentsId: number, method: string, params: unknown): Promise<unknown> {
    const answer = await this.#ask(contentsId, method, params);
    if (answer.error !== undefined) throw new TransportError('protocol', answer.error, { method });
    return answer.result;
  }

  #event(
    contentsId: number,
    method: string,
    params: Record<string, unknown>,
    sessionId: string | null,
  ): void {
    if (method === 'Target.attachedToTarget') this.#childSessions.set(params.sessionId as string, contentsId);
    if (method === 'Target.detachedFromTarget') this.#childSessions.delete(params.sessionId as string);
    const target = sessionId ?? this.#windows.get(contentsId)?.primary;
    // Events before Playwright holds the window have nobody to go to; it reads the page's state on attach.
    if (target) this.#write({ method, params, sessionId: target });
  }

  #announce(window: RelayWindow): void {
    if (window.primary) return;
    window.primary = this.#newSessionId(`window-${window.contentsId}`);
    this.#windowSessions.set(window.primary, window.contentsId);
    this.#write({
      method: 'Target.attachedToTarget',
      params: { sessionId: window.primary, targetInfo: this.#targetInfo(window), waitingForDebugger: false },
    });
  }

  #windowGone(contentsId: number): void {
    const window = this.#windows.get(contentsId);
    if (!window) return;
    this.#windows.delete(contentsId);
    for (const [sessionId, owner] of [...this.#windowSessions, ...this.#childSessions]) {
      if (owner !== contentsId) continue;
      this.#windowSessions.delete(sessionId);
      this.#childSessions.delete(sessionId);
    }
    if (window.primary) {
      this.#write({
        method: 'Target.detachedFromTarget',
        params: { sessionId: window.primary, targetId: window.info.targetId },
      });
    }
  }

  #byTarget(targetId: unknown): RelayWindow | undefined {
    return [...this.#windows.values()].find((window) => window.info.targetId === targetId);
  }

  #targetInfo(window: RelayWindow) {
    return {
      ...window.info,
      type: 'page',
      attached: true,
      canAccessOpener: false,
      browserContextId: CONTEXT_ID,
    };
  }

  #browserTarget() {
    return {
      targetId: 'stagegraph-relay',
      type: 'browser',
      title: '',
      url: '',
      attached: true,
      canAccessOpener: false,
    };
  }

  #newSessionId(kind: string): string {
    return `stagegraph-${kind}-${randomUUID()}`;
  }

  #write(message: unknown): void {
    this.#client?.send(JSON.stringify(message));
  }
}
