import { constants } from 'node:fs';
import { access, type FileHandle, open } from 'node:fs/promises';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { OWNER_ONLY_FILE } from '../../transports/process/owner-only-modes.js';
import { type AuditFile, auditFile } from './audit-files.js';
import { AUDIT_RESERVE_BYTES, AuditReserve } from './audit-reserve.js';
import { MAX_UNSYNCED_AUDIT_BYTES, UnsyncedTail } from './audit-unsynced.js';

/** A failed append: how many of its lines are whole in the file (those are records now) and why it failed. */
export class AuditWriteFailure extends Error {
  readonly linesWritten: number;

  constructor(linesWritten: number, cause: unknown) {
    super('An audit append failed.', { cause });
    this.linesWritten = linesWritten;
  }
}

/**
 * The file end of the audit log: one append handle on the current file, the length of what it holds in whole
 * lines, rotation, the disk reserve, and the bytes not yet synced. After a failure it holds no handle (so the
 * filesystem can be unmounted and repaired) until `reopen`, which puts the file back to exactly the lines
 * written: a partial line cut off, lines the filesystem lost written again.
 */
export class AuditFileWriter {
  readonly dir: string;
  #file: AuditFile;
  #handle: FileHandle | null;
  #size: number;
  #reserve: AuditReserve;
  /** The full disk's error once an append went out on the reserve's room. */
  #reserveSpentOn: unknown;
  #unsynced: UnsyncedTail;
  /**
   * Why the last append failed, until `reopen`: a sync the timer starts while that append is still letting go
   * of the handle fails for the same reason, not because the file is not open.
   */
  #failedOn: unknown;

  static async open(dir: string, file: AuditFile): Promise<AuditFileWriter> {
    const reserve = new AuditReserve(dir);
    await reserve.make();
    const handle = await open(file.path, 'a', OWNER_ONLY_FILE);
    const size = (await handle.stat()).size;
    return new AuditFileWriter(dir, file, handle, size, reserve);
  }

  private constructor(dir: string, file: AuditFile, handle: FileHandle, size: number, reserve: AuditReserve) {
    this.dir = dir;
    this.#file = file;
    this.#handle = handle;
    this.#size = size;
    this.#reserve = reserve;
    // What an earlier process wrote is taken as on the disk: there is nothing left to write it again from.
    this.#unsynced = new UnsyncedTail(size);
  }

  get file(): AuditFile {
    return this.#file;
  }

  /** Bytes of whole lines in the current file. */
  get size(): number {
    return this.#size;
  }

  /** More is unsynced than the log keeps to write again: sync before going on. */
  get syncDue(): boolean {
    return this.#unsynced.bytes > MAX_UNSYNCED_AUDIT_BYTES;
  }

  /** Set (ENOSPC) once an append went out on the reserve's room: the disk is full; make the reserve again. */
  get reserveSpentOn(): unknown {
    return this.#reserveSpentOn;
  }

