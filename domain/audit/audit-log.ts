import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { SubscriberQueue } from '../bounded/subscriber-queue.js';
import { EventHub } from '../events/event-hub.js';
import { type AuditFile, auditFile, listAuditFiles } from './audit-files.js';
import {
  type AuditFilter,
  type AuditPage,
  type AuditQuery,
  matchesAuditFilter,
  readAuditPage,
} from './audit-query.js';
import { type AuditEntry, type AuditRecord, GENESIS_HASH, sealRecord } from './audit-record.js';
import { readAuditTail } from './audit-tail.js';

/** Small enough to open in an editor and to copy off a machine, large enough that rotation is rare. */
export const DEFAULT_MAX_AUDIT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * How long an appended record may sit in the OS page cache before fsync. Every append is written (so it
 * survives the process crashing) before it resolves; only a power loss or kernel crash can take the last
 * quarter second. fsync per record would cost about as much as the click it records.
 */
export const AUDIT_FSYNC_INTERVAL_MS = 250;

export interface AuditLogOptions {
  readonly maxFileBytes?: number;
  /** fsync before each append resolves: for deployments where no record may ever be lost. */
  readonly syncEveryRecord?: boolean;
  /** Tests inject time. */
  readonly now?: () => Date;
}

/** What opening found: a torn last line (a crash mid-write) is cut off and reported here. */
export interface AuditRecovery {
  readonly file: string;
  readonly droppedBytes: number;
}

interface Waiting {
  readonly entry: AuditEntry;
  readonly resolve: (record: AuditRecord) => void;
  readonly reject: (error: unknown) => void;
}

type AuditTopics = { record: AuditRecord };

/**
 * The append-only, hash-chained audit log of one directory. Appends are queued and written in order by a
 * single writer (queued ones go out in one write), so records never interleave and the chain is linear.
 * Files rotate by size; the first record of a new file carries the previous file's last hash.
 */
export class AuditLog {
  readonly dir: string;
  readonly recovered: AuditRecovery | null;
  #options: Required<Omit<AuditLogOptions, 'now'>> & { now: () => Date };
  #file: AuditFile;
  #handle: FileHandle;
  #size: number;
  #seq: number;
  #lastHash: string;
  #queue: Waiting[] = [];
  #writing: Promise<void> | undefined;
  #syncTimer: NodeJS.Timeout | undefined;
  #failure: StagegraphError | undefined;
  #closed = false;
  #hub = new EventHub<AuditTopics>();

  /** Opens (or creates) the log and continues its chain; AUDIT_BROKEN when its last record is corrupt. */
  static async open(dir: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    await mkdir(dir, { recursive: true });
    const files = await listAuditFiles(dir);
    let seq = 0;
    let lastHash = GENESIS_HASH;
    let recovered: AuditRecovery | null = null;
    // Newest first: an empty newest file (rotated just before a crash) continues the chain of the one before.
    for (const file of [...files].reverse()) {
      const tail = await readAuditTail(file);
      if (tail.tornBytes > 0 && file === files.at(-1)) {
        const handle = await open(file.path, 'r+');
        await handle.truncate(tail.completeBytes);
        await handle.close();
        recovered = { file: file.path, droppedBytes: tail.tornBytes };
      }
      if (tail.record) {
        seq = tail.record.seq;
        lastHash = tail.record.hash;
        break;
      }
    }
    const current = files.at(-1) ?? auditFile(dir, 1);
    const handle = await open(current.path, 'a');
    const size = (await handle.stat()).size;
    return new AuditLog(dir, { current, handle, size, seq, lastHash, recovered }, options);
  }

