import { type FileHandle, open, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { OWNER_ONLY_FILE } from '../../transports/process/owner-only-modes.js';

/**
 * Room kept on the audit folder's filesystem for the records of the operations in flight when the disk
 * fills: they have acted, so their records must land. A record is 1–3 KB (argument strings are cut at
 * 2,048 characters), so this holds about a hundred even at their largest.
 */
export const AUDIT_RESERVE_BYTES = 256 * 1024;

/** Not an `audit-NNNNNN.jsonl` name: the log's readers and verifyAudit pass over it. */
export const AUDIT_RESERVE_NAME = 'audit-reserve.bin';

/** Written in pieces so that making the reserve never holds the whole of it in memory at once. */
const RESERVE_CHUNK_BYTES = 64 * 1024;

const ONE_ZERO = Buffer.alloc(1);

/**
 * A file of real (written, not sparse) blocks beside the log. When an append meets a full disk the reserve is
 * given back to the filesystem and the append goes through on its space; the log then refuses new operations
 * until the reserve can be made again, which needs free space, which is the operator's fix.
 */
export class AuditReserve {
  readonly path: string;
  /** Kept open between probes; closed by `close` so nothing holds the filesystem when it must be repaired. */
  #probe: Promise<FileHandle> | null = null;

  constructor(dir: string) {
    this.path = join(dir, AUDIT_RESERVE_NAME);
  }

  /** Whether the whole reserve is on disk. */
  async held(): Promise<boolean> {
    return (await this.#size()) >= AUDIT_RESERVE_BYTES;
  }

  /**
   * Makes the reserve whole; rejects (ENOSPC, EROFS…) when it cannot, giving back what it wrote so a nearly
   * full disk is not left fuller by the attempt.
   */
  async make(): Promise<void> {
    if (await this.held()) return;
    const handle = await open(this.path, 'w', OWNER_ONLY_FILE);
    try {
      const zeros = Buffer.alloc(RESERVE_CHUNK_BYTES);
      let written = 0;
      while (written < AUDIT_RESERVE_BYTES) written += (await handle.write(zeros)).bytesWritten;
      await handle.sync();
    } catch (error) {
      await handle.truncate(0).catch(() => {});
      throw error;
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes its first byte over again: a write that needs no new space, so it fails only where the filesystem
   * refuses writes (EROFS once ext4 turns itself read-only after an error, which access() does not see).
   */
  async probe(): Promise<void> {
    this.#probe ??= open(this.path, 'r+');
    const opened = this.#probe;
    try {
      await (await opened).write(ONE_ZERO, 0, 1, 0);
    } catch (error) {
      if (this.#probe === opened) await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const opened = this.#probe;
    this.#probe = null;
    await opened?.then((handle) => handle.close()).catch(() => {});
  }

  /** Gives the reserve's blocks back to the filesystem; false when there was none to give. */
  async release(): Promise<boolean> {
    if ((await this.#size()) === 0) return false;
    await truncate(this.path, 0);
    return true;
  }

  async #size(): Promise<number> {
    try {
      return (await stat(this.path)).size;
    } catch {
      return 0;
    }
  }
}