  /**
   * Appends the lines. A full disk is met by giving back the reserve and going on. On a failure the whole
   * lines stay (they are records), a partial one is cut off, the handle is dropped, and `AuditWriteFailure`
   * says how many lines are whole.
   */
  async write(lines: readonly Buffer[]): Promise<void> {
    const data = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
    let done = 0;
    try {
      if (!this.#handle) throw this.#notOpen();
      while (done < data.length) {
        try {
          done += await writeSome(this.#handle, data, done);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC' || !(await this.#spendReserve(error)))
            throw error;
        }
      }
      this.#size += data.length;
      this.#unsynced.add(data);
    } catch (cause) {
      this.#failedOn = cause;
      let whole = 0;
      let wholeBytes = 0;
      for (const line of lines) {
        if (wholeBytes + line.length > done) break;
        whole += 1;
        wholeBytes += line.length;
      }
      this.#size += wholeBytes;
      this.#unsynced.add(data.subarray(0, wholeBytes));
      // Cut the partial line at once where the disk lets us; `reopen` cuts it otherwise.
      await this.#handle?.truncate(this.#size).catch(() => {});
      await this.drop();
      throw new AuditWriteFailure(whole, cause);
    }
  }

  /** Closes the current file and opens the next; on failure the current one stays open and current. */
  async rotate(): Promise<void> {
    if (!this.#handle) throw this.#notOpen();
    await this.#handle.sync();
    const next = auditFile(this.dir, this.#file.number + 1);
    const handle = await open(next.path, 'a', OWNER_ONLY_FILE);
    await this.#handle.close().catch(() => {});
    this.#file = next;
    this.#handle = handle;
    this.#size = (await handle.stat()).size;
    this.#unsynced.reset(this.#size);
  }

  async sync(): Promise<void> {
    if (!this.#handle) throw this.#notOpen();
    const durable = this.#unsynced.mark();
    await this.#handle.sync();
    durable();
  }

  /**
   * Whether the current file can be written: fails on a read-only filesystem (EROFS) or an immutable file
   * (EPERM), which stop even root, before an operation acts rather than when its record is written. A full
   * disk passes: the reserve is there for it.
   */
  async probe(): Promise<void> {
    await access(this.#file.path, constants.W_OK);
    await this.#reserve.probe();
  }

  /**
   * Opens the current file again after a failure and makes the reserve again; resolves with the bytes it had
   * to write again. Bytes past the lines written are the partial line of the failed write, cut off; lines
   * missing since the last sync were lost by the filesystem and are written again. AUDIT_BROKEN when the file
   * lost synced lines or holds other bytes: records are gone.
   */
  async reopen(): Promise<number> {
    await this.drop();
    await this.#reserve.make();
    // Read as well as append: what survived of the unsynced lines is compared with what was written.
    const handle = await open(this.#file.path, 'a+', OWNER_ONLY_FILE);
    let rewritten = 0;
    try {
      const size = (await handle.stat()).size;
      if (size > this.#size) await handle.truncate(this.#size);
      if (size < this.#size) {
        const missing = await this.#unsynced.missing(handle, size, this.#size);
        if (!missing)
          throw new StagegraphError(
            'AUDIT_BROKEN',
            `${this.#file.path} holds ${size} bytes, not the ${this.#size} the audit log wrote to it: records were removed or changed while it could not be written.`,
            { details: { file: this.#file.path } },
          );
        await writeAll(handle, missing);
        rewritten = missing.length;
      }
      const durable = this.#unsynced.mark();
      await handle.sync();
      durable();
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    this.#handle = handle;
    this.#reserveSpentOn = undefined;
    this.#failedOn = undefined;
    return rewritten;
  }

  /** Makes the reserve again after a full disk took it; rejects (ENOSPC) while there is no room for it. */
  async remakeReserve(): Promise<void> {
    await this.#reserve.make();
    this.#reserveSpentOn = undefined;
  }

  /** Lets go of the handle; nothing on the audit folder's filesystem stays open. */
  async drop(): Promise<void> {
    const handle = this.#handle;
    this.#handle = null;
    await handle?.close().catch(() => {});
    await this.#reserve.close();
  }

  #notOpen(): unknown {
    return this.#failedOn ?? new Error('the audit file is not open');
  }

  async #spendReserve(full: unknown): Promise<boolean> {
    if (this.#reserveSpentOn) return false;
    const released = await this.#reserve.release().catch(() => false);
    if (released) this.#reserveSpentOn = full;
    return released;
  }
}

/** One write(2) of what is left from `offset`: how much the file took (a full disk takes less). */
async function writeSome(handle: FileHandle, data: Buffer, offset: number): Promise<number> {
  const { bytesWritten } = await handle.write(data, offset);
  if (bytesWritten === 0) throw new Error('the audit file took no bytes');
  return bytesWritten;
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  for (let done = 0; done < data.length; ) done += await writeSome(handle, data, done);
}

/** The folder's own words (ENOSPC, EROFS, EACCES…) and what to do about it. */
export function unwritableFolderError(dir: string, cause: unknown): StagegraphError {
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
  const full = errno === 'ENOSPC' || errno === 'EDQUOT' || errno === 'EFBIG';
  return new StagegraphError(
    'AUDIT_UNAVAILABLE',
    `The audit folder ${dir} cannot be written (${errno}): governed operations are refused before they act until it can.`,
    {
      cause,
      details: { dir, errno },
      hint: full
        ? `Free disk space on the filesystem of ${dir} (or raise the quota); the gateway tries again every second and on each operation.`
        : `Make ${dir} writable again (a read-only remount, an immutable flag or its permissions); the gateway tries again every second and on each operation.`,
    },
  );
}

/**
 * Why the log cannot open in `dir`: a filesystem error (an errno: ENOSPC, EROFS, EACCES…) as AUDIT_UNAVAILABLE
 * in the folder's own words; anything else, ours or already registered, as it is.
 */
export function openRefusal(dir: string, error: unknown): unknown {
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof StagegraphError || typeof errno !== 'string' || !/^E[A-Z]+$/.test(errno)) return error;
  const full = errno === 'ENOSPC' || errno === 'EDQUOT' || errno === 'EFBIG';
  return new StagegraphError(
    'AUDIT_UNAVAILABLE',
    `The audit log cannot open in ${dir} (${errno}): nothing is governed without it.`,
    {
      cause: error,
      details: { dir, errno },
      hint: full
        ? `Free disk space on the filesystem of ${dir} (the log keeps a ${AUDIT_RESERVE_BYTES / 1024} KiB reserve there), or give another --audit-dir, and start again.`
        : `Make ${dir} writable (its permissions, a read-only mount), or give another --audit-dir, and start again.`,
    },
  );
}