  private constructor(
    dir: string,
    state: {
      current: AuditFile;
      handle: FileHandle;
      size: number;
      seq: number;
      lastHash: string;
      recovered: AuditRecovery | null;
    },
    options: AuditLogOptions,
  ) {
    this.dir = dir;
    this.recovered = state.recovered;
    this.#file = state.current;
    this.#handle = state.handle;
    this.#size = state.size;
    this.#seq = state.seq;
    this.#lastHash = state.lastHash;
    this.#options = {
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_AUDIT_FILE_BYTES,
      syncEveryRecord: options.syncEveryRecord ?? false,
      now: options.now ?? (() => new Date()),
    };
  }

  /** Set once a write or sync failed; the chokepoint refuses operations before they act while it is. */
  get failure(): StagegraphError | undefined {
    return this.#failure;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  get lastHash(): string {
    return this.#lastHash;
  }

  /**
   * Seals and writes one record; resolves once it is in the file. After a failed write every later append
   * fails with AUDIT_BROKEN: governed operations must not go on unrecorded.
   */
  append(entry: AuditEntry): Promise<AuditRecord> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new StagegraphError('AUDIT_BROKEN', 'The audit log is closed.'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject });
      this.#writing ??= this.#drain();
    });
  }

  /** A page of records, oldest first; see `AuditQuery`. */
  async read(query: AuditQuery = {}): Promise<AuditPage> {
    const current = this.#file.number;
    const committed = this.#size;
    const files = (await listAuditFiles(this.dir)).filter((file) => file.number <= current);
    // Only the current file grows; older ones are read whole. Its length is taken before reading.
    return readAuditPage(
      await Promise.all(
        files.map(async (file) => ({
          file,
          bytes: file.number === current ? committed : await fileSize(file),
        })),
      ),
      query,
    );
  }

  /** Live records as they are written, on a bounded queue of the caller's own. */
  subscribe(filter?: AuditFilter | null, capacity?: number): SubscriberQueue<AuditRecord> {
    return this.#hub.subscribe('record', {
      accepts: (record) => matchesAuditFilter(record, filter),
      ...(capacity === undefined ? {} : { capacity }),
    });
  }

  /** Waits for queued appends and forces them to disk. */
  async flush(): Promise<void> {
    await this.#writing;
    clearTimeout(this.#syncTimer);
    this.#syncTimer = undefined;
    if (!this.#closed) await this.#handle.sync();
  }

  /** Server shutdown: writes what is queued, syncs, closes the file and ends every subscription. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.flush();
    this.#closed = true;
    await this.#handle.close();
    this.#hub.closeAll();
  }

  /**
   * The single writer. It clears `#writing` in the same synchronous step that finds the queue empty: an
   * append resumed by this batch's resolution then starts a new writer instead of queueing behind a
   * finished one.
   */
  async #drain(): Promise<void> {
    for (;;) {
      if (this.#queue.length === 0) {
        this.#writing = undefined;
        return;
      }
      const batch = this.#queue.splice(0);
      const written: AuditRecord[] = [];
      try {
        let lines: Buffer[] = [];
        let pending = 0;
        for (const { entry } of batch) {
          const sealed = sealRecord(entry, this.#seq + 1, this.#options.now(), this.#lastHash);
          const { record } = sealed;
          const line = Buffer.from(sealed.line);
          // Rotate before a line that would overflow the file, unless the file is empty (one huge record).
          if (this.#size + pending + line.length > this.#options.maxFileBytes && this.#size + pending > 0) {
            await this.#write(lines, pending);
            lines = [];
            pending = 0;
            await this.#rotate();
          }
          lines.push(line);
          pending += line.length;
          written.push(record);
          this.#seq = record.seq;
          this.#lastHash = record.hash;
        }
        await this.#write(lines, pending);
        if (this.#options.syncEveryRecord) await this.#handle.sync();
        else this.#scheduleSync();
      } catch (cause) {
        this.#failure = new StagegraphError('AUDIT_BROKEN', `Writing the audit log in ${this.dir} failed.`, {
          cause,
        });
        for (const waiting of [...batch, ...this.#queue.splice(0)]) waiting.reject(this.#failure);
        this.#writing = undefined;
        return;
      }
      batch.forEach((waiting, index) => {
        const record = written[index]!;
        waiting.resolve(record);
        this.#hub.publish('record', record);
      });
    }
  }

  async #write(lines: Buffer[], bytes: number): Promise<void> {
    if (bytes === 0) return;
    await this.#handle.write(lines.length === 1 ? lines[0]! : Buffer.concat(lines, bytes));
    this.#size += bytes;
  }

  async #rotate(): Promise<void> {
    await this.#handle.sync();
    await this.#handle.close();
    this.#file = auditFile(this.dir, this.#file.number + 1);
    this.#handle = await open(this.#file.path, 'a');
    this.#size = 0;
  }

  #scheduleSync(): void {
    if (this.#syncTimer) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      if (this.#closed || this.#failure) return;
      this.#handle.sync().catch((cause: unknown) => {
        // Data the kernel could not persist may be gone: refuse to go on as if it were recorded.
        this.#failure ??= new StagegraphError(
          'AUDIT_BROKEN',
          `Syncing the audit log in ${this.dir} failed.`,
          { cause },
        );
      });
    }, AUDIT_FSYNC_INTERVAL_MS);
    // The sync is a safety net, not work: it must not hold a stopping process open.
    this.#syncTimer.unref();
  }
}

async function fileSize(file: AuditFile): Promise<number> {
  const handle = await open(file.path, 'r');
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}
