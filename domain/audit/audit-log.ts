import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import { EventHub } from '../events/event-hub.js';
import { type OpenedLog, openChain } from './audit-chain-open.js';
import { type AuditFileWriter, AuditWriteFailure, unwritableFolderError } from './audit-file-writer.js';
import { fileSizeOf, listAuditFiles } from './audit-files.js';
import type { AuditFolderLock } from './audit-folder-lock.js';
import { HeldRecords, MAX_HELD_AUDIT_RECORDS } from './audit-held.js';
import {
  type AuditFilter,
  type AuditPage,
  type AuditQuery,
  matchesAuditFilter,
  readAuditPage,
} from './audit-query.js';
import { type AuditEntry, type AuditRecord, sealFitting } from './audit-record.js';
import type { AuditRecovery } from './audit-resume.js';

/** Small enough to open in an editor and to copy off a machine, large enough that rotation is rare. */
export const DEFAULT_MAX_AUDIT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * How long an appended record may sit in the OS page cache before fsync. Every append is written (so it
 * survives the process crashing) before it resolves; only a power loss or kernel crash can take the last
 * quarter second. fsync per record would cost about as much as the click it records.
 */
export const AUDIT_FSYNC_INTERVAL_MS = 250;

/**
 * How often an unwritable log tries its folder again on its own, so that the records it holds are written
 * soon after the operator's fix even when no operation comes to try it. One open() a second is nothing.
 */
export const AUDIT_RETRY_INTERVAL_MS = 1_000;

export interface AuditLogOptions {
  readonly maxFileBytes?: number;
  /** fsync before each append resolves: for deployments where no record may ever be lost. */
  readonly syncEveryRecord?: boolean;
  /** Tests inject time. */
  readonly now?: () => Date;
  /** Where the log says that its folder failed and recovered (the gateway's log). */
  readonly report?: (line: string) => void;
}

interface Waiting {
  readonly entry: AuditEntry;
  /** When it was appended: a record held through a failure keeps the time of its operation. */
  readonly time: Date;
  readonly resolve: (record: AuditRecord) => void;
  readonly reject: (error: unknown) => void;
}

type AuditTopics = { record: AuditRecord };

const ignore = () => {};

/**
 * The append-only, hash-chained audit log of one directory. Appends are queued and written in order by a
 * single writer (queued ones go out in one write), so records never interleave and the chain is linear.
 * Files rotate by size; the first record of a new file carries the previous file's last hash.
 *
 * When the folder cannot be written (full, read-only) the log is unavailable: `ready` refuses operations
 * before they act, the records of those already acting are held in memory, and the writer tries again (on
 * every `ready` and every second); once it can write, the held records go first and the chain continues
 * from the last record written. Only a log whose records are gone or corrupt is broken for good.
 */
