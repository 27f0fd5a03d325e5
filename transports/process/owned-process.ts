import { type ChildProcess, spawn } from 'node:child_process';
import { constants, createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { EARLY_EVENT_LIMIT } from '../contract/event-relay.js';
import type { ExitInfo } from '../contract/transport-events.js';
import { type AppIsolation, isolatedCommand } from './isolation.js';
import { readLines } from './output-lines.js';
import { OwnedGroup } from './owned-group.js';
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER } from './owner-only-modes.js';
import { livingGroupMembers, signalGroup } from './process-group.js';

/** Lines of stderr kept for a launch error (EXITED_EARLY, LAUNCH_FAILED, LAUNCH_TIMEOUT): the last words. */
export const STDERR_TAIL_LINES = 20;

export type OutputStream = 'stdout' | 'stderr';

/**
 * A command Stagegraph started and owns: its own process group (so stop reaches everything it spawns),
 * stdout and stderr recorded byte for byte in `<outputDir>/stdout.log` and `stderr.log`, and line by line
 * to listeners. When the leader exits on its own, whatever is left of its group is killed.
 */
export class OwnedProcess {
  readonly pid: number;
  readonly executablePath: string;
  readonly exited: Promise<ExitInfo>;
  readonly #listeners = new Set<(stream: OutputStream, text: string) => void>();
  readonly #tail: string[] = [];
  /** Lines written before anyone listened (while Stagegraph waited for the CDP port), bounded. */
  #early: [OutputStream, string][] = [];
  #exit: ExitInfo | undefined;
  #spawnError: Error | undefined;
  readonly #group: OwnedGroup | undefined;

  private constructor(child: ChildProcess, executablePath: string, outputDir: string) {
    this.executablePath = executablePath;
    this.pid = child.pid ?? -1;
    mkdirSync(outputDir, { recursive: true, mode: OWNER_ONLY_FOLDER });
    this.#record(child, 'stdout', appendNoFollow(join(outputDir, 'stdout.log')));
    this.#record(child, 'stderr', appendNoFollow(join(outputDir, 'stderr.log')));
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

  static start(
    command: string,
    args: readonly string[],
    options: {
      cwd?: string;
      env: NodeJS.ProcessEnv;
      outputDir: string;
      isolation?: AppIsolation | undefined;
    },
  ): OwnedProcess {
    const run = options.isolation
      ? isolatedCommand(options.isolation, command, args, options.env)
      : { command, args: [...args] };
    // detached: the child leads a new process group, which stop and kill signal as a whole.
    const child = spawn(run.command, run.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new OwnedProcess(child, command, options.outputDir);
  }

  hasExited(): boolean {
    return this.#exit !== undefined;
  }

  /** Why the process could not even start (ENOENT, EACCES), once it has failed to. */
  get spawnError(): Error | undefined {
    return this.#spawnError;
  }

  /** The last lines of stderr, for errors that must show what the app said before it failed. */
  stderrTail(): string {
    return this.#tail.join('\n');
  }

  /** Whether `pid` is in this process's group: a launcher script's child may be what a transport finds. */
  owns(pid: number): boolean {
    return pid === this.pid || (this.pid > 0 && livingGroupMembers(this.pid).includes(pid));
  }

  /** Listens to every line from now on; the first listener also gets the lines written before it. */
  onOutput(listener: (stream: OutputStream, text: string) => void): () => void {
    this.#listeners.add(listener);
    const early = this.#early;
    this.#early = [];
    for (const [stream, text] of early) listener(stream, text);
    return () => this.#listeners.delete(listener);
  }

  /** Whether stop() has been called: a connection lost from then on is the stop's doing, not news. */
  get stopRequested(): boolean {
    return this.#group?.stopRequested ?? false;
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
 * Appends to `path` without following it when it is a symbolic link: a link planted there by a process
 * running as this user must not redirect the app's output (the session folder itself is checked by its
 * owner before the app starts).
 */
function appendNoFollow(path: string): WriteStream {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;
  return createWriteStream(path, { fd: openSync(path, flags, OWNER_ONLY_FILE) });
}
