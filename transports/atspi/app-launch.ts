import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { EARLY_EVENT_LIMIT } from '../contract/event-relay.js';
import type { ExitInfo } from '../contract/transport.js';
import { readLines } from '../process/output-lines.js';
import { delay, livingGroupMembers, OwnedGroup, signalGroup } from '../process/process-group.js';
import type { AtspiBus } from './atspi-bus.js';
import { type RegisteredApp, registeredAppWhere, windowRefs } from './registered-apps.js';

/** Lines of stderr kept for a launch error: enough to show the app's last words. */
const STDERR_TAIL_LINES = 20;
/** How often the registry is read while a launched app registers and opens its first window. */
const REGISTRY_POLL_MS = 100;

export type OutputStream = 'stdout' | 'stderr';

export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  /** `stdout.log` and `stderr.log` are written here byte for byte (the session's artifact folder). */
  readonly outputDir: string;
}

/**
 * A desktop app Stagegraph started and owns: the leader of its own process group (so stop reaches every
 * helper it spawns), its output recorded to files and handed out line by line. The same shape as the CDP
 * transport's owned process, which this layer may not import.
 */
export class LaunchedApp {
  readonly pid: number;
  readonly command: string;
  readonly exited: Promise<ExitInfo>;
  readonly #group: OwnedGroup | undefined;
  readonly #listeners = new Set<(stream: OutputStream, text: string) => void>();
  readonly #tail: string[] = [];
  /** Lines written while Stagegraph waited for the first window, handed to the first listener. */
  #early: [OutputStream, string][] = [];
  #exit: ExitInfo | undefined;
  #spawnError: Error | undefined;

  private constructor(child: ChildProcess, spec: LaunchSpec) {
    this.command = spec.command;
    this.pid = child.pid ?? -1;
    mkdirSync(spec.outputDir, { recursive: true });
    this.#record(child, 'stdout', createWriteStream(join(spec.outputDir, 'stdout.log'), { flags: 'a' }));
    this.#record(child, 'stderr', createWriteStream(join(spec.outputDir, 'stderr.log'), { flags: 'a' }));
    this.exited = new Promise((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.#exit) return;
        this.#exit = { code, signal };
        resolve(this.#exit);
      };
      child.once('exit', finish);
      child.once('error', (error) => {
        this.#spawnError = error;
        finish(null, null);
      });
    });
    this.#group = this.pid > 0 ? new OwnedGroup(this.pid, this.exited) : undefined;
  }

  static start(spec: LaunchSpec): LaunchedApp {
    const child = spawn(spec.command, [...spec.args], {
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new LaunchedApp(child, spec);
  }

  hasExited(): boolean {
    return this.#exit !== undefined;
  }

  get spawnError(): Error | undefined {
    return this.#spawnError;
  }

  get stopRequested(): boolean {
    return this.#group?.stopRequested ?? false;
  }

  stderrTail(): string {
    return this.#tail.join('\n');
  }

  /** Whether `pid` belongs to this app's process group (a launcher script's child registers, not the script). */
  owns(pid: number): boolean {
    return pid === this.pid || (this.pid > 0 && livingGroupMembers(this.pid).includes(pid));
  }

  onOutput(listener: (stream: OutputStream, text: string) => void): () => void {
    this.#listeners.add(listener);
    const early = this.#early;
    this.#early = [];
    for (const [stream, text] of early) listener(stream, text);
    return () => this.#listeners.delete(listener);
  }

  /** SIGINT to the group, then SIGTERM, then SIGKILL, each only when the group outlives its deadline. */
  stop(graceMs: number): Promise<ExitInfo> {
    if (!this.#group) return this.exited;
    return this.#group.stop(async () => signalGroup(this.pid, 'SIGINT'), graceMs);
  }

  kill(): Promise<ExitInfo> {
    return this.#group?.kill() ?? this.exited;
  }

  /** For disposal: kills the group, unless a requested stop is ending it (then waits for that). */
  end(): Promise<ExitInfo> {
    return this.#group?.end() ?? this.exited;
  }

  #record(child: ChildProcess, stream: OutputStream, file: WriteStream): void {
    const source = child[stream];
    if (!source) return;
    source.on('data', (chunk: Buffer) => file.write(chunk));
    source.once('end', () => file.end());
    readLines(source, (text) => this.#line(stream, text));
  }

  #line(stream: OutputStream, text: string): void {
    if (stream === 'stderr') {
      this.#tail.push(text);
      if (this.#tail.length > STDERR_TAIL_LINES) this.#tail.shift();
    }
    if (this.#listeners.size === 0) {
      this.#early.push([stream, text]);
      if (this.#early.length > EARLY_EVENT_LIMIT) this.#early.shift();
    }
    for (const listener of this.#listeners) listener(stream, text);
  }
}

/**
 * Waits until the launched app has registered with the desktop's accessibility registry (found by the
 * process id behind its bus name) and shows a top-level window. LAUNCH_FAILED when it could not start,
 * LAUNCH_FAILED too when it ended first (with its stderr tail), LAUNCH_TIMEOUT when it never became accessible.
 */
export async function waitForLaunchedApp(
  bus: AtspiBus,
  app: LaunchedApp,
  timeoutMs: number,
): Promise<RegisteredApp> {
  const deadline = Date.now() + timeoutMs;
  let registered: RegisteredApp | undefined;
  for (;;) {
    if (app.hasExited()) throw await exitedError(app);
    registered ??= await registeredAppWhere(bus, (pid) => app.owns(pid));
    if (registered && (await windowRefs(bus, registered.ref).catch(() => [])).length > 0) return registered;
    if (Date.now() >= deadline) {
      throw new StagegraphError(
        'LAUNCH_TIMEOUT',
        registered
          ? `${app.command} registered with the accessibility registry but showed no window within ${timeoutMs} ms.`
          : `${app.command} did not register with the accessibility registry within ${timeoutMs} ms.`,
        {
          hint: 'Check the command opens a window on its own; a GTK app needs its accessibility bridge (do not set NO_AT_BRIDGE=1), a Qt app QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1. Raise timeoutMs if it is slow.',
          details: { command: app.command, pid: app.pid, stderrTail: app.stderrTail() },
        },
      );
    }
    await Promise.race([delay(REGISTRY_POLL_MS), app.exited]);
  }
}

async function exitedError(app: LaunchedApp): Promise<StagegraphError> {
  const exit = await app.exited;
  if (app.spawnError) {
    return new StagegraphError(
      'LAUNCH_FAILED',
      `${app.command} could not start: ${app.spawnError.message}.`,
      {
        hint: "Check `command` is an executable path, or a name on the server's PATH, and that `cwd` exists.",
        details: { command: app.command },
      },
    );
  }
  return new StagegraphError(
    'LAUNCH_FAILED',
    `${app.command} exited (${exit.signal ?? `code ${exit.code}`}) before it showed an accessible window.`,
    {
      hint: 'Read `details.stderrTail`; check the command runs by hand on this desktop.',
      details: { command: app.command, exit, stderrTail: app.stderrTail() },
    },
  );
}