export class AuditLog {
  readonly dir: string;
  readonly recovered: AuditRecovery | null;
  #options: Required<Omit<AuditLogOptions, 'now' | 'report'>> & {
    now: () => Date;
    report: (line: string) => void;
  };
  #writer: AuditFileWriter;
  readonly #lock: AuditFolderLock;
  #seq: number;
  #lastHash: string;
  #queue: Waiting[] = [];
  #writing: Promise<void> | undefined;
  #syncTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Set while the folder cannot be written; cleared by a reopen that works. */
  #unavailable: StagegraphError | undefined;
  /**
   * Set once a full disk took the reserve: records still go out on its room, but no operation may start
   * until the reserve can be made again.
   */
  #full: StagegraphError | undefined;
  /** ready() or the retry timer asks the writer to try making the reserve again. */
  #remakeDue = false;
  #held = new HeldRecords<Waiting>();
  /** Set for good when the records on disk are not the ones written. */
  #broken: StagegraphError | undefined;
  #closed = false;
  #hub = new EventHub<AuditTopics>();

  /** Opens (or creates) the log and continues its chain: see openChain for how it refuses. */
  static async open(dir: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    return new AuditLog(dir, await openChain(dir), options);
  }

  private constructor(dir: string, state: OpenedLog, options: AuditLogOptions) {
    this.dir = dir;
    this.#lock = state.lock;
    this.recovered = state.recovered;
    this.#writer = state.writer;
    this.#seq = state.seq;
    this.#lastHash = state.lastHash;
    this.#options = {
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_AUDIT_FILE_BYTES,
      syncEveryRecord: options.syncEveryRecord ?? false,
      now: options.now ?? (() => new Date()),
      report: options.report ?? ignore,
    };
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** Records of operations that acted while the folder could not be written, waiting to be written first. */
  get heldRecords(): number {
    return this.#held.size;
  }

  /**
   * Resolves when a record can be written now; the chokepoint calls it before an operation acts. Rejects with
   * AUDIT_UNAVAILABLE while the folder cannot be written (after trying it again) and AUDIT_BROKEN for good.
   */
  async ready(): Promise<void> {
    if (this.#broken) throw this.#broken;
    if (this.#closed) throw closedError();
    if (!this.#unavailable && !this.#full) {
      try {
        await this.#writer.probe();
        return;
      } catch (cause) {
        this.#becomeUnavailable(cause);
      }
    }
    this.#remakeDue = true;
    this.#writing ??= this.#drain();
    await this.#writing;
    if (this.#broken) throw this.#broken;
    if (this.#unavailable) throw this.#unavailable;
    if (this.#full) throw this.#full;
  }

  /**
   * Seals and writes one record; resolves once it is in the file. While the folder cannot be written the
   * record is held, to be written first when it can, and the append rejects with AUDIT_UNAVAILABLE.
   */
  append(entry: AuditEntry): Promise<AuditRecord> {
    if (this.#broken) return Promise.reject(this.#broken);
    if (this.#closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, time: this.#options.now(), resolve, reject });
      this.#writing ??= this.#drain();
    });
  }

  /** A page of records, oldest first; see `AuditQuery`. */
  async read(query: AuditQuery = {}): Promise<AuditPage> {
    const current = this.#writer.file.number;
    const committed = this.#writer.size;
    const files = (await listAuditFiles(this.dir)).filter((file) => file.number <= current);
    // Only the current file grows; older ones are read whole. Its length is taken before reading.
    return readAuditPage(
      await Promise.all(
        files.map(async (file) => ({
          file,
          bytes: file.number === current ? committed : await fileSizeOf(file.path),
        })),
      ),
      query,
    );
  }

  /** Live records as they are written, on a bounded queue of the caller's own. */
  /** Called with each record as it is sealed, before subscribers read it; returns its removal. */
  observe(listener: (record: AuditRecord) => void): () => void {
    return this.#hub.observe('record', listener);
  }

  subscribe(filter?: AuditFilter | null, capacity?: number): SubscriberQueue<AuditRecord> {
    return this.#hub.subscribe('record', {
      accepts: (record) => matchesAuditFilter(record, filter),
      ...(capacity === undefined ? {} : { capacity }),
    });
  }

  /** Waits for queued appends and forces them to disk; a failure leaves the log unavailable, not thrown. */
  async flush(): Promise<void> {
    await this.#writing;
    clearTimeout(this.#syncTimer);
    this.#syncTimer = undefined;
    if (this.#closed || this.#unavailable || this.#broken) return;
    await this.#writer.sync().catch((cause: unknown) => this.#becomeUnavailable(cause));
  }

  /**
   * Server shutdown: writes what is queued (and what is held, when the folder can be written now), syncs,
   * closes the file and ends every subscription. Records still held are reported, then lost with the process.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#unavailable) this.#writing ??= this.#drain();
    await this.flush();
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    if (this.#held.size > 0)
      this.#options.report(
        `audit log: ${this.#held.size} records of operations that acted could not be written to ${this.dir} before shutdown (${this.#unavailable?.message ?? 'unavailable'})`,
      );
    await this.#writer.drop();
    await this.#lock.release();
    this.#hub.closeAll();
  }

  /**
   * The single writer. It clears `#writing` in the same synchronous step that finds the queue empty: an
   * append resumed by this batch's resolution then starts a new writer instead of queueing behind a
   * finished one.
   */
  async #drain(): Promise<void> {
    let failed = false;
    while (!failed) {
      if (this.#full && this.#remakeDue && !this.#unavailable) await this.#remakeReserve();
      failed = (this.#unavailable !== undefined && !(await this.#recover())) || this.#broken !== undefined;
      if (failed || this.#queue.length === 0) break;
      failed = !(await this.#writeBatch(this.#queue.splice(0)));
    }
    // Stopped by a failure: what is queued is held, and the retry timer starts the writer again.
    if (failed) {
      this.#refuse(this.#queue.splice(0));
      this.#scheduleRetry();
    }
    this.#writing = undefined;
  }

  /** Writes a batch in order; false when the folder failed part way (the rest is then held). */
  async #writeBatch(batch: readonly Waiting[]): Promise<boolean> {
    const written: { waiting: Waiting; record: AuditRecord }[] = [];
    let ok = true;
    try {
      while (written.length < batch.length) {
        const next = batch.slice(written.length);
        const sealed = sealFitting(next, this.#seq, this.#lastHash, {
          used: this.#writer.size,
          max: this.#options.maxFileBytes,
        });
        if (sealed.length === 0) {
          await this.#writer.rotate();
          continue;
        }
        try {
          await this.#writer.write(sealed.map(({ line }) => line));
        } catch (error) {
          if (!(error instanceof AuditWriteFailure)) throw error;
          this.#commit(next, sealed.slice(0, error.linesWritten), written);
          throw error.cause;
        }
        this.#commit(next, sealed, written);
      }
      if (this.#options.syncEveryRecord || this.#writer.syncDue) await this.#writer.sync();
      else this.#scheduleSync();
      // A full disk was met and the reserve spent on these records: they are written, and so will the records
      // of the operations still acting be, but no new one may start until there is room again.
      if (this.#writer.reserveSpentOn && !this.#full) {
        this.#full = unwritableFolderError(this.dir, this.#writer.reserveSpentOn);
        this.#options.report(
          `audit log: the disk of ${this.dir} is full (ENOSPC); its reserve took the records in flight, and operations are refused until it has room again`,
        );
        this.#scheduleRetry();
      }
    } catch (cause) {
      this.#becomeUnavailable(cause);
      this.#refuse(batch.slice(written.length));
      ok = false;
    }
    for (const { waiting, record } of written) {
      waiting.resolve(record);
      this.#hub.publish('record', record);
    }
    return ok;
  }

  #commit(
    waiting: readonly Waiting[],
    sealed: readonly { record: AuditRecord }[],
    into: { waiting: Waiting; record: AuditRecord }[],
  ): void {
    sealed.forEach(({ record }, index) => {
      into.push({ waiting: waiting[index]!, record });
      this.#seq = record.seq;
      this.#lastHash = record.hash;
    });
  }

  /** Holds what could not be written (while the log can still be continued) and tells its callers why. */
  #refuse(waiting: readonly Waiting[]): void {
    const error = this.#broken ?? this.#unavailable ?? closedError();
    for (const item of waiting) {
      if (!this.#broken) this.#held.hold(item);
      item.reject(error);
    }
  }

  /** Opens the folder again; when it works, the held records are queued first and the log is available. */
  async #recover(): Promise<boolean> {
    let rewritten: number;
    try {
      rewritten = await this.#writer.reopen();
    } catch (cause) {
      if (cause instanceof StagegraphError && cause.code === 'AUDIT_BROKEN') {
        this.#broken = cause;
        this.#options.report(`audit log: ${cause.message} Governed operations are refused until a restart.`);
        this.#held.take();
      } else this.#unavailable = unwritableFolderError(this.dir, cause);
      return false;
    }
    const taken = this.#held.take();
    const held = taken.items.map((item) => ({ ...item, resolve: ignore, reject: ignore }));
    this.#queue.unshift(...held);
    this.#unavailable = undefined;
    // Reopening made the reserve again.
    this.#full = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const lost =
      taken.lost > 0 ? `; ${taken.lost} records were lost (more than ${MAX_HELD_AUDIT_RECORDS} held)` : '';
    const again = rewritten > 0 ? `; wrote again ${rewritten} bytes of records the filesystem had lost` : '';
    this.#options.report(
      `audit log: ${this.dir} can be written again${again}; writing the ${held.length} records held meanwhile first${lost}`,
    );
    return true;
  }

  /** Tries to make the reserve again: when the disk has room for it, operations may start again. */
  async #remakeReserve(): Promise<void> {
    this.#remakeDue = false;
    try {
      await this.#writer.remakeReserve();
    } catch {
      this.#scheduleRetry();
      return;
    }
    this.#full = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#options.report(`audit log: ${this.dir} has room again; its reserve is made again`);
  }

  #becomeUnavailable(cause: unknown): void {
    if (this.#unavailable || this.#broken) return;
    this.#unavailable = unwritableFolderError(this.dir, cause);
    this.#options.report(`audit log: ${this.#unavailable.message}`);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#retryTimer || this.#closed || this.#broken || !(this.#unavailable || this.#full)) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#closed || !(this.#unavailable || this.#full)) return;
      this.#remakeDue = true;
      this.#writing ??= this.#drain();
    }, AUDIT_RETRY_INTERVAL_MS);
    // A retry is upkeep, not work: it must not hold a stopping process open.
    this.#retryTimer.unref();
  }

  #scheduleSync(): void {
    if (this.#syncTimer) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      if (this.#closed || this.#unavailable || this.#broken) return;
      // Data the kernel could not persist may be gone: refuse to go on as if it were recorded.
      this.#writer.sync().catch((cause: unknown) => this.#becomeUnavailable(cause));
    }, AUDIT_FSYNC_INTERVAL_MS);
    // The sync is a safety net, not work: it must not hold a stopping process open.
    this.#syncTimer.unref();
  }
}

function closedError(): StagegraphError {
  return new StagegraphError('AUDIT_BROKEN', 'The audit log is closed.');
}
