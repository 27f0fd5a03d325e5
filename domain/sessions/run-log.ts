import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { OWNER_ONLY_FILE } from '../../transports/process/owner-only-modes.js';
import { APPEND_NO_FOLLOW, realFolder } from './artifact-folder.js';

/** The run log's file name in a session's artifact folder: one JSON object per line. */
export const RUN_LOG_FILE = 'run.jsonl';
/**
 * A run log stops growing at this size (a chatty app can write gigabytes); what did not fit is counted
 * and the count written last, so the file says it is incomplete.
 */
export const RUN_LOG_MAX_BYTES = 16 * 1024 * 1024;
/** One message longer than this is cut: a line is for reading, the raw stdout.log keeps every byte. */
export const RUN_LOG_MAX_MESSAGE = 8_192;
/**
 * Lines are gathered and written together at most this long after the first of them: a console flood
 * costs one file write per interval instead of one per line (each a trip through the stream and the
 * thread pool, a tenth of the gateway's CPU per console line before). `close` writes what is waiting.
 */
export const RUN_LOG_FLUSH_MS = 25;

/** Where a line came from: the app's process output, its console, its dialogs, or Stagegraph itself. */
export type RunLogSource = 'stdout' | 'stderr' | 'console' | 'dialog' | 'stagegraph';
export type RunLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface RunLogEntry {
  readonly time: Date;
  readonly source: RunLogSource;
  readonly level: RunLogLevel;
  readonly message: string;
  /** The window it concerns, when one does. */
  readonly windowId?: string | null;
}

/** Console types as Chromium names them, on the run log's four levels. */
export function levelOfConsole(type: string): RunLogLevel {
  if (type === 'error' || type === 'assert' || type === 'pageerror') return 'error';
  if (type === 'warning' || type === 'warn') return 'warn';
  if (type === 'debug' || type === 'trace' || type === 'verbose') return 'debug';
  return 'info';
}

/**
 * A session's unified run log, `<artifacts>/<session>/run.jsonl`: the app's stdout and stderr, its
 * console, the dialogs it raised and what Stagegraph did, interleaved in the order they happened, one
 * `{ time, source, level, message, windowId? }` per line. Appended to, so a server restarted onto the same
 * session ids never erases an earlier run; bounded, and written without blocking the caller.
 */
export class RunLog {
  readonly path: string;
  readonly #folder: string;
  #stream: WriteStream | null | undefined;
  #bytes = 0;
  #dropped = 0;
  #closed = false;
  /** Lines appended since the last write; within the size bound, as every line counts against it. */
  #waiting: string[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  /** Settles once the file holds every line handed to the stream so far. */
  #lastWrite: Promise<void> = Promise.resolve();

  constructor(folder: string) {
    this.#folder = folder;
    this.path = join(folder, RUN_LOG_FILE);
  }

  /** Entries that did not fit under the size bound. */
  get dropped(): number {
    return this.#dropped;
  }

  append(entry: RunLogEntry): void {
    if (this.#closed) return;
    const line = `${JSON.stringify({
      time: entry.time.toISOString(),
      source: entry.source,
      level: entry.level,
      message:
        entry.message.length > RUN_LOG_MAX_MESSAGE
          ? `${entry.message.slice(0, RUN_LOG_MAX_MESSAGE)}…`
          : entry.message,
      ...(entry.windowId ? { windowId: entry.windowId } : {}),
    })}\n`;
    const size = Buffer.byteLength(line);
    if (this.#bytes + size > RUN_LOG_MAX_BYTES) {
      this.#dropped += 1;
      return;
    }
    this.#bytes += size;
    this.#waiting.push(line);
    if (this.#flushTimer) return;
    this.#flushTimer = setTimeout(() => this.#flush(), RUN_LOG_FLUSH_MS);
    // A record, not a reason to keep the process up; close() writes what is left.
    this.#flushTimer.unref();
  }

  /** Notes Stagegraph's own doings. */
  stagegraph(message: string, level: RunLogLevel = 'info'): void {
    this.append({ time: new Date(), source: 'stagegraph', level, message });
  }

  /**
   * Writes what is waiting now and settles once the file holds every line appended so far: what a reader
   * of the file (the artifacts listing, a stop's caller) must be able to count on.
   */
  written(): Promise<void> {
    this.#flush();
    return this.#lastWrite;
  }

  /** Writes what was dropped, if anything, and closes the file; later entries are ignored. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush();
    if (this.#dropped > 0) {
      // Past the bound on purpose: this one line says the log is incomplete.
      this.#open()?.write(
        `${JSON.stringify({ time: new Date().toISOString(), source: 'stagegraph', level: 'warn', message: `run log full: ${this.#dropped} entries dropped` })}\n`,
      );
    }
    this.#closed = true;
    const stream = this.#stream;
    if (stream) await new Promise<void>((resolve) => stream.end(resolve));
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#waiting.length === 0) return;
    const text = this.#waiting.join('');
    this.#waiting = [];
    const stream = this.#open();
    // A failed write settles too: the log is a record, and its error is already ignored.
    this.#lastWrite = stream
      ? new Promise((resolve) => stream.write(text, () => resolve()))
      : Promise.resolve();
  }

  /** The file's stream; null when the session folder cannot be written (a symbolic link, or no permission). */
  #open(): WriteStream | null {
    if (this.#stream === undefined) {
      try {
        realFolder(this.#folder);
        // Opened here, not by the stream: its `flags` take no O_NOFOLLOW, and a run.jsonl that is a link is refused.
        this.#stream = createWriteStream(this.path, {
          fd: openSync(this.path, APPEND_NO_FOLLOW, OWNER_ONLY_FILE),
        });
        // A full disk must not take the session down; the log is a record, not a dependency.
        this.#stream.on('error', () => undefined);
      } catch {
        this.#stream = null;
      }
    }
    return this.#stream;
  }
}
