import { join } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import {
  type DebuggableApp,
  type DesktopApp,
  isAttachTransport,
  isDesktopTransport,
  isInjectTransport,
  isLaunchTransport,
  type Transport,
  type TransportId,
  type TransportSession,
} from '../../transports/contract/transport-contract.js';
import type { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { OwnPages } from '../governance/own-pages/own-pages.js';
import { realFolder } from './artifact-folder.js';
import {
  ATTACH_HOST_DEFAULT,
  type AttachRequest,
  attachOptions,
  type CommandRequest,
  commandOptions,
  type InjectRequest,
  injectOptions,
} from './attach-requests.js';
import {
  type DesktopAttachRequest,
  type DesktopLaunchRequest,
  desktopAttachOptions,
  desktopLaunchOptions,
} from './desktop-requests.js';
import { type LaunchRequest, launchOptions } from './launch-requests.js';
import { sessionActions } from './next-actions.js';
import { Session, type SessionLaunch } from './session.js';
import type { SessionFiles } from './session-files.js';
import type { SessionPlacement } from './session-placement.js';
import { endedDuringStartup } from './startup-exit.js';
import { clamp } from './timeouts.js';
import { awaitWindowsLoaded } from './window-load.js';

export const STOP_GRACE_DEFAULT_MS = 5_000;
export const STOP_GRACE_MAX_MS = 30_000;
/** Ended sessions kept for post-mortem reads; the oldest ended one is forgotten past this. */
export const MAX_ENDED_SESSIONS = 50;

/** Artifacts under the working directory's ignored .artifacts folder; uploads only from the working directory. */
const DEFAULT_FILES: SessionFiles = {
  artifactsDir: join(process.cwd(), '.artifacts'),
  uploadRoots: [process.cwd()],
};

/** Sessions reached rather than launched: nothing names their main script. */
const NOT_LAUNCHED: SessionLaunch = { main: null, executablePath: null };

/** Owns every session: creates them through a transport, finds them by id, and ends them all at shutdown. */
export class SessionRegistry {
  readonly #transports: ReadonlyMap<TransportId, Transport>;
  readonly #hub: EventHub<SessionTopics>;
  readonly #sessions = new Map<string, Session>();
  readonly #files: SessionFiles & { readonly ownPages: OwnPages };
  #nextId = 1;
  #placement: SessionPlacement | undefined;
  #shuttingDown = false;
  /** Injects still under way: shutdown abandons them rather than wait out their timeouts. */
  readonly #injecting = new Set<AbortController>();

  constructor(
    transports: readonly Transport[],
    hub: EventHub<SessionTopics>,
    files: SessionFiles = DEFAULT_FILES,
  ) {
    this.#transports = new Map(transports.map((transport) => [transport.id, transport]));
    this.#hub = hub;
    this.#files = { ...files, ownPages: files.ownPages ?? new OwnPages() };
  }

  /** The gateway's own pages, which no session reads or acts on: the server says where it serves them. */
  get ownPages(): OwnPages {
    return this.#files.ownPages;
  }

  place(placement: SessionPlacement): void {
    this.#placement = placement;
  }

  transports(): Transport[] {
    return [...this.#transports.values()];
  }

  list(): Session[] {
    return [...this.#sessions.values()];
  }

  async launch(request: LaunchRequest): Promise<Session> {
    this.#assertAccepting();
    const options = launchOptions(request);
    const transport = this.#transports.get(request.transport ?? 'playwright-electron');
    if (!transport || !isLaunchTransport(transport) || !transport.capabilities.LAUNCH) {
      throw new StagegraphError(
        'CAPABILITY_UNSUPPORTED',
        `Transport ${request.transport} cannot launch apps.`,
        {
          nextActions: [sessionActions.transportsWith('LAUNCH')],
        },
      );
    }
    const started = Date.now();
    const transportSession = await transport.launch(options);
    const session = await this.#adopt(
      this.#reserveId(),
      transport,
      transportSession,
      { main: request.main ?? null, executablePath: request.executablePath ?? null },
      Math.max(0, options.timeoutMs - (Date.now() - started)),
      `launch of ${request.main ?? request.executablePath}`,
    );
    return this.#assertStarted(session, transportSession);
  }

  /** Attaches to a running app over its DevTools port; the session is RUNNING at once, its windows open. */
  async attach(request: AttachRequest): Promise<Session> {
    this.#assertAccepting();
    const transport = this.#transportFor('ATTACH', isAttachTransport);
    const options = attachOptions(request);
    const transportSession = await transport.attach(options);
    const where = options.cdpUrl ?? `${options.host}:${options.port}`;
    return this.#adopt(this.#reserveId(), transport, transportSession, NOT_LAUNCHED, 0, `attach to ${where}`);
  }

  /** Starts a command with a DevTools port, records its output in the session's folder, and attaches. */
  async launchCommand(request: CommandRequest): Promise<Session> {
    this.#assertAccepting();
    const transport = this.#transportFor('ATTACH', isAttachTransport);
    return this.#startCommand(
      transport,
      request.command,
      (folder) => commandOptions(request, folder),
      (options) => transport.launchCommand(options),
      'launchCommand',
    );
  }

  /** Opens the inspector of a running main process and drives the app through it. */
  async inject(request: InjectRequest): Promise<Session> {
    this.#assertAccepting();
    const transport = this.#transportFor('INJECT', isInjectTransport);
    const abandon = new AbortController();
    this.#injecting.add(abandon);
    const options = { ...injectOptions(request), signal: abandon.signal };
    const transportSession = await transport.inject(options).finally(() => this.#injecting.delete(abandon));
    return this.#adopt(
      this.#reserveId(),
      transport,
      transportSession,
      NOT_LAUNCHED,
      0,
      `inject into pid ${options.pid}`,
    );
  }

  /** Starts a desktop app (on a desktop of its own when the server has none), records its output, and follows it. */
  async launchDesktop(request: DesktopLaunchRequest): Promise<Session> {
    this.#assertAccepting();
    const transport = this.#transportFor('LAUNCH', isDesktopTransport);
    return this.#startCommand(
      transport,
      request.command,
      (folder) => desktopLaunchOptions(request, folder),
      (options) => transport.launchDesktop(options),
      'launchDesktop',
    );
  }

  /** Reaches an app of the current desktop by pid or accessible name; it keeps running when let go. */
  async attachDesktop(request: DesktopAttachRequest): Promise<Session> {
    this.#assertAccepting();
    const transport = this.#transportFor('ATTACH', isDesktopTransport);
    const options = desktopAttachOptions(request);
    const transportSession = await transport.attachDesktop(options);
    const which = options.pid !== undefined ? `pid ${options.pid}` : `app ${options.appName}`;
    return this.#adopt(
      this.#reserveId(),
      transport,
      transportSession,
      NOT_LAUNCHED,
      0,
      `attachDesktop to ${which}`,
    );
  }

  /** The accessible apps of the current desktop. */
  desktopApps(): Promise<DesktopApp[]> {
    return this.#transportFor('ATTACH', isDesktopTransport).desktopApps();
  }

  /** Debuggable browsers and apps answering on loopback ports. */
  discover(ports: readonly number[], host?: string | null): Promise<DebuggableApp[]> {
    return this.#transportFor('ATTACH', isAttachTransport).discover(ports, host ?? ATTACH_HOST_DEFAULT);
  }

  async detach(id?: string | null): Promise<Session> {
    const session = this.get(id);
    await session.detach();
    await session.runLog.written();
    return session;
  }

  /**
   * The session with `id`; without an id, the only live session, or the only session at all. An empty id is
   * not "no id": forceKill(id: "") killed the only live session, the one its caller did not name.
   */
  get(id?: string | null): Session {
    if (id != null) {
      if (id.trim() === '')
        throw new StagegraphError('BAD_INPUT', `A session id cannot be blank, and "${id}" is.`, {
          hint: 'Name a session by its id (s1, s2, ...), or leave the argument out for the only live session.',
          nextActions: this.#listingActions(),
        });
      const session = this.#sessions.get(id);
      this.#placement?.assertServes(id, session !== undefined);
      if (session) return session;
      throw new StagegraphError('SESSION_NOT_FOUND', `No session has id "${id}".`, {
        nextActions: this.#listingActions(),
        details: {
          liveSessions: this.list()
            .filter((s) => s.isLive)
            .map((s) => s.id),
        },
      });
    }
    const live = this.list().filter((session) => session.isLive);
    const only = live.length === 1 ? live[0] : this.#sessions.size === 1 ? this.list()[0] : undefined;
    if (only) return only;
    if (this.#sessions.size === 0) {
      throw new StagegraphError('SESSION_NOT_FOUND', 'There are no sessions yet.', {
        hint: 'Launch an app first (`launch(input: { main })`), or attach to or inject into a running one.',
        nextActions: [sessionActions.transportsWith('LAUNCH')],
      });
    }
    throw new StagegraphError(
      'SESSION_AMBIGUOUS',
      `${live.length} sessions are live; say which one with \`id\`.`,
      {
        nextActions: this.#listingActions(),
        details: { liveSessions: live.map((session) => session.id) },
      },
    );
  }

  async stop(id?: string | null, graceMs?: number | null): Promise<Session> {
    const session = this.get(id);
    await session.stop(clamp(graceMs, STOP_GRACE_DEFAULT_MS, 0, STOP_GRACE_MAX_MS));
    // Answered once the run log's file holds the exit: a reader of it is told the session ended.
    await session.runLog.written();
    return session;
  }

  async forceKill(id?: string | null): Promise<Session> {
    const session = this.get(id);
    await session.forceKill();
    await session.runLog.written();
    return session;
  }

  /**
   * Server shutdown: refuse new sessions, stop every session whose app Stagegraph started (each within its
   * grace bound) and let go of the apps it only attached to, which keep running.
   */
  async stopAll(graceMs = STOP_GRACE_DEFAULT_MS): Promise<void> {
    this.#shuttingDown = true;
    for (const inject of this.#injecting) inject.abort();
    await Promise.all(this.list().map((session) => session.end(graceMs)));
    await Promise.all(this.list().map((session) => session.runLog.close()));
  }

  /** The session with `id`, if the registry still holds it; never throws. */
  find(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  #assertAccepting(): void {
    this.#placement?.assertAccepting();
    if (this.#shuttingDown) {
      throw new StagegraphError('LAUNCH_FAILED', 'The server is shutting down and accepts no new sessions.');
    }
  }

  #reserveId(): string {
    const id = this.#placement?.idFor(this.#nextId) ?? `s${this.#nextId}`;
    this.#nextId += 1;
    return id;
  }

  #transportFor<T extends Transport>(
    capability: 'ATTACH' | 'INJECT' | 'LAUNCH',
    kind: (transport: Transport) => transport is T,
  ): T {
    const transport = [...this.#transports.values()].find(
      (candidate): candidate is T => kind(candidate) && candidate.capabilities[capability],
    );
    if (transport) return transport;
    throw new StagegraphError('CAPABILITY_UNSUPPORTED', `No transport of this server has ${capability}.`, {
      nextActions: [sessionActions.transportsWith(capability)],
    });
  }

  /**
   * Starts a command and adopts it with what is left of its timeout. The id comes first: the process's
   * output is recorded in the session's folder from its first line.
   */
  async #startCommand<Options extends { readonly timeoutMs: number }>(
    transport: Transport,
    command: string,
    optionsFor: (folder: string) => Options,
    start: (options: Options) => Promise<TransportSession>,
    operation: string,
  ): Promise<Session> {
    const id = this.#reserveId();
    // The command's stdout.log and stderr.log go there from its first line: never through a planted link.
    const options = optionsFor(realFolder(join(this.#files.artifactsDir, id)));
    const started = Date.now();
    const transportSession = await start(options);
    const session = await this.#adopt(
      id,
      transport,
      transportSession,
      { main: null, executablePath: command },
      Math.max(0, options.timeoutMs - (Date.now() - started)),
      `${operation} of ${command}`,
    );
    return this.#assertStarted(session, transportSession);
  }

  /** A launched app that ended before its launch answered did not launch: no session is kept for it. */
  #assertStarted(session: Session, transportSession: TransportSession): Session {
    const failure = endedDuringStartup(session, transportSession);
    if (!failure) return session;
    this.#sessions.delete(session.id);
    void session.runLog.close();
    throw failure;
  }

  /** Records a transport's new session, on the renderer it picked, once it is running. */
  async #adopt(
    id: string,
    transport: Transport,
    transportSession: TransportSession,
    launch: SessionLaunch,
    waitForWindowMs: number,
    origin: string,
  ): Promise<Session> {
    const session = new Session(
      id,
      transport.id,
      transportSession.capabilities ?? transport.capabilities,
      transportSession,
      this.#hub,
      this.#files,
      launch,
      origin,
    );
    this.#sessions.set(session.id, session);
    this.#forgetOldEndedSessions();
    if (transportSession.preferredWindowId) session.preferWindow(transportSession.preferredWindowId);
    await session.becomeRunning(waitForWindowMs);
    await awaitWindowsLoaded(session);
    return session;
  }

  #listingActions(): string[] {
    const live = this.list()
      .filter((s) => s.isLive)
      .slice(0, 5);
    return [sessionActions.listSessions(), ...live.map((session) => sessionActions.overview(session))];
  }

  #forgetOldEndedSessions(): void {
    const ended = this.list().filter((session) => !session.isLive);
    for (const session of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_SESSIONS))) {
      this.#sessions.delete(session.id);
      void session.runLog.close();
    }
  }
}
